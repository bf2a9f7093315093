/*
 * movsb.S - rep movsb, and movsb_safe: rep movsb unless src and dst sit at a
 * distance where it falls off a cliff.
 *
 * Assumptions: x86-64 SysV; DF clear (the ABI guarantees it); no alignment;
 * src and dst do not overlap.  rep movsb runs on every x86-64 and is fast
 * with ERMS (and for short sizes with FSRM).  movsb_safe needs AVX2 as well,
 * for the sizes it hands to the avx2 kernel.
 *
 * One size class: the microcode picks its own strategy by size.  movsb_safe
 * adds one: when (dst - src) mod 4096 is 1..63, rep movsb on AMD Zen 3 runs
 * ~25x slower (4352 bytes: ~2200 ns instead of ~85 ns, measured on this
 * project's machines, see docs/design.md), so those copies go to the avx2 kernel,
 * which has no such cliff.
 *
 * Fault discipline: a faulting rep movsb leaves rdi/rsi at the byte it
 * stopped at and rcx counting the bytes left: the shared tail's inputs, with
 * rcx moved to rdx.
 */
#include "asm.h"

.macro movsb_body try
	mov	%rdi, %rax
	mov	%rdx, %rcx
	EX(.Lfix_\try, rep movsb)
	RET
	.if \try
.Lfix_\try:
	mov	%rcx, %rdx
	jmp	ucopy_fixup_tail
	.endif
.endm

KERNEL(movsb)

.macro movsb_safe_body try
	mov	%edi, %ecx
	sub	%esi, %ecx
	and	$4095, %ecx
	dec	%ecx
	cmp	$63, %ecx
	.if \try
	jb	ucopy_t_avx2
	.else
	jb	ucopy_k_avx2
	.endif
	mov	%rdi, %rax
	mov	%rdx, %rcx
	EX(.Lfix_safe_\try, rep movsb)
	RET
	.if \try
.Lfix_safe_\try:
	mov	%rcx, %rdx
	jmp	ucopy_fixup_tail
	.endif
.endm

KERNEL(movsb_safe)

	.section .note.GNU-stack, "", @progbits
