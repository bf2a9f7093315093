/*
 * ldp.S - the arm64 user copy of Linux 4.19 (and of every kernel's
 * memcpy): 64-byte blocks of ldp/stp pairs, template.h's size classes.
 *
 * Fault discipline: template.h; every fixup is the shared tail.
 */
#include "asm.h"
#include "template.h"

.macro ldp_body try
	TEMPLATE \try
.endm

KERNEL(ldp)

	.section .note.GNU-stack, "", %progbits
