/*
 * nt512.S - non-temporal copy with 64-byte AVX-512 streaming stores, for
 * copies larger than the caches.
 *
 * Assumptions: x86-64 SysV; AVX-512F, and BW and VL for the avx512 kernel it
 * hands short copies to (the caller checked the CPU and that the OS enabled
 * the zmm and opmask state); no alignment; src and dst do not overlap.  As
 * nt: for sizes where the destination would only evict useful lines.
 *
 * Size classes:
 *   0..256   the avx512 kernel (a tail call): at most four vectors, no loop
 *   > 256    one unaligned zmm at the head with an ordinary store, then
 *            whole cache lines with vmovntdq: while more than 16 KiB remain,
 *            16 KiB groups of 256-byte blocks that prefetch the next group
 *            interleaved over its four pages (NT_PREFETCH, asm.h), then single
 *            lines; an sfence (as nt), then the last 64 bytes from the end
 *            with an ordinary store.
 * Why a kernel apart from nt: one 64-byte streaming store fills a
 * write-combining buffer at once where nt needs four 16-byte ones, and
 * that, with the prefetches, is what takes it past glibc's non-temporal
 * loop (docs/performance-kernels.md, "nt and nt512").
 * Only zmm16-19 are used: no vzeroupper on any path (see avx512.S).
 *
 * Fault discipline as nt.S: stores strictly in order, cursors at the block
 * in flight; the fixup runs sfence first, then the shared tail.
 */
#include "asm.h"

/* The 256-byte block at the cursors: four loads, then four streamed stores. */
.macro nt512_block try
	EX(.Lfix_\try, vmovdqu64 (%rsi), %zmm16)
	EX(.Lfix_\try, vmovdqu64 64(%rsi), %zmm17)
	EX(.Lfix_\try, vmovdqu64 128(%rsi), %zmm18)
	EX(.Lfix_\try, vmovdqu64 192(%rsi), %zmm19)
	EX(.Lfix_\try, vmovntdq %zmm16, (%rdi))
	EX(.Lfix_\try, vmovntdq %zmm17, 64(%rdi))
	EX(.Lfix_\try, vmovntdq %zmm18, 128(%rdi))
	EX(.Lfix_\try, vmovntdq %zmm19, 192(%rdi))
.endm

.macro nt512_line try, off
	EX(.Lfix_\try, vmovdqu64 \off(%rsi), %zmm16)
	EX(.Lfix_\try, vmovntdq %zmm16, \off(%rdi))
.endm

.macro nt512_last try
	EX(.Lfix_\try, vmovdqu64 -64(%rsi,%rdx), %zmm16)
	EX(.Lfix_\try, vmovdqu64 %zmm16, -64(%rdi,%rdx))
.endm

.macro nt512_body try
	cmp	$256, %rdx
	.if \try
	jbe	ucopy_t_avx512
	.else
	jbe	ucopy_k_avx512
	.endif
	mov	%rdi, %rax
	EX(.Lfix_\try, vmovdqu64 (%rsi), %zmm16)
	EX(.Lfix_\try, vmovdqu64 %zmm16, (%rdi))
	NT_STREAM \try, nt512_block, nt512_line, nt512_last
.endm

KERNEL(nt512)

	.section .note.GNU-stack, "", @progbits
