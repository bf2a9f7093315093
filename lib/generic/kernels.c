/*
 * generic/kernels.c - the copy kernel of an architecture without a port:
 * plain C, and the overlapping copies behind ucopy_memmove.
 *
 * Assumptions: none beyond C.  Words of 8 bytes where both cursors allow,
 * bytes elsewhere.  The loops carry an empty asm so that no compiler turns
 * them into a call to memcpy, which a program may route into ucopy.  No try
 * body: without an exception table ucopy_try copies without signals
 * (docs/design.md, "Ports").
 */
#include <string.h>

#include "arch.h"

static struct ucopy_ret k_c(void *restrict dst, const void *restrict src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	if (((uintptr_t)d & 7) == ((uintptr_t)s & 7)) {
		for (; n && ((uintptr_t)d & 7); n--) {
			*d++ = *s++;
			__asm__ volatile("" ::: "memory");
		}
		for (; n >= 8; n -= 8, d += 8, s += 8) {
			uint64_t w;
			__builtin_memcpy(&w, s, 8);   /* one load, inlined */
			__builtin_memcpy(d, &w, 8);
			__asm__ volatile("" ::: "memory");
		}
	}
	for (; n; n--) {
		*d++ = *s++;
		__asm__ volatile("" ::: "memory");
	}
	return (struct ucopy_ret){ dst, 0 };
}

const struct ucopy_kernel ucopy_arch_kernels[] = {
	{ "c", "plain C: 8-byte words where aligned alike, else bytes", 0, 0, k_c, NULL },
};
const size_t ucopy_arch_nkernels = sizeof ucopy_arch_kernels / sizeof ucopy_arch_kernels[0];

const char *const ucopy_arch_fault_capable_order[] = { NULL };

void *ucopy_copy_forward_overlap(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	while (n--) {
		*d++ = *s++;
		__asm__ volatile("" ::: "memory");
	}
	return dst;
}

void *ucopy_copy_backward(void *dst, const void *src, size_t n)
{
	unsigned char *d = (unsigned char *)dst + n;
	const unsigned char *s = (const unsigned char *)src + n;
	while (n--) {
		*--d = *--s;
		__asm__ volatile("" ::: "memory");
	}
	return dst;
}
