/*
 * word.S - copy 8-byte words, then the tail byte by byte.
 *
 * Unaligned 8-byte accesses are allowed at EL0 on Linux (SCTLR_EL1.A is
 * clear) for Normal memory, which is all a copy sees.
 *
 * Fault discipline: the cursors advance after each store; the fixup is the
 * shared tail.
 */
#include "asm.h"

.macro word_body try
	mov	x3, x0
	WORDS_BYTES \try
.endm

KERNEL(word)

	.section .note.GNU-stack, "", %progbits
