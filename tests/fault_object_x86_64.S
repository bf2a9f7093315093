/*
 * fault_object_x86_64.S - copy routines of a program's own, their fault
 * sites listed with <ucopy-asm.h>, for tests/test_fault_objects.c (the
 * Makefile builds $(B)/tests/libfault_object.so from the file of $(ARCH)).
 *
 * Assumptions: System V arguments, dst in rdi, src in rsi, n in rdx (and
 * a fourth in rcx); a byte at a time, so that the cursors say where a
 * fault stopped: rdx counts down only once a byte is stored, and the fixup
 * returns it, the bytes not copied (ucopy_try()'s contract).
 */
#include <ucopy-asm.h>
#include "fault_object.h"

/* One routine: both accesses listed with `type` when `store` is 1, the
 * load alone when 0; with `trapnr`, the fixup stores what it finds in eax
 * at the fourth argument, which the routine set to -1 before its first
 * access, as copy_user_64.S's fixups read the trap number there. */
.macro BYTES name, type, store, trapnr
	.text
	.globl	\name
	.type	\name, @function
\name:
	mov	$-1, %eax
	test	%rdx, %rdx
	jz	2f
1:	movb	(%rsi), %r8b
3:	movb	%r8b, (%rdi)
	inc	%rsi
	inc	%rdi
	dec	%rdx
	jnz	1b
2:	xor	%eax, %eax
	ret
4:
	.if \trapnr
	mov	%eax, (%rcx)
	.endif
	mov	%rdx, %rax
	ret
	.size	\name, . - \name
	UCOPY_EXTABLE_TYPE(1b, 4b, \type)
	.if \store
	UCOPY_EXTABLE_TYPE(3b, 4b, \type)
	.endif
.endm

/* size_t fo_bytes(void *dst, const void *src, size_t n) */
	BYTES	fo_bytes, UCOPY_EX_RESUME, 1, 0
/* size_t fo_trapnr(void *dst, const void *src, size_t n, unsigned *trapnr) */
	BYTES	fo_trapnr, UCOPY_EX_TRAPNR, 1, 1
/* size_t fo_missing(void *dst, const void *src, size_t n): the store left
 * out of the table, the bug a check must find. */
	BYTES	fo_missing, UCOPY_EX_RESUME, 0, 0

/* A note of ucopy's with a type it does not know (a later release's):
 * skipped, not refused. */
	RAW_NOTE(UCOPY_NOTE_EXTABLE + 0x100, 4, 0)

	.section .note.GNU-stack, "", %progbits
