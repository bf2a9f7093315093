/*
 * wrap-rep_movs.S (ucopy kcompat, x86-64) - ucopy's `try` contract,
 * size_t f(void *dst, const void *src, size_t n), over the convention of
 * the kernel's rep_movs_alternative (6.4 and later): rdi, rsi, rcx in as
 * for `rep movs`, rcx the bytes not copied out; rax, rsi, rdi and (6.4,
 * 6.5) r8-r11 clobbered, all of them the caller's to lose in the C ABI.
 * `ucopy kbuild` defines UCOPY_KSYMBOL (exported) and UCOPY_KENTRY.
 */
	.text
	.globl	UCOPY_KSYMBOL
	.type	UCOPY_KSYMBOL, @function
	.balign	16
UCOPY_KSYMBOL:
	.cfi_startproc
	movq	%rdx, %rcx
	call	UCOPY_KENTRY
	movq	%rcx, %rax
	ret
	.cfi_endproc
	.size	UCOPY_KSYMBOL, . - UCOPY_KSYMBOL
