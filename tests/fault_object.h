/*
 * fault_object.h - a fault site's note written out by hand, for the test
 * objects of tests/test_fault_objects.c: what UCOPY_EXTABLE_TYPE() of
 * <ucopy-asm.h> writes, with the note's type, the description's size and
 * its words free, so that a test object can write one a later release
 * might, or one malformed on purpose.
 */
#ifndef UCOPY_TEST_FAULT_OBJECT_H
#define UCOPY_TEST_FAULT_OBJECT_H

#define RAW_NOTE(type, descsz, ...)                                    \
	.pushsection .note.ucopy.extable, "a", %note;                  \
	.balign 4;                                                     \
	.long 6, descsz, type;                                         \
	.asciz "ucopy";                                                \
	.balign 4;                                                     \
	.long __VA_ARGS__;                                             \
	.popsection

#endif
