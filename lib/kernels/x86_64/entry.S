/*
 * entry.S - the exported entry points ucopy_memcpy and ucopy_try.
 *
 * Assumptions: x86-64 SysV.  dispatch.c compiles the active policy into
 * ucopy_first_limit/ucopy_first_fn (its first rule) and ucopy_memcpy_impl
 * (what handles every larger size: the next kernel or the rule scan); before
 * first use the limit is 0 and the impl is the resolver.  ucopy_try has the
 * same three words for the try bodies, set only once ucopy's signal handler
 * is installed; until then its limit is 0 and its impl ucopy_try_cold.
 *
 * A plain body returns {dst, left} in rax:rdx, rax being what memcpy
 * returns, and a try body returns the count not copied in rax, what
 * ucopy_try returns: so neither entry needs a frame or a second call, only a
 * compare and one indirect jump, the same one glibc's memcpy pays in its
 * PLT.  The first rule is checked here because it carries the small copies,
 * where one more jump through a C dispatcher measured ~30% (3 ns on 64-byte
 * copies, Xeon family 6 model 207 under KVM); calling the kernel and moving
 * rdx to rax, as ucopy_try did when it shared the plain bodies, measured
 * 0.4-1.4 ns at 1-256 bytes (docs/performance.md).
 */
#include "asm.h"

.macro DISPATCH limit, first, rest
	cmp	\limit(%rip), %rdx
	jae	1f
	jmp	*\first(%rip)
1:	jmp	*\rest(%rip)
.endm

	.text
	.globl ucopy_memcpy
	.type ucopy_memcpy, @function
	.p2align 5
ucopy_memcpy:
	DISPATCH ucopy_first_limit, ucopy_first_fn, ucopy_memcpy_impl
	.size ucopy_memcpy, . - ucopy_memcpy

	.globl ucopy_try
	.type ucopy_try, @function
	/* The library's own calls use the hidden name: no PLT. */
	.globl ucopy_try_local
	.hidden ucopy_try_local
	.p2align 5
ucopy_try:
ucopy_try_local:
	DISPATCH ucopy_try_first_limit, ucopy_try_first_fn, ucopy_try_impl
	.size ucopy_try, . - ucopy_try

	.section .note.GNU-stack, "", @progbits
