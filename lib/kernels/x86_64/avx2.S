/*
 * avx2.S - 32-byte AVX2 vector copy.
 *
 * Assumptions: x86-64 SysV; AVX2 (the caller checked the CPU and that the OS
 * enabled the ymm state); no alignment; src and dst do not overlap.
 *
 * Size classes (as glibc's memmove-vec-unaligned-erms, V = 32):
 *   0..16    general registers: a head and a tail access that overlap
 *   17..32   two xmm vectors that overlap
 *   33..64   two, 65..128 four, 129..256 eight vectors: head and tail
 *            halves that overlap in the middle
 *   > 256    one unaligned vector at the head, then 128-byte blocks with
 *            aligned stores, then the last 128 bytes from the end
 * vzeroupper before every return from a path that wrote a ymm register
 * (including the fault fixup): dirty upper halves slow down the caller's SSE
 * code.  The 0..32 paths touch no ymm register and skip it.
 *
 * Fault discipline as sse2.S: stores only extend the written prefix; short
 * classes load everything before storing and keep rdi/rsi/rdx as passed; the
 * loop keeps them at the first byte of the block in flight.
 */
#include "asm.h"

FUNC(ucopy_k_avx2)
	mov	%rdi, %rax
	cmp	$32, %rdx
	jbe	.Lle32
	cmp	$64, %rdx
	ja	.Lgt64
	EX(.Lfix, vmovdqu (%rsi), %ymm0)
	EX(.Lfix, vmovdqu -32(%rsi,%rdx), %ymm1)
	EX(.Lfix, vmovdqu %ymm0, (%rdi))
	EX(.Lfix, vmovdqu %ymm1, -32(%rdi,%rdx))
	xor	%edx, %edx
	vzeroupper
	ret

.Lle32:
	cmp	$16, %edx
	jbe	.Lle16
	EX(.Lfix, vmovdqu (%rsi), %xmm0)
	EX(.Lfix, vmovdqu -16(%rsi,%rdx), %xmm1)
	EX(.Lfix, vmovdqu %xmm0, (%rdi))
	EX(.Lfix, vmovdqu %xmm1, -16(%rdi,%rdx))
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

.Lgt64:
	cmp	$128, %rdx
	ja	.Lgt128
	EX(.Lfix, vmovdqu (%rsi), %ymm0)
	EX(.Lfix, vmovdqu 32(%rsi), %ymm1)
	EX(.Lfix, vmovdqu -64(%rsi,%rdx), %ymm2)
	EX(.Lfix, vmovdqu -32(%rsi,%rdx), %ymm3)
	EX(.Lfix, vmovdqu %ymm0, (%rdi))
	EX(.Lfix, vmovdqu %ymm1, 32(%rdi))
	EX(.Lfix, vmovdqu %ymm2, -64(%rdi,%rdx))
	EX(.Lfix, vmovdqu %ymm3, -32(%rdi,%rdx))
	xor	%edx, %edx
	vzeroupper
	ret

.Lgt128:
	cmp	$256, %rdx
	ja	.Lgt256
	EX(.Lfix, vmovdqu (%rsi), %ymm0)
	EX(.Lfix, vmovdqu 32(%rsi), %ymm1)
	EX(.Lfix, vmovdqu 64(%rsi), %ymm2)
	EX(.Lfix, vmovdqu 96(%rsi), %ymm3)
	EX(.Lfix, vmovdqu -128(%rsi,%rdx), %ymm4)
	EX(.Lfix, vmovdqu -96(%rsi,%rdx), %ymm5)
	EX(.Lfix, vmovdqu -64(%rsi,%rdx), %ymm6)
	EX(.Lfix, vmovdqu -32(%rsi,%rdx), %ymm7)
	EX(.Lfix, vmovdqu %ymm0, (%rdi))
	EX(.Lfix, vmovdqu %ymm1, 32(%rdi))
	EX(.Lfix, vmovdqu %ymm2, 64(%rdi))
	EX(.Lfix, vmovdqu %ymm3, 96(%rdi))
	EX(.Lfix, vmovdqu %ymm4, -128(%rdi,%rdx))
	EX(.Lfix, vmovdqu %ymm5, -96(%rdi,%rdx))
	EX(.Lfix, vmovdqu %ymm6, -64(%rdi,%rdx))
	EX(.Lfix, vmovdqu %ymm7, -32(%rdi,%rdx))
	xor	%edx, %edx
	vzeroupper
	ret

.Lgt256:
	/* The head store commits dst[0..32), so moving the cursors up to the
	 * next 32-byte boundary of dst (1..32 bytes) keeps them committed. */
	EX(.Lfix, vmovdqu (%rsi), %ymm0)
	EX(.Lfix, vmovdqu %ymm0, (%rdi))
	mov	%edi, %ecx
	and	$31, %ecx
	sub	$32, %rcx
	sub	%rcx, %rdi
	sub	%rcx, %rsi
	add	%rcx, %rdx
	.p2align 4
.Lloop:
	EX(.Lfix, vmovdqu (%rsi), %ymm0)
	EX(.Lfix, vmovdqu 32(%rsi), %ymm1)
	EX(.Lfix, vmovdqu 64(%rsi), %ymm2)
	EX(.Lfix, vmovdqu 96(%rsi), %ymm3)
	EX(.Lfix, vmovdqa %ymm0, (%rdi))
	EX(.Lfix, vmovdqa %ymm1, 32(%rdi))
	EX(.Lfix, vmovdqa %ymm2, 64(%rdi))
	EX(.Lfix, vmovdqa %ymm3, 96(%rdi))
	sub	$-128, %rsi
	sub	$-128, %rdi
	add	$-128, %rdx
	cmp	$128, %rdx
	ja	.Lloop
	EX(.Lfix, vmovdqu -128(%rsi,%rdx), %ymm0)
	EX(.Lfix, vmovdqu -96(%rsi,%rdx), %ymm1)
	EX(.Lfix, vmovdqu -64(%rsi,%rdx), %ymm2)
	EX(.Lfix, vmovdqu -32(%rsi,%rdx), %ymm3)
	EX(.Lfix, vmovdqu %ymm0, -128(%rdi,%rdx))
	EX(.Lfix, vmovdqu %ymm1, -96(%rdi,%rdx))
	EX(.Lfix, vmovdqu %ymm2, -64(%rdi,%rdx))
	EX(.Lfix, vmovdqu %ymm3, -32(%rdi,%rdx))
	xor	%edx, %edx
	vzeroupper
	ret

.Lfix:
	vzeroupper
	jmp	ucopy_fixup_tail
END(ucopy_k_avx2)

	.section .note.GNU-stack, "", @progbits
