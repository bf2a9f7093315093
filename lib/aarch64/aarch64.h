/*
 * aarch64.h - what the aarch64 port's files share: the kernels' symbols.
 */
#ifndef UCOPY_AARCH64_H
#define UCOPY_AARCH64_H

#include "internal.h"

/* The kernels (lib/kernels/aarch64/): the plain body ucopy_k_NAME, a
 * ucopy_kernel_fn, and the try body ucopy_t_NAME, a ucopy_try_fn. */
#define KERNEL_DECL(name) \
	struct ucopy_ret ucopy_k_##name(void *restrict, const void *restrict, \
					size_t) HIDDEN; \
	size_t ucopy_t_##name(void *, const void *, size_t) HIDDEN
KERNEL_DECL(byte);
KERNEL_DECL(word);
KERNEL_DECL(ldp);
KERNEL_DECL(ldtr);
KERNEL_DECL(neon);
KERNEL_DECL(mops);

/* The shared fault fixup tail (fixup.S). */
void ucopy_fixup_tail(void) HIDDEN;

#endif
