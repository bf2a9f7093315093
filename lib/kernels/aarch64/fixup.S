/*
 * fixup.S - the shared tail every aarch64 try body's fault fixup ends in.
 *
 * Entered by a branch from a try body (or the handler resuming there),
 * never by a call: x30 still holds the try body's caller.
 *   x3  dst cursor: dst[0 .. cursor) is committed
 *   x1  src cursor, the same offset into src
 *   x2  bytes from the cursor to the end of the copy
 * Returns the bytes not copied in x0.
 *
 * 8-byte words, then single bytes, each access listed too: a word that
 * faults drops to the byte loop at the same position, and the byte that
 * faults ends the copy, so the count is exact whatever the kernel had in
 * flight.  A faulting store may have written part of its bytes (an
 * unaligned store across a page end is not single-copy atomic), but only
 * bytes before the faulting one, which the tail then rewrites with the
 * same values.
 */
#include "asm.h"

.macro fixup_tail_body try
	cmp	x2, #8
	b.lo	.Lbytes
.Lwords:
	EX(.Lbytes, ldr x4, [x1])
	EX(.Lbytes, str x4, [x3])
	ADVANCE 8
	cmp	x2, #8
	b.hs	.Lwords
.Lbytes:
	cbz	x2, .Ldone
.Lbyte:
	EX(.Ldone, ldrb w4, [x1])
	EX(.Ldone, strb w4, [x3])
	ADVANCE 1
	cbnz	x2, .Lbyte
.Ldone:
	mov	x0, x2
	ret
.endm

FUNC(ucopy_fixup_tail)
	fixup_tail_body 1
END(ucopy_fixup_tail)

	.section .note.GNU-stack, "", %progbits
