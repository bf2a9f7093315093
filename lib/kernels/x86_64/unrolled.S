/*
 * unrolled.S - copy 64-byte blocks of eight 8-byte moves, then words, then
 * bytes.
 *
 * Assumptions: x86-64 SysV; no alignment; src and dst do not overlap.
 *
 * Size classes: 64-byte blocks (four loads, four stores, twice: the loads run
 * ahead of the stores without needing eight scratch registers), then 8-byte
 * words, then 0..7 bytes.  This is the Linux kernel's
 * copy_user_generic_unrolled, the user copy of CPUs without REP_GOOD or ERMS.
 *
 * Fault discipline: the cursors advance only after a whole block is stored,
 * so at every access rdi/rsi/rdx mark a committed position and the fixup is
 * the shared tail itself (it rewrites at most 63 bytes already copied).
 */
#include "asm.h"

.macro unrolled_body try
	mov	%rdi, %rax
	cmp	$64, %rdx
	jb	.Lwords_check_\try
.Lblocks_\try:
	EX(ucopy_fixup_tail, movq 0(%rsi), %r8)
	EX(ucopy_fixup_tail, movq 8(%rsi), %r9)
	EX(ucopy_fixup_tail, movq 16(%rsi), %r10)
	EX(ucopy_fixup_tail, movq 24(%rsi), %r11)
	EX(ucopy_fixup_tail, movq %r8, 0(%rdi))
	EX(ucopy_fixup_tail, movq %r9, 8(%rdi))
	EX(ucopy_fixup_tail, movq %r10, 16(%rdi))
	EX(ucopy_fixup_tail, movq %r11, 24(%rdi))
	EX(ucopy_fixup_tail, movq 32(%rsi), %r8)
	EX(ucopy_fixup_tail, movq 40(%rsi), %r9)
	EX(ucopy_fixup_tail, movq 48(%rsi), %r10)
	EX(ucopy_fixup_tail, movq 56(%rsi), %r11)
	EX(ucopy_fixup_tail, movq %r8, 32(%rdi))
	EX(ucopy_fixup_tail, movq %r9, 40(%rdi))
	EX(ucopy_fixup_tail, movq %r10, 48(%rdi))
	EX(ucopy_fixup_tail, movq %r11, 56(%rdi))
	ADVANCE 64
	cmp	$64, %rdx
	jae	.Lblocks_\try
.Lwords_check_\try:
	WORDS_BYTES \try
.endm

KERNEL(unrolled)

	.section .note.GNU-stack, "", @progbits
