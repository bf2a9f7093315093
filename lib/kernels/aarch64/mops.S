/*
 * mops.S - FEAT_MOPS: the cpyfp/cpyfm/cpyfe forward-copy sequence, the
 * arm counterpart of rep movsb.  Run only where HWCAP2 lists MOPS (an
 * older CPU raises SIGILL at cpyfp).
 *
 * Encoded with .inst, so that any assembler builds it: cpyfp, cpyfm, cpyfe
 * [x3]!, [x1]!, x2! (the Arm ARM's CPYFP/CPYFM/CPYFE, Rd = 3, Rs = 1,
 * Rn = 2; binutils 2.38+ with +mops assembles the same words).
 *
 * Fault discipline: what the three registers hold after an exception
 * inside the sequence depends on the implementation's algorithm (option A
 * or B, PSTATE.C), so the fixup trusts none of them: it restarts the tail
 * from the copy's start (x9, x10 keep src and n; x0 is dst).  Exact, at
 * the cost of recopying what was done.  This assumes, as the Arm ARM's
 * forward-only copy lets a kernel assume, that no byte after the faulting
 * one was written; qemu 7.2 has no MOPS, so that has not been tested here
 * (docs/design.md).
 */
#include "asm.h"

#define CPYFP_X3_X1_X2 .inst 0x19010443
#define CPYFM_X3_X1_X2 .inst 0x19410443
#define CPYFE_X3_X1_X2 .inst 0x19810443

.macro mops_body try
	mov	x3, x0
	mov	x9, x1
	mov	x10, x2
	EX(.Lfix_\try, CPYFP_X3_X1_X2)
	EX(.Lfix_\try, CPYFM_X3_X1_X2)
	EX(.Lfix_\try, CPYFE_X3_X1_X2)
	RET
	.if \try
.Lfix_\try:
	mov	x3, x0
	mov	x1, x9
	mov	x2, x10
	b	ucopy_fixup_tail
	.endif
.endm

KERNEL(mops)

	.section .note.GNU-stack, "", %progbits
