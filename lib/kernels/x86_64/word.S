/*
 * word.S - copy 8-byte words, then the tail byte by byte.
 *
 * Assumptions: x86-64 SysV; no alignment (unaligned 8-byte accesses are
 * cheap on every x86-64); src and dst do not overlap.
 *
 * Size classes: 8-byte words while 8 or more bytes remain, then 0..7 single
 * bytes.  This is the Linux kernel's short user-copy path
 * (rep_movs_alternative below 64 bytes, copy_user_short_string).
 *
 * Fault discipline: rdi/rsi/rdx are the cursors and the count left at every
 * access, so the fixup is the shared tail itself.
 */
#include "asm.h"

FUNC(ucopy_k_word)
	mov	%rdi, %rax
	cmp	$8, %rdx
	jb	.Lbytes
.Lwords:
	EX(ucopy_fixup_tail, movq (%rsi), %rcx)
	EX(ucopy_fixup_tail, movq %rcx, (%rdi))
	add	$8, %rsi
	add	$8, %rdi
	sub	$8, %rdx
	cmp	$8, %rdx
	jae	.Lwords
.Lbytes:
	test	%rdx, %rdx
	jz	.Ldone
.Lbyte:
	EX(ucopy_fixup_tail, movzbl (%rsi), %ecx)
	EX(ucopy_fixup_tail, movb %cl, (%rdi))
	inc	%rsi
	inc	%rdi
	dec	%rdx
	jnz	.Lbyte
.Ldone:
	xor	%edx, %edx
	ret
END(ucopy_k_word)

	.section .note.GNU-stack, "", @progbits
