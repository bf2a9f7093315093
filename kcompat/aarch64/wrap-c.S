/*
 * wrap-c.S (ucopy kcompat, aarch64) - ucopy's `try` contract over the
 * kernel's __arch_copy_{from,to}_user: x0 dst, x1 src, x2 n in, x0 the
 * bytes not copied out, x3-x15 clobbered; that is the C ABI already.
 */
#include <ucopy-kwrap.h>

	UCOPY_KWRAP_START
	b	UCOPY_KENTRY
	UCOPY_KWRAP_END
