/*
 * byte.S - copy one byte at a time.
 *
 * Assumptions: x86-64 SysV; no alignment; src and dst do not overlap.
 *
 * One size class: a load and a store per byte.  It is the slowest kernel and
 * the floor every other one is measured against; the kernel's short-copy
 * paths (and the fault fixup) end in this loop.
 *
 * Fault discipline: rdi/rsi/rdx are the cursors and the count left at every
 * access, so the fixup is the shared tail itself.
 */
#include "asm.h"

FUNC(ucopy_k_byte)
	mov	%rdi, %rax
	test	%rdx, %rdx
	jz	.Ldone
.Lloop:
	EX(ucopy_fixup_tail, movzbl (%rsi), %ecx)
	EX(ucopy_fixup_tail, movb %cl, (%rdi))
	inc	%rsi
	inc	%rdi
	dec	%rdx
	jnz	.Lloop
.Ldone:
	xor	%edx, %edx
	ret
END(ucopy_k_byte)

	.section .note.GNU-stack, "", @progbits
