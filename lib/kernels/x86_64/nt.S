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

FUNC(ucopy_k_nt)
	cmp	$128, %rdx
	jbe	ucopy_k_sse2
	mov	%rdi, %rax
	/* The head block commits dst[0..64), so moving the cursors up to the
	 * next cache line of dst (1..64 bytes) keeps them committed. */
	EX(.Lfix, movdqu (%rsi), %xmm0)
	EX(.Lfix, movdqu 16(%rsi), %xmm1)
	EX(.Lfix, movdqu 32(%rsi), %xmm2)
	EX(.Lfix, movdqu 48(%rsi), %xmm3)
	EX(.Lfix, movdqu %xmm0, (%rdi))
	EX(.Lfix, movdqu %xmm1, 16(%rdi))
	EX(.Lfix, movdqu %xmm2, 32(%rdi))
	EX(.Lfix, movdqu %xmm3, 48(%rdi))
	mov	%edi, %ecx
	and	$63, %ecx
	sub	$64, %rcx
	sub	%rcx, %rdi
	sub	%rcx, %rsi
	add	%rcx, %rdx
	.p2align 4
.Lloop:
	EX(.Lfix, movdqu (%rsi), %xmm0)
	EX(.Lfix, movdqu 16(%rsi), %xmm1)
	EX(.Lfix, movdqu 32(%rsi), %xmm2)
	EX(.Lfix, movdqu 48(%rsi), %xmm3)
	EX(.Lfix, movntdq %xmm0, (%rdi))
	EX(.Lfix, movntdq %xmm1, 16(%rdi))
	EX(.Lfix, movntdq %xmm2, 32(%rdi))
	EX(.Lfix, movntdq %xmm3, 48(%rdi))
	add	$64, %rsi
	add	$64, %rdi
	sub	$64, %rdx
	cmp	$64, %rdx
	ja	.Lloop
	sfence
	EX(.Lfix, movdqu -64(%rsi,%rdx), %xmm0)
	EX(.Lfix, movdqu -48(%rsi,%rdx), %xmm1)
	EX(.Lfix, movdqu -32(%rsi,%rdx), %xmm2)
	EX(.Lfix, movdqu -16(%rsi,%rdx), %xmm3)
	EX(.Lfix, movdqu %xmm0, -64(%rdi,%rdx))
	EX(.Lfix, movdqu %xmm1, -48(%rdi,%rdx))
	EX(.Lfix, movdqu %xmm2, -32(%rdi,%rdx))
	EX(.Lfix, movdqu %xmm3, -16(%rdi,%rdx))
	xor	%edx, %edx
	ret

.Lfix:
	sfence
	jmp	ucopy_fixup_tail
END(ucopy_k_nt)

	.section .note.GNU-stack, "", @progbits
