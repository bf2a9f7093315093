/*
 * wrap-rep_movs.S (ucopy kcompat, x86-64) - ucopy's `try` contract,
 * size_t f(void *dst, const void *src, size_t n), over the convention of
 * the kernel's rep_movs_alternative (6.4 and later): rdi, rsi, rcx in as
 * for `rep movs`, rcx the bytes not copied out; rax, rsi, rdi and (6.4,
 * 6.5) r8-r11 clobbered, all of them the caller's to lose in the C ABI.
 */
#include <ucopy-kwrap.h>

	UCOPY_KWRAP_START
	.cfi_startproc
	movq	%rdx, %rcx
	call	UCOPY_KENTRY
	movq	%rcx, %rax
	ret
	.cfi_endproc
	UCOPY_KWRAP_END
