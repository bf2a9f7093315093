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
 *   0..128   sse2's classes (SSE2_LE128 in asm.h): each loads everything
 *            (two accesses or 2, 4, 8 vectors, head and tail overlapping),
 *            then stores everything, which is correct for any overlap in
 *            either direction, so both functions share them
 *   > 128    a 16-byte-aligned store loop of 64-byte blocks in the copy's
 *            direction.  The loop's stores overwrite source bytes it has
 *            already read; the pieces it does not cover (the unaligned end
 *            it starts from and the 64 bytes where it stops) are loaded into
 *            registers before the loop and stored after it, because by then
 *            the loop may have overwritten their source.
 */
#include "asm.h"

/* try = -1 for the shared macros: no exception table entries, and each
 * short class ends in a bare ret, rax = dst. */
FUNC(ucopy_copy_forward_overlap)
	mov	%rdi, %rax
.Lshort:
	SSE2_LE128 -1, none, .Lfwd_long

.Lfwd_long:
	/* xmm8: the first 16 bytes; xmm9-12: the last 64; r9: dst end. */
	movdqu	(%rsi), %xmm8
	movdqu	-64(%rsi,%rdx), %xmm9
	movdqu	-48(%rsi,%rdx), %xmm10
	movdqu	-32(%rsi,%rdx), %xmm11
	movdqu	-16(%rsi,%rdx), %xmm12
	lea	(%rdi,%rdx), %r9
	ALIGN_DST 16
	.p2align 4
.Lfwd_loop:
	XMM_BLOCK -1, none, movdqa
	ADVANCE 64
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
	jbe	.Lshort		/* n <= 128: never reaches its jump to .Lfwd_long */
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
