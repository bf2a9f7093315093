/*
 * check_try_x86_64.S - the try routines of check_try.h for x86-64: one
 * byte at a time, returning the bytes not copied.
 *
 * Assumptions: x86-64 SysV (rdi dst, rsi src, rdx n); no alignment.
 * Fault discipline: rsi, rdi and rdx advance after each store, so at a
 * fault rdx is the count not copied and the fixup returns it.
 */
#include <ucopy-asm.h>

	.text

.macro BYTES name
	.globl	\name
	.type	\name, @function
\name:
	.cfi_startproc
	test	%rdx, %rdx
	jz	.L\name\()_done
.L\name\()_load:
	movb	(%rsi), %cl
.L\name\()_store:
	movb	%cl, (%rdi)
	inc	%rsi
	inc	%rdi
	dec	%rdx
	jnz	.L\name\()_load
.L\name\()_done:
.L\name\()_fixup:
	mov	%rdx, %rax
	ret
.endm

.macro ONE_MORE
	lea	1(%rdx), %rax
	ret
.endm

#include "check_try.h"

	.section .note.GNU-stack, "", @progbits
