/*
 * word.S - copy 8-byte words, then the tail byte by byte.
 *
 * Assumptions: x86-64 SysV; no alignment (unaligned 8-byte accesses are
 * cheap on every x86-64); src and dst do not overlap.
 *
 * Size classes: 8-byte words while 8 or more bytes remain, then 0..7 single
 * bytes.  This is the Linux kernel's short user-copy path
 * (rep_movs_alternative below 64 bytes, copy_user_short_string).
 *
 * Fault discipline: rdi/rsi/rdx are the cursors and the count left at every
 * access, so the fixup is the shared tail itself.
 */
#include "asm.h"

.macro word_body try
	mov	%rdi, %rax
	WORDS_BYTES \try
.endm

KERNEL(word)

	.section .note.GNU-stack, "", @progbits
