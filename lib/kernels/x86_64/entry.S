/*
 * entry.S - the exported memcpy entry point.
 *
 * Assumptions: x86-64 SysV.  ucopy_memcpy_impl (dispatch.c) holds a
 * ucopy_kernel_fn: a kernel when the active policy has one rule, the size
 * dispatcher otherwise, and the resolver before first use.
 *
 * A kernel returns {dst, left} in rax:rdx, and rax is what memcpy returns, so
 * the entry is one indirect jump: no frame, no second call.
 */
#include "asm.h"

	.text
	.globl ucopy_memcpy
	.type ucopy_memcpy, @function
	.p2align 5
ucopy_memcpy:
	jmp *ucopy_memcpy_impl(%rip)
	.size ucopy_memcpy, . - ucopy_memcpy

	.section .note.GNU-stack, "", @progbits
