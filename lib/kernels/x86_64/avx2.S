/*
 * avx2.S - 32-byte AVX2 vector copy.
 *
 * Assumptions: x86-64 SysV; AVX2 (the caller checked the CPU and that the OS
 * enabled the ymm state); no alignment; src and dst do not overlap.
 *
 * Size classes (from 32 bytes the layout of glibc's
 * memmove-vec-unaligned-erms, V = 32):
 *   0..31    general registers: 8..31 as four 8-byte accesses that overlap,
 *            one class without a branch on the size (QWORDS_8_31); 4..7 as
 *            a head and a tail access; 1..3 as bytes 0, n/2, n-1 (GPR_1_3
 *            in asm.h)
 *   32..64   two, 65..128 four, 129..256 eight vectors: head and tail halves
 *            that overlap in the middle
 *   > 256    the head vector unaligned, then 128-byte blocks with aligned
 *            stores, each loaded while the one before is stored, then the
 *            last 128 bytes (loaded before the loop) from the end; but when
 *            those 128 bytes of the destination straddle a page, aligned
 *            vectors and the last 0..31 bytes by the 0..31 class, so that
 *            no store straddles it (the head vector still may)
 * Every class loads its first vector before the next size test, and the
 * common classes fall through: in a loop of calls the taken branches, not
 * the moves, bound a short copy (docs/performance-kernels.md, "avx2's
 * layout: taken branches").
 * One class for 8..31 where glibc has two (8..15, 16..31) takes the
 * branch that a sequence of unpredictable sizes mispredicts most, at the
 * cost of four accesses for one size repeated in a loop
 * (docs/performance-zen3.md, "A branch-free 8..31 class").
 * Each short path runs from as few 64-byte lines of code as it can: the
 * size dispatch and 32..64 share the fast entry's line (HEAD); the test for
 * 8 and 8..31 take the next line, 0..7 the one after, and 65..128 and
 * 129..256 start lines of their own: a path that runs from one more line
 * costs a fetch cycle more (docs/performance-zen3.md, "The short paths'
 * lines").
 * vzeroupper before every return from a path that wrote a ymm register
 * (including the fault fixup): dirty upper halves slow down the caller's SSE
 * code.  The 0..31 paths touch no ymm register and skip it (the page tail,
 * which jumps to them after vector stores, runs vzeroupper first).
 *
 * Fault discipline as sse2.S: stores only extend the written prefix (the
 * tail stores after the loop start at or before its end); short classes keep
 * rdi/rsi/rdx as passed, so a fault restarts the copy from its start (all but
 * 8..31 load everything before storing); the loop keeps them at the block
 * being stored (the block loaded ahead lies past them), and the page tail at
 * the vector being stored, then hands them to the 0..31 class, whose fault
 * restarts from there.
 */
#include "asm.h"

/* The size dispatch and the 32..64 class, in bytes: they end the fast
 * entry's line (asm.h, KERNEL_ENTRY's head). */
#define HEAD 45

/* 8..31 bytes as four 8-byte accesses that overlap, without a branch on
 * the size: at 0, e, n - 8 - e and n - 8, where e is 8 from 16 bytes on and
 * 0 below, so that they cover [0, 16) and [n - 16, n) or, below 16 bytes,
 * [0, 8) and [n - 8, n) twice.  rdi/rsi/rdx stay as they came, so a fault
 * restarts the copy from them: from its start, or after the page tail's
 * vectors.  The fourth word is loaded after the first is stored, into its
 * register: five scratch registers hold two offsets and three words, and
 * rax stays dst (README.md, "Register discipline"); rax or xmm0 for the
 * fourth word measured no faster (docs/performance-zen3.md, "A branch-free
 * 8..31 class", "On the way"). */
.macro QWORDS_8_31 try
	mov	%edx, %ecx
	and	$16, %ecx
	shr	%ecx
	mov	%rdx, %r8
	sub	%rcx, %r8
	EX(.Lfix_\try, movq (%rsi), %r9)
	EX(.Lfix_\try, movq (%rsi,%rcx), %r10)
	EX(.Lfix_\try, movq -8(%rsi,%r8), %r11)
	EX(.Lfix_\try, movq %r9, (%rdi))
	EX(.Lfix_\try, movq -8(%rsi,%rdx), %r9)
	EX(.Lfix_\try, movq %r10, (%rdi,%rcx))
	EX(.Lfix_\try, movq %r11, -8(%rdi,%r8))
	EX(.Lfix_\try, movq %r9, -8(%rdi,%rdx))
.endm

.macro avx2_body try
.Lhead_\try:
	mov	%rdi, %rax
	cmp	$32, %rdx
	jb	.Llt32_\try
	EX(.Lfix_\try, vmovdqu (%rsi), %ymm0)
	cmp	$64, %rdx
	ja	.Lgt64_\try
	EX(.Lfix_\try, vmovdqu -32(%rsi,%rdx), %ymm1)
	EX(.Lfix_\try, vmovdqu %ymm0, (%rdi))
	EX(.Lfix_\try, vmovdqu %ymm1, -32(%rdi,%rdx))
	RET_VZ
	/* As in avx512.S: a head that grew stops the build ("attempt to move
	 * .org backwards"); one that shrank pads after its ret. */
	.org	.Lhead_\try + HEAD, 0xcc

.Llt32_\try:
	cmp	$8, %edx
	jb	.Llt8_\try
	QWORDS_8_31 \try
	RET
	.p2align 6
.Llt8_\try:
	cmp	$4, %edx
	jb	.Llt4_\try
	HEAD_TAIL \try, .Lfix_\try, movl, 4, %ecx, %r8d
	RET
