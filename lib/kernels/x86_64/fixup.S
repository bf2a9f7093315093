/*
 * fixup.S - the shared tail every try body's fault fixup ends in.
 *
 * Assumptions: x86-64 SysV.  Entered by a jump (from a try body's fixup,
 * which the signal handler resumed at), never by a call: the stack is the
 * kernel's, so the return address on top is the kernel caller's.
 *   rdi  dst cursor: dst[0 .. rdi - dst) is committed (equals src)
 *   rsi  src cursor, the same offset into src
 *   rdx  bytes from the cursor to the end of the copy
 * Returns the bytes not copied in rax (a try body's result) and in rdx.
 *
 * The copy restarts at the cursor with 8-byte words, then single bytes, each
 * access itself listed in the exception table: a word that faults sends the
 * copy to the byte loop at the same position, and the byte that faults ends
 * it, so the count returned is exact (docs/design.md rule 4) whatever the kernel
 * had in flight when it faulted.  This is the Linux kernel's
 * rep_movs_alternative recovery, restarted from the last committed position.
 */
#include "asm.h"

/* Only ever part of a fault-tolerant copy: one body, try = 1. */
.macro fixup_tail_body try
	cmp	$8, %rdx
	jb	.Lbytes
.Lwords:
	EX(.Lbytes, movq (%rsi), %rcx)
	EX(.Lbytes, movq %rcx, (%rdi))
	ADVANCE 8
	cmp	$8, %rdx
	jae	.Lwords
.Lbytes:
	test	%rdx, %rdx
	jz	.Ldone
.Lbyte:
	EX(.Ldone, movzbl (%rsi), %ecx)
	EX(.Ldone, movb %cl, (%rdi))
	inc	%rsi
	inc	%rdi
	dec	%rdx
	jnz	.Lbyte
.Ldone:
	mov	%rdx, %rax
	ret
.endm

FUNC(ucopy_fixup_tail)
	fixup_tail_body 1
END(ucopy_fixup_tail)

	.section .note.GNU-stack, "", @progbits
