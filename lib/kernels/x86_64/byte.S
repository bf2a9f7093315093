/*
 * byte.S - copy one byte at a time.
 *
 * Assumptions: x86-64 SysV; no alignment; src and dst do not overlap.
 *
 * One size class: a load and a store per byte.  It is the slowest kernel and
 * the floor every other one is measured against; the kernel's short-copy
 * paths (and the fault fixup) end in this loop.
 *
 * Fault discipline: rdi/rsi/rdx are the cursors and the count left at every
 * access, so the fixup is the shared tail itself.
 */
#include "asm.h"

.macro byte_body try
	mov	%rdi, %rax
	BYTES \try
.endm

KERNEL(byte)

	.section .note.GNU-stack, "", @progbits
