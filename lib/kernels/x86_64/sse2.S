/*
 * sse2.S - 16-byte SSE2 vector copy.
 *
 * Assumptions: x86-64 SysV (SSE2 is baseline); no alignment; src and dst do
 * not overlap.
 *
 * Size classes (as glibc's memmove-vec-unaligned-erms, V = 16; up to 128
 * bytes SSE2_LE128 in asm.h, which memmove.S shares):
 *   0..16    general registers: a head and a tail access that overlap
 *   17..32   two vectors, 33..64 four, 65..128 eight: head and tail halves
 *            that overlap in the middle, no branch on the exact size
 *   > 128    one unaligned vector at the head, then 64-byte blocks with
 *            aligned stores, then the last 64 bytes from the end (they
 *            overlap what the loop stored)
 *
 * Fault discipline.  Stores only ever extend the prefix of dst already
 * written (each store starts at or before its end), so a fault never leaves
 * bytes past the first faulting one written.  The short classes do all their
 * loads before their stores and leave rdi/rsi/rdx as passed: their fixup
 * restarts from the start.  The loop keeps rdi/rsi/rdx at the first byte of
 * the block in flight, everything before it committed by the head store.
 * So every fixup is the shared tail itself.
 */
#include "asm.h"

.macro sse2_body try
	mov	%rdi, %rax
	SSE2_LE128 \try, ucopy_fixup_tail, .Lgt128_\try

	/* The setup's 26 bytes end a line, the block loop starts the next
	 * (LOOP_LINE_PAD in asm.h). */
	LOOP_LINE_PAD .Lgt128_\try, 26
	/* The head store commits dst[0..16), so moving the cursors up to the
	 * next 16-byte boundary of dst (1..16 bytes) keeps them committed. */
	EX(ucopy_fixup_tail, movdqu (%rsi), %xmm0)
	EX(ucopy_fixup_tail, movdqu %xmm0, (%rdi))
	ALIGN_DST 16
.Lloop_\try:
	LOOP_AT_LINE_START .Lgt128_\try
	XMM_BLOCK \try, ucopy_fixup_tail, movdqa
	ADVANCE 64
	cmp	$64, %rdx
	ja	.Lloop_\try
	XMM_LAST64 \try, ucopy_fixup_tail
	RET
.endm

KERNEL_ENTRY(sse2, ENTRY_SSE2, 0)

	.section .note.GNU-stack, "", @progbits
