/*
 * sse2.S - 16-byte SSE2 vector copy.
 *
 * Assumptions: x86-64 SysV (SSE2 is baseline); no alignment; src and dst do
 * not overlap.
 *
 * Size classes (as glibc's memmove-vec-unaligned-erms, V = 16):
 *   0..16    general registers: a head and a tail access that overlap
 *   17..32   two vectors, 33..64 four, 65..128 eight: head and tail halves
 *            that overlap in the middle, no branch on the exact size
 *   > 128    one unaligned vector at the head, then 64-byte blocks with
 *            aligned stores, then the last 64 bytes from the end (they
 *            overlap what the loop stored)
 *
 * Fault discipline.  Stores only ever extend the prefix of dst already
 * written (each store starts at or before its end), so a fault never leaves
 * bytes past the first faulting one written.  The short classes do all their
 * loads before their stores and leave rdi/rsi/rdx as passed: their fixup
 * restarts from the start.  The loop keeps rdi/rsi/rdx at the first byte of
 * the block in flight, everything before it committed by the head store.
 */
#include "asm.h"

FUNC(ucopy_k_sse2)
	mov	%rdi, %rax
	cmp	$16, %rdx
	jbe	.Lle16
	cmp	$32, %rdx
	ja	.Lgt32
	EX(.Lfix, movdqu (%rsi), %xmm0)
	EX(.Lfix, movdqu -16(%rsi,%rdx), %xmm1)
	EX(.Lfix, movdqu %xmm0, (%rdi))
	EX(.Lfix, movdqu %xmm1, -16(%rdi,%rdx))
	xor	%edx, %edx
	ret

.Lle16:
	cmp	$8, %edx
	jae	.L8_16
	cmp	$4, %edx
	jae	.L4_7
	cmp	$1, %edx
	ja	.L2_3
	jb	.Lret
	EX(.Lfix, movzbl (%rsi), %ecx)
	EX(.Lfix, movb %cl, (%rdi))
.Lret:
	xor	%edx, %edx
	ret
.L2_3:
	EX(.Lfix, movzwl (%rsi), %ecx)
	EX(.Lfix, movzwl -2(%rsi,%rdx), %r8d)
	EX(.Lfix, movw %cx, (%rdi))
	EX(.Lfix, movw %r8w, -2(%rdi,%rdx))
	xor	%edx, %edx
	ret
.L4_7:
	EX(.Lfix, movl (%rsi), %ecx)
	EX(.Lfix, movl -4(%rsi,%rdx), %r8d)
	EX(.Lfix, movl %ecx, (%rdi))
	EX(.Lfix, movl %r8d, -4(%rdi,%rdx))
	xor	%edx, %edx
	ret
.L8_16:
	EX(.Lfix, movq (%rsi), %rcx)
	EX(.Lfix, movq -8(%rsi,%rdx), %r8)
	EX(.Lfix, movq %rcx, (%rdi))
	EX(.Lfix, movq %r8, -8(%rdi,%rdx))
	xor	%edx, %edx
	ret

.Lgt32:
	cmp	$64, %rdx
	ja	.Lgt64
	EX(.Lfix, movdqu (%rsi), %xmm0)
	EX(.Lfix, movdqu 16(%rsi), %xmm1)
	EX(.Lfix, movdqu -32(%rsi,%rdx), %xmm2)
	EX(.Lfix, movdqu -16(%rsi,%rdx), %xmm3)
	EX(.Lfix, movdqu %xmm0, (%rdi))
	EX(.Lfix, movdqu %xmm1, 16(%rdi))
	EX(.Lfix, movdqu %xmm2, -32(%rdi,%rdx))
	EX(.Lfix, movdqu %xmm3, -16(%rdi,%rdx))
	xor	%edx, %edx
	ret

.Lgt64:
	cmp	$128, %rdx
	ja	.Lgt128
	EX(.Lfix, movdqu (%rsi), %xmm0)
	EX(.Lfix, movdqu 16(%rsi), %xmm1)
	EX(.Lfix, movdqu 32(%rsi), %xmm2)
	EX(.Lfix, movdqu 48(%rsi), %xmm3)
	EX(.Lfix, movdqu -64(%rsi,%rdx), %xmm4)
	EX(.Lfix, movdqu -48(%rsi,%rdx), %xmm5)
	EX(.Lfix, movdqu -32(%rsi,%rdx), %xmm6)
	EX(.Lfix, movdqu -16(%rsi,%rdx), %xmm7)
	EX(.Lfix, movdqu %xmm0, (%rdi))
	EX(.Lfix, movdqu %xmm1, 16(%rdi))
	EX(.Lfix, movdqu %xmm2, 32(%rdi))
	EX(.Lfix, movdqu %xmm3, 48(%rdi))
	EX(.Lfix, movdqu %xmm4, -64(%rdi,%rdx))
	EX(.Lfix, movdqu %xmm5, -48(%rdi,%rdx))
	EX(.Lfix, movdqu %xmm6, -32(%rdi,%rdx))
	EX(.Lfix, movdqu %xmm7, -16(%rdi,%rdx))
	xor	%edx, %edx
	ret

.Lgt128:
	/* The head store commits dst[0..16), so moving the cursors up to the
	 * next 16-byte boundary of dst (1..16 bytes) keeps them committed. */
	EX(.Lfix, movdqu (%rsi), %xmm0)
	EX(.Lfix, movdqu %xmm0, (%rdi))
	mov	%edi, %ecx
	and	$15, %ecx
	sub	$16, %rcx
	sub	%rcx, %rdi
	sub	%rcx, %rsi
	add	%rcx, %rdx
	.p2align 4
.Lloop:
	EX(.Lfix, movdqu (%rsi), %xmm0)
	EX(.Lfix, movdqu 16(%rsi), %xmm1)
	EX(.Lfix, movdqu 32(%rsi), %xmm2)
	EX(.Lfix, movdqu 48(%rsi), %xmm3)
	EX(.Lfix, movdqa %xmm0, (%rdi))
	EX(.Lfix, movdqa %xmm1, 16(%rdi))
	EX(.Lfix, movdqa %xmm2, 32(%rdi))
	EX(.Lfix, movdqa %xmm3, 48(%rdi))
	add	$64, %rsi
	add	$64, %rdi
	sub	$64, %rdx
	cmp	$64, %rdx
	ja	.Lloop
	EX(.Lfix, movdqu -64(%rsi,%rdx), %xmm0)
	EX(.Lfix, movdqu -48(%rsi,%rdx), %xmm1)
	EX(.Lfix, movdqu -32(%rsi,%rdx), %xmm2)
	EX(.Lfix, movdqu -16(%rsi,%rdx), %xmm3)
	EX(.Lfix, movdqu %xmm0, -64(%rdi,%rdx))
	EX(.Lfix, movdqu %xmm1, -48(%rdi,%rdx))
	EX(.Lfix, movdqu %xmm2, -32(%rdi,%rdx))
	EX(.Lfix, movdqu %xmm3, -16(%rdi,%rdx))
	xor	%edx, %edx
	ret

.Lfix:
	jmp	ucopy_fixup_tail
END(ucopy_k_sse2)

	.section .note.GNU-stack, "", @progbits
