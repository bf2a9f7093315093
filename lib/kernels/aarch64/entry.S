/*
 * entry.S - the exported entry points ucopy_memcpy and ucopy_try on
 * aarch64: the generic entries' words (dispatch.c) read with two compares
 * and one indirect branch, as on x86-64 (lib/kernels/x86_64/entry.S), but
 * without the per-CPU fast entries: the port has one entry of each kind.
 *
 * A plain body returns {dst, 0} in x0:x1 with x0 what memcpy returns, and a
 * try body returns the count in x0, so both entries branch into the kernel
 * and need no frame.  The limits are read with load-acquire: dispatch.c
 * stores each function before its limit with release, and on aarch64 (not
 * x86-64's TSO) a plain load of the function after the limit could see the
 * one from before the policy was compiled.
 */

#include "asm.h"

.macro LOAD_ACQ reg, sym
	adrp	x9, \sym
	add	x9, x9, :lo12:\sym
	ldar	\reg, [x9]
.endm
.macro LOAD reg, sym
	adrp	x9, \sym
	ldr	\reg, [x9, :lo12:\sym]
.endm

/* The branches go through x16, which a `bti c` landing pad accepts. */
.macro DISPATCH limit, first, limit2, second, rest
	LOAD_ACQ x10, \limit
	cmp	x2, x10
	b.hs	1f
	LOAD	x16, \first
	br	x16
1:	LOAD_ACQ x10, \limit2
	cmp	x2, x10
	b.hs	2f
	LOAD	x16, \second
	br	x16
2:	LOAD_ACQ x16, \rest
	br	x16
.endm

	.text
	.p2align 6
	.globl ucopy_memcpy_generic
	.hidden ucopy_memcpy_generic
	.type ucopy_memcpy_generic, %function
	/* The exported name; the library's own calls use the hidden one. */
	.globl ucopy_memcpy
	.type ucopy_memcpy, %function
ucopy_memcpy_generic:
ucopy_memcpy:
	.cfi_startproc
	BTI_C
	DISPATCH ucopy_first_limit, ucopy_first_fn, ucopy_second_limit, ucopy_second_fn, \
		 ucopy_memcpy_impl
	.cfi_endproc
	.size ucopy_memcpy_generic, . - ucopy_memcpy_generic
	.size ucopy_memcpy, . - ucopy_memcpy

	.p2align 6
	.globl ucopy_try_local
	.hidden ucopy_try_local
	.type ucopy_try_local, %function
	.globl ucopy_try
	.type ucopy_try, %function
ucopy_try_local:
ucopy_try:
	.cfi_startproc
	BTI_C
	DISPATCH ucopy_try_first_limit, ucopy_try_first_fn, ucopy_try_second_limit, \
		 ucopy_try_second_fn, ucopy_try_impl
	.cfi_endproc
	.size ucopy_try_local, . - ucopy_try_local
	.size ucopy_try, . - ucopy_try

	.section .note.GNU-stack, "", %progbits