.Llt4_\try:
	test	%edx, %edx
	jz	.Lret_\try
	GPR_1_3 \try, .Lfix_\try
.Lret_\try:
	RET

	.p2align 6
.Lgt64_\try:
	EX(.Lfix_\try, vmovdqu 32(%rsi), %ymm1)
	cmp	$128, %rdx
	ja	.Lgt128_\try
	EX(.Lfix_\try, vmovdqu -64(%rsi,%rdx), %ymm2)
	EX(.Lfix_\try, vmovdqu -32(%rsi,%rdx), %ymm3)
	EX(.Lfix_\try, vmovdqu %ymm0, (%rdi))
	EX(.Lfix_\try, vmovdqu %ymm1, 32(%rdi))
	EX(.Lfix_\try, vmovdqu %ymm2, -64(%rdi,%rdx))
	EX(.Lfix_\try, vmovdqu %ymm3, -32(%rdi,%rdx))
	RET_VZ

	.p2align 6
.Lgt128_\try:
	EX(.Lfix_\try, vmovdqu -32(%rsi,%rdx), %ymm4)
	EX(.Lfix_\try, vmovdqu -64(%rsi,%rdx), %ymm5)
	EX(.Lfix_\try, vmovdqu -96(%rsi,%rdx), %ymm6)
	EX(.Lfix_\try, vmovdqu -128(%rsi,%rdx), %ymm7)
	cmp	$256, %rdx
	ja	.Lgt256_\try
	EX(.Lfix_\try, vmovdqu 64(%rsi), %ymm2)
	EX(.Lfix_\try, vmovdqu 96(%rsi), %ymm3)
	EX(.Lfix_\try, vmovdqu %ymm0, (%rdi))
	EX(.Lfix_\try, vmovdqu %ymm1, 32(%rdi))
	EX(.Lfix_\try, vmovdqu %ymm2, 64(%rdi))
	EX(.Lfix_\try, vmovdqu %ymm3, 96(%rdi))
	EX(.Lfix_\try, vmovdqu %ymm7, -128(%rdi,%rdx))
	EX(.Lfix_\try, vmovdqu %ymm6, -96(%rdi,%rdx))
	EX(.Lfix_\try, vmovdqu %ymm5, -64(%rdi,%rdx))
	EX(.Lfix_\try, vmovdqu %ymm4, -32(%rdi,%rdx))
	RET_VZ

	/* The setup's 41 bytes end a line, the block loop starts the next
	 * (LOOP_LINE_PAD in asm.h), so its 153 bytes run from three lines,
	 * not four (docs/performance-zen3.md, "The block loop's line"). */
	LOOP_LINE_PAD .Lgt256_\try, 41
	/* head: ymm0 commits dst[0..32); the last 128 bytes are in ymm4-7 */
	EX(.Lfix_\try, vmovdqu %ymm0, (%rdi))
	ALIGN_DST 32
	/* 225 or more bytes left: the first block is whole.  The loop runs
	 * one block ahead, as avx512's does: it loads the next block (into
	 * the other four registers) before it stores the one in hand, and
	 * the cursors stay at the first byte not stored.  Stored first, a
	 * block's stores held back the next block's loads where those have
	 * the page offsets of stores still in flight ((dst - src) mod 4096
	 * small: 4K aliasing), in some processes several times glibc's time
	 * (docs/performance-zen3.md, "4K aliasing in avx2's block loop"). */
	LOAD_BLOCK \try, .Lfix_\try, vmovdqu, 32, 0, %ymm0, %ymm1, %ymm2, %ymm3
.Lloop_\try:
	LOOP_AT_LINE_START .Lgt256_\try
	BLOCKS_AHEAD \try, .Lfix_\try, vmovdqu, vmovdqa, 32, %ymm0, %ymm1, %ymm2, %ymm3, %ymm8, %ymm9, %ymm10, %ymm11
	/* 1..128 bytes left.  The last 128 from the end, unless the
	 * destination's last byte lies in the first 128 of a page, where one
	 * of those stores would straddle the page (at 124 of the 128 end
	 * offsets; at 32, 64, 96 and 128 the page tail is merely not needed),
	 * which costs more than a whole short copy: then aligned vectors to
	 * the cursor, and the last 0..31 bytes by the 0..31 class, all inside
	 * one aligned 32 bytes.  The test costs under 1% where no page is in
	 * the way (docs/performance-zen3.md, "avx2's page-crossing tail"). */
	lea	-1(%rdi,%rdx), %ecx
	test	$0xf80, %ecx
	jz	.Lpage_tail_\try
	EX(.Lfix_\try, vmovdqu %ymm7, -128(%rdi,%rdx))
	EX(.Lfix_\try, vmovdqu %ymm6, -96(%rdi,%rdx))
	EX(.Lfix_\try, vmovdqu %ymm5, -64(%rdi,%rdx))
	EX(.Lfix_\try, vmovdqu %ymm4, -32(%rdi,%rdx))
	RET_VZ
.Lpage_tail_\try:
	cmp	$32, %rdx
	jb	.Lpage_last_\try
.Lpage_vec_\try:
	EX(.Lfix_\try, vmovdqu (%rsi), %ymm0)
	EX(.Lfix_\try, vmovdqa %ymm0, (%rdi))
	ADVANCE 32
	cmp	$32, %rdx
	jae	.Lpage_vec_\try
.Lpage_last_\try:
	vzeroupper
	jmp	.Llt32_\try

	.if \try
.Lfix_\try:
	vzeroupper
	jmp	ucopy_fixup_tail
	.endif
.endm

KERNEL_ENTRY(avx2, ENTRY_AVX2, HEAD)

	.section .note.GNU-stack, "", @progbits
