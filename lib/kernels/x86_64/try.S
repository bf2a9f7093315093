/*
 * try.S - the fault-tolerant entry points: ucopy_try and the call site
 * every fault-tolerant copy goes through.
 *
 * Assumptions: x86-64 SysV.  dispatch.c has compiled the active policy into
 * ucopy_tolerant_rules (limit, fault-capable kernel) pairs, the last limit
 * SIZE_MAX, and set ucopy_try_ready once that and the signal handler are in
 * place.  No kernel touches the stack (lib/kernels/x86_64/README.md).
 *
 * How the handler knows a fault is inside a fault-tolerant copy: every such
 * copy calls its kernel from one of two instructions, below, so while the
 * kernel runs the word at the thread's stack pointer is ucopy_try_return or
 * ucopy_try_return2.  That is the
 * per-thread "inside a fault-tolerant copy" flag, kept by the call itself: no
 * thread-local store before and after each copy, and a signal handler that
 * interrupts the copy and copies (or faults) on its own is told apart by its
 * own return address.  Measured: a thread-local flag set and restored around
 * the call cost ucopy_try 2-3 ns over ucopy_memcpy at 1-256 bytes (Xeon
 * family 6 model 207, KVM).
 */
#include "asm.h"

	.text
	.globl ucopy_try
	.type ucopy_try, @function
	/* The library's own calls use the hidden name: no PLT. */
	.globl ucopy_try_local
	.hidden ucopy_try_local
	.p2align 5
ucopy_try:
ucopy_try_local:
	cmpb	$0, ucopy_try_ready(%rip)
	je	ucopy_try_cold
	cmp	ucopy_tolerant_rules(%rip), %rdx
	jae	1f
	/* The first rule, called straight from its slot.  The kernels never
	 * use the stack, so the call needs no frame or alignment. */
	call	*ucopy_tolerant_rules+8(%rip)
	.globl ucopy_try_return
	.hidden ucopy_try_return
ucopy_try_return:
	mov	%rdx, %rax		/* kernels return {dst, left}: left */
	ret
1:	lea	ucopy_tolerant_rules+16(%rip), %rcx
2:	cmp	(%rcx), %rdx
	jb	3f
	add	$16, %rcx
	jmp	2b
3:	mov	8(%rcx), %rax
.Lcall:
	call	*%rax
	.globl ucopy_try_return2
	.hidden ucopy_try_return2
ucopy_try_return2:
	mov	%rdx, %rax
	ret
	.size ucopy_try, . - ucopy_try

/* size_t ucopy_call_tolerant(ucopy_kernel_fn fn, void *dst, const void *src,
 *                            size_t n): fn through the same call site. */
FUNC(ucopy_call_tolerant)
	mov	%rdi, %rax
	mov	%rsi, %rdi
	mov	%rdx, %rsi
	mov	%rcx, %rdx
	jmp	.Lcall
END(ucopy_call_tolerant)

	.section .note.GNU-stack, "", @progbits
