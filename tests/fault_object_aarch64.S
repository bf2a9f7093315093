/*
 * fault_object_aarch64.S - copy routines of a program's own, their fault
 * sites listed with <ucopy-asm.h>, for tests/test_fault_objects.c (the
 * Makefile builds $(B)/tests/libfault_object.so from the file of $(ARCH)).
 *
 * Assumptions: AAPCS64 arguments, dst in x0, src in x1, n in x2; a byte at
 * a time, so that the cursors say where a fault stopped: x2 counts down
 * only once a byte is stored, and the fixup returns it, the bytes not
 * copied (ucopy_try()'s contract).  arm64 has no trap-number type.
 */
#include <ucopy-asm.h>
#include "fault_object.h"

/* One routine: both accesses listed when `store` is 1, the load alone
 * when 0. */
.macro BYTES name, store
	.text
	.globl	\name
	.type	\name, %function
\name:
	cbz	x2, 2f
1:	ldrb	w3, [x1]
3:	strb	w3, [x0]
	add	x1, x1, #1
	add	x0, x0, #1
	subs	x2, x2, #1
	b.ne	1b
2:	mov	x0, #0
	ret
4:	mov	x0, x2
	ret
	.size	\name, . - \name
	UCOPY_EXTABLE(1b, 4b)
	.if \store
	UCOPY_EXTABLE(3b, 4b)
	.endif
.endm

/* size_t fo_bytes(void *dst, const void *src, size_t n) */
	BYTES	fo_bytes, 1
/* size_t fo_missing(void *dst, const void *src, size_t n): the store left
 * out of the table, the bug a check must find. */
	BYTES	fo_missing, 0

/* A note of ucopy's with a type it does not know (a later release's):
 * skipped, not refused. */
	RAW_NOTE(UCOPY_NOTE_EXTABLE + 0x100, 4, 0)

	.section .note.GNU-stack, "", %progbits
