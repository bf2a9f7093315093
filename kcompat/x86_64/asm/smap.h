/*
 * asm/smap.h (ucopy kcompat, x86-64) - stac/clac open and close a kernel's
 * access to user memory (SMAP); user space has nothing to open.
 */
#ifndef UCOPY_KCOMPAT_ASM_SMAP_H
#define UCOPY_KCOMPAT_ASM_SMAP_H

#define ASM_STAC
#define ASM_CLAC
#define ASM_CLAC_UNSAFE
#define ASM_STAC_UNSAFE

#endif
