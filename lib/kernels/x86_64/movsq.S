/*
 * movsq.S - rep movsq for the 8-byte words, rep movsb for the 0..7 left.
 *
 * Assumptions: x86-64 SysV; DF clear (the ABI guarantees it); no alignment;
 * src and dst do not overlap.  Runs on every x86-64; fast where the kernel
 * sets REP_GOOD.
 *
 * One size class: the Linux kernel's copy_user_generic_string (and musl's
 * memcpy).  As there, a rep instruction is skipped when it has nothing to
 * do: a zero-count rep movsb still costs a few ns on a CPU without FZRM
 * (docs/performance-kernels.md, "movsq: a rep with nothing to do").
 *
 * Fault discipline: a faulting rep string instruction leaves rdi/rsi at the
 * element it stopped at and rcx counting the elements left.  rdx keeps n
 * during the rep movsq so that its fixup can add back the n mod 8 bytes the
 * rep movsb would have copied.
 */
#include "asm.h"

.macro movsq_body try
	mov	%rdi, %rax
	mov	%rdx, %rcx
	shr	$3, %rcx
	jz	.Ltail_\try
	EX(.Lfix_q_\try, rep movsq)
.Ltail_\try:
	mov	%edx, %ecx
	and	$7, %ecx
	jz	.Ldone_\try
	EX(.Lfix_b_\try, rep movsb)
.Ldone_\try:
	RET
	.if \try
.Lfix_q_\try:
	and	$7, %edx
	lea	(%rdx,%rcx,8), %rdx
	jmp	ucopy_fixup_tail
.Lfix_b_\try:
	mov	%rcx, %rdx
	jmp	ucopy_fixup_tail
	.endif
.endm

KERNEL(movsq)

	.section .note.GNU-stack, "", @progbits
