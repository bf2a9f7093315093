/*
 * asm/alternative.h (ucopy kcompat, aarch64) - the kernel's alternatives,
 * chosen once when the object is built from the capabilities of
 * asm/cpucaps.h, where the kernel patches its code at boot.  The branches
 * are plain conditional assembly, so they are not padded to one length.
 */
#ifndef UCOPY_KCOMPAT_ASM_ALTERNATIVE_H
#define UCOPY_KCOMPAT_ASM_ALTERNATIVE_H

#include <asm/cpucaps.h>

.macro alternative_if_not cap
	.if (1 - (\cap))
.endm

.macro alternative_if cap
	.if \cap
.endm

.macro alternative_else
	.else
.endm

.macro alternative_endif
	.endif
.endm

.macro alternative_else_nop_endif
	.endif
.endm

.macro alternative_insn insn1, insn2, cap, enable = 1
	.if (\enable) && (\cap)
	\insn2
	.else
	\insn1
	.endif
.endm

/* The form of the 4.x fixups: ALTERNATIVE("nop", "...", CAP[, CONFIG]). */
#define ALTERNATIVE(oldinstr, newinstr, cap, ...) alternative_insn oldinstr, newinstr, cap

#endif
