/*
 * ucopy-kwrap.h (ucopy kcompat) - the frame of the wrappers
 * (ARCH/wrap-CONVENTION.S): the one function a kbuild object exports,
 * UCOPY_KSYMBOL, around the kernel's entry UCOPY_KENTRY (both defined by
 * `ucopy kbuild`).
 */
#ifndef UCOPY_KCOMPAT_KWRAP_H
#define UCOPY_KCOMPAT_KWRAP_H

#define UCOPY_KWRAP_START				\
	.text;						\
	.globl	UCOPY_KSYMBOL;				\
	.type	UCOPY_KSYMBOL, %function;		\
	.balign	16;					\
UCOPY_KSYMBOL:

#define UCOPY_KWRAP_END	.size UCOPY_KSYMBOL, . - UCOPY_KSYMBOL

#endif
