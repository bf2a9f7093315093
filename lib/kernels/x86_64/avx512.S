/*
 * avx512.S - 64-byte AVX-512 vector copy.
 *
 * Assumptions: x86-64 SysV; AVX-512F, BW and VL (the caller checked the CPU
 * and that the OS enabled the zmm and opmask state); no alignment; src and
 * dst do not overlap.  Assembles with any binutils that knows AVX-512
 * (2.25+), whatever the build machine runs.
 *
 * Size classes:
 *   1..63    one masked load and one masked store of n bytes (vmovdqu8,
 *            the mask from a table): no branch on the size, so a mix of
 *            short sizes costs no mispredictions.  Masked-out bytes do not
 *            fault, but when they lie on an unmapped or read-only page the
 *            CPU takes a microcode assist (docs/performance-kernels.md,
 *            "Single kernels"), so a 64-byte window that crosses a
 *            page at src or dst goes to the general-register and xmm/ymm
 *            classes instead (1..3, 4..7, 8..15, 16..31, 32..63 as head and
 *            tail accesses that overlap).
 *   0        returns before any access, on the large sizes' branch (n - 1
 *            wraps): an all-masked access takes the assist too, and
 *            memcpy(d, NULL, 0) is common (C++'s empty ranges).  A branch,
 *            not cmovs to a zero line: those cost the repeated regime,
 *            where ucopy is nearest its bound, and the branch costs only
 *            the unlearnable one, which has room (docs/performance.md,
 *            "Zero bytes").
 *   64..128  two, 129..256 four, 257..512 eight zmm vectors: head and tail
 *            halves that overlap in the middle; the first vector and, above
 *            256, the last four are loaded before the size branch, the
 *            second only in the classes that store it: loaded before the
 *            256 branch it was a dead load for the loop
 *            (docs/performance-zen5.md, "A dead load").  64 goes with the
 *            unmasked class (two moves of the same vector): the masked
 *            move costs the Xeon it was measured on more than it gains on
 *            the Zen 5 guest (docs/performance.md, "The small-copy class",
 *            "64 bytes").
 *   > 512    the head vector unaligned, then 256-byte blocks with stores
 *            aligned to the cache line, each block loaded before the one
 *            before it is stored, then the last 256 bytes (loaded
 *            before the loop) from the end; but when those 256 bytes of
 *            the destination straddle a page, whole lines and one masked
 *            store instead, aligned, so that no store straddles it (but
 *            for the last line when the source's last line also crosses a
 *            page: see .Llast_edge).
 *            A store that straddles a page costs more than the aligned
 *            tail, which itself costs where no page is in the way, hence
 *            the test (docs/performance.md, "The page-crossing tail").
 * Layout: the fast entry (asm.h) and the size dispatch share one 64-byte
 * line, the short class fills the next and the 0 and 64..128 classes start
 * the one after, so a copy up to 128 bytes runs through two lines, as
 * glibc's does through one (docs/performance.md, "The fast path by
 * lines").  The short class's line holds 14 instructions: 15-16 starting
 * in one line, both masked moves among them, made the short path slower,
 * so one more here is to be measured (docs/performance-zen5.md, "What the
 * short class costs at one size").
 * Only zmm16-27 (ymm16-17/xmm16-17 in the short classes) are used: EVEX-only
 * registers leave the upper state of ymm0-15 clean, so no path needs a
 * vzeroupper.
 *
 * Fault discipline as sse2.S: stores only extend the written prefix (the
 * tail stores after the loop start at or before its end); short classes load
 * everything before storing and keep rdi/rsi/rdx as passed; the loop keeps
 * them at the first byte of the block being stored (the block loaded ahead
 * lies past them).  A masked store that faults writes nothing, so the fixup
 * restarts from the start.
 */
#include "asm.h"

/* The body's size dispatch, in bytes: it ends the fast entry's line. */
#define HEAD 13

/* 0..15 bytes (edx) in general registers: 1..3 as GPR_1_3 (asm.h), 4..7
 * and 8..15 as HEAD_TAIL.  Ends every path with RET. */
.macro GPR_LT16 try, fix
	cmp	$8, %edx
	jae	.L8_15\@
	cmp	$4, %edx
	jae	.L4_7\@
	test	%edx, %edx
	jz	.Lret\@
	GPR_1_3 \try, \fix
.Lret\@:
	RET
.L8_15\@:
	HEAD_TAIL \try, \fix, movq, 8, %rcx, %r8
	RET
.L4_7\@:
	HEAD_TAIL \try, \fix, movl, 4, %ecx, %r8d
	RET
.endm

/* Jumps to \target when the 64-byte window at \reg (rsi or rdi) runs into
 * the next page, where a masked-out byte could take the assist. */
