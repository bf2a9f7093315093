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
 *            write-combining buffers from flushing partial lines), an
 *            sfence, then the last 64 bytes from the end with ordinary
 *            stores.  The sfence orders the streaming stores before any
 *            later store of the caller, as memcpy's callers expect (another
 *            thread must not see a flag before the data).
 *
 * Fault discipline as sse2.S.  The fixup runs sfence first, so the streaming
 * stores the copy made are ordered before the fixup's ordinary ones.
 */
#include "asm.h"

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
	.p2align 4
.Lloop_\try:
	XMM_BLOCK \try, .Lfix_\try, movntdq
	add	$64, %rsi
	add	$64, %rdi
	sub	$64, %rdx
	cmp	$64, %rdx
	ja	.Lloop_\try
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
