/*
 * ldtr.S - the arm64 user copy since set_fs() was removed (5.11; the
 * 5.15 of the regression): template.h's size classes with the
 * unprivileged ldtr/sttr, which have no pair form, so a 64-byte block is
 * eight 8-byte loads where 4.19 issued four pairs.  At EL0 they behave as
 * ldr/str, so the two strategies can be timed side by side in user space.
 *
 * Fault discipline: template.h; every fixup is the shared tail.
 */
#include "asm.h"
#include "template.h"

.macro ldtr_body try
	TEMPLATE \try, t
.endm

KERNEL(ldtr)

	.section .note.GNU-stack, "", %progbits
