/*
 * memmove.S - the two overlapping copies memmove needs: forward when dst is
 * below src, backward when it is above.
 *
 * Assumptions: x86-64 SysV (SSE2 is baseline); no alignment; the regions may
 * overlap in the direction the name says (either one is also correct without
 * overlap).  Not fault-tolerant: memmove has no fault-tolerant form, so no
 * exception table entries.
 *
 * Size classes (V = 16, as sse2.S):
 *   0..128   load everything (two accesses or 2, 4, 8 vectors, head and tail
 *            overlapping), then store everything: correct for any overlap in
 *            either direction, so both functions share it
 *   > 128    a 16-byte-aligned store loop of 64-byte blocks in the copy's
 *            direction.  The loop's stores overwrite source bytes it has
 *            already read; the pieces it does not cover (the unaligned end
 *            it starts from and the 64 bytes where it stops) are loaded into
 *            registers before the loop and stored after it, because by then
 *            the loop may have overwritten their source.
 */
#include "asm.h"

FUNC(ucopy_copy_forward_overlap)
	mov	%rdi, %rax
	cmp	$128, %rdx
	ja	.Lfwd_long
.Lshort:
	cmp	$16, %rdx
	jbe	.Lle16
	cmp	$32, %rdx
	ja	.Lgt32
	movdqu	(%rsi), %xmm0
	movdqu	-16(%rsi,%rdx), %xmm1
	movdqu	%xmm0, (%rdi)
	movdqu	%xmm1, -16(%rdi,%rdx)
	ret
.Lle16:
	cmp	$8, %edx
	jae	.L8_16
	cmp	$4, %edx
	jae	.L4_7
	cmp	$1, %edx
	ja	.L2_3
	jb	.Lret
	movzbl	(%rsi), %ecx
	movb	%cl, (%rdi)
.Lret:
	ret
.L2_3:
	movzwl	(%rsi), %ecx
	movzwl	-2(%rsi,%rdx), %r8d
	movw	%cx, (%rdi)
	movw	%r8w, -2(%rdi,%rdx)
	ret
.L4_7:
	movl	(%rsi), %ecx
	movl	-4(%rsi,%rdx), %r8d
	movl	%ecx, (%rdi)
	movl	%r8d, -4(%rdi,%rdx)
	ret
.L8_16:
	movq	(%rsi), %rcx
	movq	-8(%rsi,%rdx), %r8
	movq	%rcx, (%rdi)
	movq	%r8, -8(%rdi,%rdx)
	ret
.Lgt32:
	cmp	$64, %rdx
	ja	.Lgt64
	movdqu	(%rsi), %xmm0
	movdqu	16(%rsi), %xmm1
	movdqu	-32(%rsi,%rdx), %xmm2
	movdqu	-16(%rsi,%rdx), %xmm3
	movdqu	%xmm0, (%rdi)
	movdqu	%xmm1, 16(%rdi)
	movdqu	%xmm2, -32(%rdi,%rdx)
	movdqu	%xmm3, -16(%rdi,%rdx)
	ret
.Lgt64:
	movdqu	(%rsi), %xmm0
	movdqu	16(%rsi), %xmm1
	movdqu	32(%rsi), %xmm2
	movdqu	48(%rsi), %xmm3
	movdqu	-64(%rsi,%rdx), %xmm4
	movdqu	-48(%rsi,%rdx), %xmm5
	movdqu	-32(%rsi,%rdx), %xmm6
	movdqu	-16(%rsi,%rdx), %xmm7
	movdqu	%xmm0, (%rdi)
	movdqu	%xmm1, 16(%rdi)
	movdqu	%xmm2, 32(%rdi)
	movdqu	%xmm3, 48(%rdi)
	movdqu	%xmm4, -64(%rdi,%rdx)
	movdqu	%xmm5, -48(%rdi,%rdx)
	movdqu	%xmm6, -32(%rdi,%rdx)
	movdqu	%xmm7, -16(%rdi,%rdx)
	ret

.Lfwd_long:
	/* xmm8: the first 16 bytes; xmm9-12: the last 64; r9: dst end. */
	movdqu	(%rsi), %xmm8
	movdqu	-64(%rsi,%rdx), %xmm9
	movdqu	-48(%rsi,%rdx), %xmm10
	movdqu	-32(%rsi,%rdx), %xmm11
	movdqu	-16(%rsi,%rdx), %xmm12
	lea	(%rdi,%rdx), %r9
	mov	%edi, %ecx
	and	$15, %ecx
	sub	$16, %rcx
	sub	%rcx, %rdi
	sub	%rcx, %rsi
	add	%rcx, %rdx
	.p2align 4
.Lfwd_loop:
	movdqu	(%rsi), %xmm0
	movdqu	16(%rsi), %xmm1
	movdqu	32(%rsi), %xmm2
	movdqu	48(%rsi), %xmm3
	movdqa	%xmm0, (%rdi)
	movdqa	%xmm1, 16(%rdi)
	movdqa	%xmm2, 32(%rdi)
	movdqa	%xmm3, 48(%rdi)
	add	$64, %rsi
	add	$64, %rdi
	sub	$64, %rdx
	cmp	$64, %rdx
	ja	.Lfwd_loop
	movdqu	%xmm9, -64(%r9)
	movdqu	%xmm10, -48(%r9)
	movdqu	%xmm11, -32(%r9)
	movdqu	%xmm12, -16(%r9)
	movdqu	%xmm8, (%rax)
	ret
END(ucopy_copy_forward_overlap)

FUNC(ucopy_copy_backward)
	mov	%rdi, %rax
	cmp	$128, %rdx
	jbe	.Lshort
	/* xmm8-11: the first 64 bytes; xmm12: the last 16. */
	movdqu	(%rsi), %xmm8
	movdqu	16(%rsi), %xmm9
	movdqu	32(%rsi), %xmm10
	movdqu	48(%rsi), %xmm11
	movdqu	-16(%rsi,%rdx), %xmm12
	/* r9: dst end; rcx: the loop's cursor, dst end rounded down to 16;
	 * rdx: the cursor's offset from the start, rsi: src at that offset. */
	lea	(%rdi,%rdx), %r9
	mov	%r9, %rcx
	and	$-16, %rcx
	mov	%rcx, %rdx
	sub	%rdi, %rdx
	add	%rdx, %rsi
	.p2align 4
.Lbwd_loop:
	movdqu	-16(%rsi), %xmm0
	movdqu	-32(%rsi), %xmm1
	movdqu	-48(%rsi), %xmm2
	movdqu	-64(%rsi), %xmm3
	movdqa	%xmm0, -16(%rcx)
	movdqa	%xmm1, -32(%rcx)
	movdqa	%xmm2, -48(%rcx)
	movdqa	%xmm3, -64(%rcx)
	sub	$64, %rsi
	sub	$64, %rcx
	sub	$64, %rdx
	cmp	$64, %rdx
	ja	.Lbwd_loop
	movdqu	%xmm12, -16(%r9)
	movdqu	%xmm8, (%rax)
	movdqu	%xmm9, 16(%rax)
	movdqu	%xmm10, 32(%rax)
	movdqu	%xmm11, 48(%rax)
	ret
END(ucopy_copy_backward)

	.section .note.GNU-stack, "", @progbits