.macro PAGE_END_TEST reg, target
	mov	\reg, %ecx
	and	$4095, %ecx
	cmp	$4032, %ecx
	ja	\target
.endm

/* The rdx (0..64) bytes at rsi/rdi as one masked load and one masked store;
 * ends with RET.  A faulting masked store writes nothing, so the cursors stay
 * committed.  The mask is loaded from avx512_masks rather than made with
 * mov $-1 / bzhi / kmovq, which measured dearer (docs/performance.md,
 * "The short class's mask").  A
 * short copy whose size's entry is not in the cache pays one more miss: the
 * table spans nine lines, eight sizes to a line. */
.macro MASKED_MOVE try
	lea	avx512_masks(%rip), %rcx
	kmovq	(%rcx,%rdx,8), %k1
	EX(ucopy_fixup_tail, vmovdqu8 (%rsi), %zmm16{%k1}{z})
	EX(ucopy_fixup_tail, vmovdqu8 %zmm16, (%rdi){%k1})
	RET
.endm

.macro avx512_body try
.Lhead_\try:
	/* The head: 13 bytes, the end of the fast entry's line (asm.h,
	 * KERNEL_ENTRY's head).  The ja is a rel8 to the third line.  The
	 * .org lines hold the layout at assembly time: one that grew stops
	 * the build ("attempt to move .org backwards"), and one that shrank
	 * falls through int3 padding into a crash in every test. */
	mov	%rdi, %rax
	/* 1..63 here; 0 goes with the large sizes, as n - 1 wraps. */
	lea	-1(%rdx), %rcx
	cmp	$62, %rcx
	ja	.Lgt63_or_0_\try
	.org	.Lhead_\try + HEAD, 0xcc
	/* The short class: one line, 60 bytes (the ja's to .Ledge are rel8). */
	PAGE_END_TEST %esi, .Ledge_\try
	PAGE_END_TEST %edi, .Ledge_\try
	MASKED_MOVE \try
	.org	.Lhead_\try + HEAD + 64, 0xcc
	/* 0 and 64..128 in the next line, 53 bytes. */
.Lgt63_or_0_\try:
	test	%rdx, %rdx
	jz	.Ldone_\try
	EX(ucopy_fixup_tail, vmovdqu64 (%rsi), %zmm16)
	cmp	$128, %rdx
	ja	.Lgt128_\try
	EX(ucopy_fixup_tail, vmovdqu64 -64(%rsi,%rdx), %zmm17)
	EX(ucopy_fixup_tail, vmovdqu64 %zmm16, (%rdi))
	EX(ucopy_fixup_tail, vmovdqu64 %zmm17, -64(%rdi,%rdx))
	RET
	/* 1..63 bytes within 64 of the end of a page at src or dst: here,
	 * within a rel8's reach of the short class. */
.Ledge_\try:
	cmp	$32, %edx
	jae	.L32_63_\try
	cmp	$16, %edx
	jae	.L16_31_\try
	GPR_LT16 \try, ucopy_fixup_tail
.L32_63_\try:
	HEAD_TAIL \try, ucopy_fixup_tail, vmovdqu64, 32, %ymm16, %ymm17
	RET
.L16_31_\try:
	HEAD_TAIL \try, ucopy_fixup_tail, vmovdqu64, 16, %xmm16, %xmm17
	RET
.Lgt128_\try:
	cmp	$256, %rdx
	ja	.Lgt256_\try
	EX(ucopy_fixup_tail, vmovdqu64 64(%rsi), %zmm17)
	EX(ucopy_fixup_tail, vmovdqu64 -128(%rsi,%rdx), %zmm18)
	EX(ucopy_fixup_tail, vmovdqu64 -64(%rsi,%rdx), %zmm19)
	EX(ucopy_fixup_tail, vmovdqu64 %zmm16, (%rdi))
	EX(ucopy_fixup_tail, vmovdqu64 %zmm17, 64(%rdi))
	EX(ucopy_fixup_tail, vmovdqu64 %zmm18, -128(%rdi,%rdx))
	EX(ucopy_fixup_tail, vmovdqu64 %zmm19, -64(%rdi,%rdx))
	RET

