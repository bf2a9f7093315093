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
 *            that prefetch the next group (NT_PREFETCH in asm.h), then single
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

/* The 256-byte block at the cursors, four streamed lines. */
.macro nt_block try
	NT_LINE \try, 0
	NT_LINE \try, 64
	NT_LINE \try, 128
	NT_LINE \try, 192
.endm

.macro nt_last try
	XMM_LAST64 \try, .Lfix_\try
.endm

.macro nt_body try
	cmp	$128, %rdx
	.if \try
	jbe	ucopy_t_sse2
	.else
	jbe	ucopy_k_sse2
	.endif
	mov	%rdi, %rax
	XMM_BLOCK \try, .Lfix_\try, movdqu
	NT_STREAM \try, nt_block, NT_LINE, nt_last
.endm

KERNEL(nt)

	.section .note.GNU-stack, "", @progbits
