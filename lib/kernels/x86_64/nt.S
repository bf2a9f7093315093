/*
 * nt.S - copy with non-temporal (streaming) stores, for copies larger than
 * the caches.
 *
 * Assumptions: x86-64 SysV (SSE2 is baseline); no alignment; src and dst do
 * not overlap.  The caller (a policy) uses it for sizes where the
 * destination would only evict useful lines: it is much slower than the
 * others for data that is read again soon.
 *
 * Size classes:
 *   0..128   the sse2 kernel (a tail call): a streaming store of less than a
 *            line buys nothing
 *   > 128    one unaligned 64-byte block at the head with ordinary stores,
 *            then whole cache lines with movntdq (full lines keep the
 *            write-combining buffers from flushing partial lines): while
 *            more than 16 KiB remain, 16 KiB groups of 256-byte blocks
 *            that prefetch the next group (NT_PREFETCH below), then single
 *            lines; an sfence, then the last 64 bytes from the end with
 *            ordinary stores.  The sfence orders the streaming stores
 *            before any later store of the caller, as memcpy's callers
 *            expect (another thread must not see a flag before the data).
 *
 * Fault discipline as sse2.S: the stores run strictly in order (the
 * prefetches run ahead, and a prefetch never faults), the cursors stay at
 * the 256-byte block in flight.  The fixup runs sfence first, so the
 * streaming stores the copy made are ordered before the fixup's ordinary
 * ones.
 */
#include "asm.h"

/* NT_PREFETCH: while copying a 16 KiB group, each 256-byte block prefetches
 * one line in each of the next group's four 4 KiB pages, so that the loads
 * stream from up to eight pages at once while the stores stay in order.
 * With a single stream of loads (the hardware prefetcher does not follow it
 * across a page end) nt reached 0.73-0.82x of glibc 2.36's non-temporal
 * loop, which copies two or four pages interleaved, at 256 MiB - 1 GiB;
 * with the prefetches 1.05-1.16x (medians of three runs; 0.97x at small
 * positive dst - src distances, where glibc switches to four pages), and
 * 1.75-1.85x glibc's rep movsb at 64 MiB (Xeon family 6 model 207, KVM;
 * docs/performance-kernels.md, "nt and nt512").  glibc's interleaved
 * stores measured no faster than these interleaved prefetches, and they
 * would write past a fault.  prefetchnta, or prefetches one page ahead in
 * the same stream, measured slower or no faster. */
#define NT_GROUP 16384

.macro NT_PREFETCH
	prefetcht0	(%r9)
	prefetcht0	4096(%r9)
	prefetcht0	8192(%r9)
	prefetcht0	12288(%r9)
	add	$64, %r9
.endm

/* The 64-byte line at \off from the cursors, streamed. */
.macro NT_LINE try, off
	EX(.Lfix_\try, movdqu \off(%rsi), %xmm0)
	EX(.Lfix_\try, movdqu \off+16(%rsi), %xmm1)
	EX(.Lfix_\try, movdqu \off+32(%rsi), %xmm2)
	EX(.Lfix_\try, movdqu \off+48(%rsi), %xmm3)
	EX(.Lfix_\try, movntdq %xmm0, \off(%rdi))
	EX(.Lfix_\try, movntdq %xmm1, \off+16(%rdi))
	EX(.Lfix_\try, movntdq %xmm2, \off+32(%rdi))
	EX(.Lfix_\try, movntdq %xmm3, \off+48(%rdi))
.endm

.macro nt_body try
	cmp	$128, %rdx
	.if \try
	jbe	ucopy_t_sse2
	.else
	jbe	ucopy_k_sse2
	.endif
	mov	%rdi, %rax
	/* The head block commits dst[0..64), so moving the cursors up to the
	 * next cache line of dst (1..64 bytes) keeps them committed. */
	XMM_BLOCK \try, .Lfix_\try, movdqu
	mov	%edi, %ecx
	and	$63, %ecx
	sub	$64, %rcx
	sub	%rcx, %rdi
	sub	%rcx, %rsi
	add	%rcx, %rdx
	cmp	$NT_GROUP, %rdx
	jbe	.Llines_\try
.Lgroup_\try:
	lea	NT_GROUP(%rsi), %r9
	mov	$NT_GROUP / 256, %ecx
	.p2align 4
.Lblock_\try:
	NT_PREFETCH
	NT_LINE \try, 0
	NT_LINE \try, 64
	NT_LINE \try, 128
	NT_LINE \try, 192
	add	$256, %rsi
	add	$256, %rdi
	sub	$256, %rdx
	dec	%ecx
	jnz	.Lblock_\try
	cmp	$NT_GROUP, %rdx
	ja	.Lgroup_\try
.Llines_\try:
	cmp	$64, %rdx
	jbe	.Llast_\try
.Lline_\try:
	NT_LINE \try, 0
	add	$64, %rsi
	add	$64, %rdi
	sub	$64, %rdx
	cmp	$64, %rdx
	ja	.Lline_\try
.Llast_\try:
	sfence
	XMM_LAST64 \try, .Lfix_\try
	RET

	.if \try
.Lfix_\try:
	sfence
	jmp	ucopy_fixup_tail
	.endif
.endm

KERNEL(nt)

	.section .note.GNU-stack, "", @progbits
