/*
 * asm/cache.h (ucopy kcompat, aarch64) - the line size copy_template.S
 * prefetches and aligns its loop by: the kernel's constant, not this
 * machine's (the routine built is the kernel's).
 */
#ifndef UCOPY_KCOMPAT_ASM_CACHE_H
#define UCOPY_KCOMPAT_ASM_CACHE_H

#define L1_CACHE_SHIFT	6
#define L1_CACHE_BYTES	(1 << L1_CACHE_SHIFT)

#endif
