/*
 * wrap-copy_user.S (ucopy kcompat, x86-64) - ucopy's `try` contract over
 * the convention of the kernel's copy_user_* routines (up to 6.3) and
 * __copy_user_nocache: rdi, rsi, rdx in, eax the bytes not copied out.
 * Their count is 32 bits (the kernel passes an unsigned int): a copy of
 * 4 GiB or more is cut by the routine itself.
 * `ucopy kbuild` defines UCOPY_KSYMBOL (exported) and UCOPY_KENTRY.
 */
	.text
	.globl	UCOPY_KSYMBOL
	.type	UCOPY_KSYMBOL, @function
	.balign	16
UCOPY_KSYMBOL:
	.cfi_startproc
	call	UCOPY_KENTRY
	movl	%eax, %eax
	ret
	.cfi_endproc
	.size	UCOPY_KSYMBOL, . - UCOPY_KSYMBOL
