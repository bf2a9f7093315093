/*
 * wrap-c.S (ucopy kcompat, x86-64) - an entry that already has the `try`
 * contract in the C ABI (rdi, rsi, rdx in, rax out) under another name.
 * `ucopy kbuild` defines UCOPY_KSYMBOL (exported) and UCOPY_KENTRY.
 */
	.text
	.globl	UCOPY_KSYMBOL
	.type	UCOPY_KSYMBOL, @function
	.balign	16
UCOPY_KSYMBOL:
	jmp	UCOPY_KENTRY
	.size	UCOPY_KSYMBOL, . - UCOPY_KSYMBOL
