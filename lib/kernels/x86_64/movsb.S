/*
 * movsb.S - rep movsb four ways: as it is (movsb, the kernels' own
 * instruction, which the Linux policies replay); with the destination from a
 * cache line's start (movsb_aligned); movsb_aligned unless src and dst sit
 * at a distance where rep movsb falls off a cliff (movsb_safe); and
 * movsb_aligned only where src and dst are co-aligned, at a distance that
 * is a multiple of 32 outside the cliff (movsb_coaligned).
 *
 * Assumptions: x86-64 SysV; DF clear (the ABI guarantees it); no alignment;
 * src and dst do not overlap.  rep movsb runs on every x86-64 and is fast
 * with ERMS (and for short sizes with FSRM).  movsb_safe and movsb_coaligned
 * need AVX2 as well, for the copies they hand to the avx2 kernel.
 *
 * One size class: the microcode picks its own strategy by size.
 * movsb_aligned adds one: from 128 bytes, a destination that does not start
 * a cache line gets its first 64 bytes by xmm moves and rep movsb starts at
 * the next line.  movsb_safe adds another: when (dst - src) mod 4096 is
 * 1..63, rep movsb on AMD Zen 3 runs about 25x slower
 * (docs/performance-zen3.md, "The aliasing cliff, measured"), so those
 * copies go to the avx2 kernel, which has no such cliff.
 *
 * Fault discipline: a faulting rep movsb leaves rdi/rsi at the byte it
 * stopped at and rcx counting the bytes left: the shared tail's inputs, with
 * rcx moved to rdx.  The aligning head loads all 64 bytes before it stores,
 * with the cursors as passed, so its fixup restarts from the start.
 */
#include "asm.h"

/* rep movsb of rdx bytes and the return, with its fixup; tag names the
 * kernel, for the fixup's label. */
.macro REP_MOVSB try, tag
	mov	%rdx, %rcx
	EX(.Lfix_\tag\()_\try, rep movsb)
	RET
	.if \try
.Lfix_\tag\()_\try:
	mov	%rcx, %rdx
	jmp	ucopy_fixup_tail
	.endif
.endm

.macro movsb_body try
	mov	%rdi, %rax
	REP_MOVSB \try, plain
.endm

KERNEL(movsb)

/* The destination from a cache line's start; tag as REP_MOVSB's. */
.macro movsb_aligned_body try, tag=aligned
	mov	%rdi, %rax
	/* From 128 bytes a destination off a cache line's start gets its first
	 * 64 bytes by xmm moves, and rep movsb the rest from the next line
	 * (glibc 2.36 does the same): rep movsb runs faster from a line's
	 * start, and a destination already there skips the head
	 * (docs/performance.md, "rep movsb from a line's start" and
	 * "movsb_aligned: the same head without the guard"). */
	cmp	$128, %rdx
	jb	1f
	test	$63, %dil
	jz	1f
	XMM_BLOCK \try, ucopy_fixup_tail, movdqu
	/* dst[0..64) is committed: the cursors may move up to 63 bytes. */
	ALIGN_DST 64
1:	REP_MOVSB \try, \tag
.endm

KERNEL(movsb_aligned)

/* j<cc> to the avx2 body of the same kind: both bodies then run the same
 * bytes at the same offsets (the jump's target is a relocation). */
.macro JCC_AVX2 try, cc
	.if \try
	j\cc	ucopy_t_avx2
	.else
	j\cc	ucopy_k_avx2
	.endif
.endm

.macro movsb_safe_body try
	mov	%edi, %ecx
	sub	%esi, %ecx
	and	$4095, %ecx
	dec	%ecx
	cmp	$63, %ecx
	JCC_AVX2 \try, b
	movsb_aligned_body \try, safe
.endm

KERNEL(movsb_safe)

/* movsb_aligned only for co-aligned copies, (dst - src) mod 32 = 0, the
 * only ones where Zen 3's rep movsb keeps up with avx2's loop, and there
 * only from about 20 KiB, where the two buffers together are past the L1d
 * (docs/performance-zen3.md, "rep movsb for co-aligned copies").  Distance
 * 32, inside movsb_safe's 1..63 guard, goes to avx2 as well. */
.macro movsb_coaligned_body try
	mov	%edi, %ecx
	sub	%esi, %ecx
	and	$4095, %ecx
	cmp	$32, %ecx
	JCC_AVX2 \try, e
	test	$31, %cl
	JCC_AVX2 \try, nz
	movsb_aligned_body \try, coaligned
.endm

KERNEL(movsb_coaligned)

	.section .note.GNU-stack, "", @progbits
