/*
 * avx512.S - 64-byte AVX-512 vector copy.
 *
 * Assumptions: x86-64 SysV; AVX-512F for the zmm moves (vmovdqu64/vmovdqa64)
 * and AVX for the VEX xmm/ymm moves of the short sizes (the caller checked
 * the CPU and that the OS enabled the zmm state); no alignment; src and dst
 * do not overlap.  Assembles with any binutils that knows AVX-512 (2.25+),
 * whatever the build machine runs.
 *
 * Size classes (as glibc's memmove-vec-unaligned-erms, V = 64):
 *   0..16    general registers: a head and a tail access that overlap
 *   17..32   two xmm, 33..64 two ymm vectors that overlap
 *   65..128  two, 129..256 four, 257..512 eight zmm vectors: head and tail
 *            halves that overlap in the middle
 *   > 512    one unaligned vector at the head, then 256-byte blocks with
 *            stores aligned to the cache line, then the last 256 bytes from
 *            the end
 * vzeroupper before every return from a path that wrote a ymm or zmm register
 * (including the fault fixup).  Only zmm0-7 are used, which vzeroupper
 * cleans; zmm16-31 would need no vzeroupper but would need AVX-512VL for the
 * short sizes.
 *
 * Fault discipline as sse2.S: stores only extend the written prefix; short
 * classes load everything before storing and keep rdi/rsi/rdx as passed; the
 * loop keeps them at the first byte of the block in flight.
 */
#include "asm.h"

FUNC(ucopy_k_avx512)
	mov	%rdi, %rax
	cmp	$64, %rdx
	jbe	.Lle64
	cmp	$128, %rdx
	ja	.Lgt128
	EX(.Lfix, vmovdqu64 (%rsi), %zmm0)
	EX(.Lfix, vmovdqu64 -64(%rsi,%rdx), %zmm1)
	EX(.Lfix, vmovdqu64 %zmm0, (%rdi))
	EX(.Lfix, vmovdqu64 %zmm1, -64(%rdi,%rdx))
	xor	%edx, %edx
	vzeroupper
	ret

.Lle64:
	cmp	$32, %edx
	jbe	.Lle32
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

.Lgt128:
	cmp	$256, %rdx
	ja	.Lgt256
	EX(.Lfix, vmovdqu64 (%rsi), %zmm0)
	EX(.Lfix, vmovdqu64 64(%rsi), %zmm1)
	EX(.Lfix, vmovdqu64 -128(%rsi,%rdx), %zmm2)
	EX(.Lfix, vmovdqu64 -64(%rsi,%rdx), %zmm3)
	EX(.Lfix, vmovdqu64 %zmm0, (%rdi))
	EX(.Lfix, vmovdqu64 %zmm1, 64(%rdi))
	EX(.Lfix, vmovdqu64 %zmm2, -128(%rdi,%rdx))
	EX(.Lfix, vmovdqu64 %zmm3, -64(%rdi,%rdx))
	xor	%edx, %edx
	vzeroupper
	ret

.Lgt256:
	cmp	$512, %rdx
	ja	.Lgt512
	EX(.Lfix, vmovdqu64 (%rsi), %zmm0)
	EX(.Lfix, vmovdqu64 64(%rsi), %zmm1)
	EX(.Lfix, vmovdqu64 128(%rsi), %zmm2)
	EX(.Lfix, vmovdqu64 192(%rsi), %zmm3)
	EX(.Lfix, vmovdqu64 -256(%rsi,%rdx), %zmm4)
	EX(.Lfix, vmovdqu64 -192(%rsi,%rdx), %zmm5)
	EX(.Lfix, vmovdqu64 -128(%rsi,%rdx), %zmm6)
	EX(.Lfix, vmovdqu64 -64(%rsi,%rdx), %zmm7)
	EX(.Lfix, vmovdqu64 %zmm0, (%rdi))
	EX(.Lfix, vmovdqu64 %zmm1, 64(%rdi))
	EX(.Lfix, vmovdqu64 %zmm2, 128(%rdi))
	EX(.Lfix, vmovdqu64 %zmm3, 192(%rdi))
	EX(.Lfix, vmovdqu64 %zmm4, -256(%rdi,%rdx))
	EX(.Lfix, vmovdqu64 %zmm5, -192(%rdi,%rdx))
	EX(.Lfix, vmovdqu64 %zmm6, -128(%rdi,%rdx))
	EX(.Lfix, vmovdqu64 %zmm7, -64(%rdi,%rdx))
	xor	%edx, %edx
	vzeroupper
	ret

.Lgt512:
	/* The head store commits dst[0..64), so moving the cursors up to the
	 * next cache line of dst (1..64 bytes) keeps them committed. */
	EX(.Lfix, vmovdqu64 (%rsi), %zmm0)
	EX(.Lfix, vmovdqu64 %zmm0, (%rdi))
	mov	%edi, %ecx
	and	$63, %ecx
	sub	$64, %rcx
	sub	%rcx, %rdi
	sub	%rcx, %rsi
	add	%rcx, %rdx
	.p2align 4
.Lloop:
	EX(.Lfix, vmovdqu64 (%rsi), %zmm0)
	EX(.Lfix, vmovdqu64 64(%rsi), %zmm1)
	EX(.Lfix, vmovdqu64 128(%rsi), %zmm2)
	EX(.Lfix, vmovdqu64 192(%rsi), %zmm3)
	EX(.Lfix, vmovdqa64 %zmm0, (%rdi))
	EX(.Lfix, vmovdqa64 %zmm1, 64(%rdi))
	EX(.Lfix, vmovdqa64 %zmm2, 128(%rdi))
	EX(.Lfix, vmovdqa64 %zmm3, 192(%rdi))
	add	$256, %rsi
	add	$256, %rdi
	sub	$256, %rdx
	cmp	$256, %rdx
	ja	.Lloop
	EX(.Lfix, vmovdqu64 -256(%rsi,%rdx), %zmm0)
	EX(.Lfix, vmovdqu64 -192(%rsi,%rdx), %zmm1)
	EX(.Lfix, vmovdqu64 -128(%rsi,%rdx), %zmm2)
	EX(.Lfix, vmovdqu64 -64(%rsi,%rdx), %zmm3)
	EX(.Lfix, vmovdqu64 %zmm0, -256(%rdi,%rdx))
	EX(.Lfix, vmovdqu64 %zmm1, -192(%rdi,%rdx))
	EX(.Lfix, vmovdqu64 %zmm2, -128(%rdi,%rdx))
	EX(.Lfix, vmovdqu64 %zmm3, -64(%rdi,%rdx))
	xor	%edx, %edx
	vzeroupper
	ret

.Lfix:
	vzeroupper
	jmp	ucopy_fixup_tail
END(ucopy_k_avx512)

	.section .note.GNU-stack, "", @progbits
