/*
 * wrap-c.S (ucopy kcompat, aarch64) - ucopy's `try` contract over the
 * kernel's __arch_copy_{from,to}_user: x0 dst, x1 src, x2 n in, x0 the
 * bytes not copied out, x3-x15 clobbered; that is the C ABI already.
 * `ucopy kbuild` defines UCOPY_KSYMBOL (exported) and UCOPY_KENTRY.
 */
	.text
	.globl	UCOPY_KSYMBOL
	.type	UCOPY_KSYMBOL, %function
	.balign	16
UCOPY_KSYMBOL:
	b	UCOPY_KENTRY
	.size	UCOPY_KSYMBOL, . - UCOPY_KSYMBOL
