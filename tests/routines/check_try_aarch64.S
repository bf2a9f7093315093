/*
 * check_try_aarch64.S - the try routines of check_try.h for aarch64: one
 * byte at a time, returning the bytes not copied.
 *
 * Assumptions: AAPCS64 (x0 dst, x1 src, x2 n); no alignment.
 * Fault discipline: a faulting load or store writes no register back, and
 * x2 drops after each store, so at a fault x2 is the count not copied and
 * the fixup returns it.
 */
#include <ucopy-asm.h>

	.text

.macro BYTES name
	.globl	\name
	.type	\name, %function
\name:
	.cfi_startproc
	cbz	x2, .L\name\()_done
.L\name\()_load:
	ldrb	w3, [x1], #1
.L\name\()_store:
	strb	w3, [x0], #1
	sub	x2, x2, #1
	cbnz	x2, .L\name\()_load
.L\name\()_done:
.L\name\()_fixup:
	mov	x0, x2
	ret
.endm

.macro ONE_MORE
	add	x0, x2, #1
	ret
.endm

#include "check_try.h"

	.section .note.GNU-stack, "", %progbits
