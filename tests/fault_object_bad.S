/*
 * fault_object_bad.S - an object whose fault-site table is malformed in one
 * way, chosen by -DBAD_<way> (the Makefile builds
 * $(B)/tests/libfault_bad_<way>.so for each), for
 * tests/test_fault_objects.c: ucopy_fault_register() must refuse it whole.
 * One good site comes first, so that refusing means registering nothing.
 * The same source for x86-64 and aarch64: nop and ret are both's.
 */
#include <ucopy-asm.h>
#include "fault_object.h"

	.text
	.globl	fo_bad
fo_bad:
1:	nop
2:	ret
	UCOPY_EXTABLE(1b, 2b)

#if defined(BAD_fixup)
/* The fixup 2 GiB away, outside the object. */
	RAW_NOTE(UCOPY_NOTE_EXTABLE, 16, 2b - ., 0x7ffffff0, UCOPY_EX_RESUME, 0)
#elif defined(BAD_insn)
/* The instruction in a segment that is not executable. */
	.data
3:	.long	0
	.text
	UCOPY_EXTABLE(3b, 2b)
#elif defined(BAD_type)
/* A type no release has. */
	UCOPY_EXTABLE_TYPE(2b, 2b, 2)
#elif defined(BAD_trapnr)
/* x86-64's type: refused on aarch64, two sites on x86-64. */
	UCOPY_EXTABLE_TYPE(2b, 2b, UCOPY_EX_TRAPNR)
#elif defined(BAD_last)
/* The fourth word not 0. */
	RAW_NOTE(UCOPY_NOTE_EXTABLE, 16, 2b - ., 2b - ., UCOPY_EX_RESUME, 1)
#elif defined(BAD_size)
/* A description of 20 bytes. */
	RAW_NOTE(UCOPY_NOTE_EXTABLE, 20, 2b - ., 2b - ., UCOPY_EX_RESUME, 0, 0)
#elif defined(BAD_twice)
/* The first site's instruction again, with another fixup. */
	UCOPY_EXTABLE(1b, 1b)
#else
#error "fault_object_bad.S: build it with -DBAD_<way>"
#endif

	.section .note.GNU-stack, "", %progbits
