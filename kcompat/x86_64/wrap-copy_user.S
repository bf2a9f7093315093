/*
 * wrap-copy_user.S (ucopy kcompat, x86-64) - ucopy's `try` contract over
 * the convention of the kernel's copy_user_* routines (up to 6.3) and
 * __copy_user_nocache: rdi, rsi, rdx in, eax the bytes not copied out.
 * Their count is 32 bits (the kernel passes an unsigned int): a copy of
 * 4 GiB or more is cut by the routine itself.
 */
#include <ucopy-kwrap.h>

	UCOPY_KWRAP_START
	.cfi_startproc
	call	UCOPY_KENTRY
	movl	%eax, %eax
	ret
	.cfi_endproc
	UCOPY_KWRAP_END
