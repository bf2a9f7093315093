/*
 * wrap-c.S (ucopy kcompat, x86-64) - an entry that already has the `try`
 * contract in the C ABI (rdi, rsi, rdx in, rax out) under another name.
 */
#include <ucopy-kwrap.h>

	UCOPY_KWRAP_START
	jmp	UCOPY_KENTRY
	UCOPY_KWRAP_END
