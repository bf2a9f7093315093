/*
 * byte.S - copy one byte at a time: the floor every other kernel is
 * measured against.
 *
 * Fault discipline: the cursors advance after each store, so the fixup is
 * the shared tail itself.
 */
#include "asm.h"

.macro byte_body try
	mov	x3, x0
	BYTES \try
.endm

KERNEL(byte)

	.section .note.GNU-stack, "", %progbits
