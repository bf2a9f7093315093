/*
 * asm/linkage.h (ucopy kcompat, x86-64) - a return is a plain `ret`: the
 * kernel's return thunks and straight-line-speculation padding protect a
 * kernel, not a routine timed in user space.
 */
#ifndef UCOPY_KCOMPAT_ASM_LINKAGE_H
#define UCOPY_KCOMPAT_ASM_LINKAGE_H

#define RET		ret
#define ASM_RET		ret;

#endif