.Lgt256_\try:
	EX(ucopy_fixup_tail, vmovdqu64 -64(%rsi,%rdx), %zmm20)
	EX(ucopy_fixup_tail, vmovdqu64 -128(%rsi,%rdx), %zmm21)
	EX(ucopy_fixup_tail, vmovdqu64 -192(%rsi,%rdx), %zmm22)
	EX(ucopy_fixup_tail, vmovdqu64 -256(%rsi,%rdx), %zmm23)
	cmp	$512, %rdx
	ja	.Lgt512_\try
	EX(ucopy_fixup_tail, vmovdqu64 64(%rsi), %zmm17)
	EX(ucopy_fixup_tail, vmovdqu64 128(%rsi), %zmm18)
	EX(ucopy_fixup_tail, vmovdqu64 192(%rsi), %zmm19)
	EX(ucopy_fixup_tail, vmovdqu64 %zmm16, (%rdi))
	EX(ucopy_fixup_tail, vmovdqu64 %zmm17, 64(%rdi))
	EX(ucopy_fixup_tail, vmovdqu64 %zmm18, 128(%rdi))
	EX(ucopy_fixup_tail, vmovdqu64 %zmm19, 192(%rdi))
	EX(ucopy_fixup_tail, vmovdqu64 %zmm23, -256(%rdi,%rdx))
	EX(ucopy_fixup_tail, vmovdqu64 %zmm22, -192(%rdi,%rdx))
	EX(ucopy_fixup_tail, vmovdqu64 %zmm21, -128(%rdi,%rdx))
	EX(ucopy_fixup_tail, vmovdqu64 %zmm20, -64(%rdi,%rdx))
	RET

.Lgt512_\try:
	/* The head store commits dst[0..64), so moving the cursors up to the
	 * next cache line of dst (1..64 bytes) keeps them committed. */
	EX(ucopy_fixup_tail, vmovdqu64 %zmm16, (%rdi))
	ALIGN_DST 64
	/* 449 or more bytes left: the first block is whole.  The loop runs
	 * one block ahead, loading the next block (into the other set of
	 * four registers) before it stores the one in hand, so the cursors
	 * stay at the first byte not stored.  Stored first, a block's stores
	 * held back the next block's loads whenever (dst - src) mod 4096 was
	 * below 512, where those loads have the page offsets of stores still
	 * in flight (4K aliasing).  Of the layouts tried, this one costs least
	 * where nothing aliases (docs/performance-zen5.md, "4K aliasing in
	 * avx512's block loop"). */
	LOAD_BLOCK \try, ucopy_fixup_tail, vmovdqu64, 64, 0, %zmm16, %zmm17, %zmm18, %zmm19
	.p2align 4
.Lloop_\try:
	BLOCKS_AHEAD \try, ucopy_fixup_tail, vmovdqu64, vmovdqa64, 64, %zmm16, %zmm17, %zmm18, %zmm19, %zmm24, %zmm25, %zmm26, %zmm27
	/* 1..256 bytes left.  When the destination's last 256 bytes lie in
	 * one page, the four vectors loaded before the loop, stored from the
	 * end; else whole lines, then the last 1..64 bytes as a masked store
	 * to the line at the cursor, so that no store straddles the page. */
	lea	-1(%rdi,%rdx), %ecx
	and	$4095, %ecx
	cmp	$255, %ecx
	jb	.Lpage_tail_\try
	EX(ucopy_fixup_tail, vmovdqu64 %zmm23, -256(%rdi,%rdx))
	EX(ucopy_fixup_tail, vmovdqu64 %zmm22, -192(%rdi,%rdx))
	EX(ucopy_fixup_tail, vmovdqu64 %zmm21, -128(%rdi,%rdx))
	EX(ucopy_fixup_tail, vmovdqu64 %zmm20, -64(%rdi,%rdx))
	RET
.Lpage_tail_\try:
	cmp	$64, %rdx
	jbe	.Llast_\try
.Lline_\try:
	EX(ucopy_fixup_tail, vmovdqu64 (%rsi), %zmm16)
	EX(ucopy_fixup_tail, vmovdqa64 %zmm16, (%rdi))
	ADVANCE 64
	cmp	$64, %rdx
	ja	.Lline_\try
.Llast_\try:
	/* dst's window is the aligned line at the cursor: only src's can
	 * run into the next page. */
	PAGE_END_TEST %esi, .Llast_edge_\try
	MASKED_MOVE \try
	/* The source line runs into the next page (a masked-out load there
	 * would take the assist): the last 64 bytes from the end instead,
	 * over bytes already copied, a store that may straddle the
	 * destination's page after all (rare: both ends near a page end). */
.Llast_edge_\try:
	EX(ucopy_fixup_tail, vmovdqu64 -64(%rsi,%rdx), %zmm16)
	EX(ucopy_fixup_tail, vmovdqu64 %zmm16, -64(%rdi,%rdx))
	RET

.Ldone_\try:
	RET

.endm

/* avx512_masks[n] = 2^n - 1 for n = 0..64: the low n bits set. */
	.pushsection .rodata
	.p2align 6
	.type avx512_masks, @object
avx512_masks:
	.set .Lbits, 0
	.rept 64
	.quad (1 << .Lbits) - 1
	.set .Lbits, .Lbits + 1
	.endr
	.quad -1
	.size avx512_masks, . - avx512_masks
	.popsection

KERNEL_ENTRY(avx512, ENTRY_AVX512, HEAD)

	.section .note.GNU-stack, "", @progbits
