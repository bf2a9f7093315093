/*
 * simple.c - copy routines of a user's own, one per contract, for `ucopy
 * bench --routine` and `ucopy compare --routine` to load from
 * libroutine_simple.so (tests/cli/routine_bench.sh, tests/test_routine.c).
 *
 * Assumptions: none beyond each contract's; plain C, any architecture.
 * Byte loops, slow and obviously right: what is tested is the loading and
 * the timing around them.  The empty asm in each loop keeps the compiler
 * from turning it into a call to memcpy or memmove, which would time the C
 * library's instead.
 */
#include <stddef.h>
#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))

EXPORT void *simple_memcpy(void *dst, const void *src, size_t n);
EXPORT void *simple_memmove(void *dst, const void *src, size_t n);
EXPORT size_t simple_try(void *dst, const void *src, size_t n);

void *simple_memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	for (size_t i = 0; i < n; i++) {
		d[i] = s[i];
		__asm__ volatile("" ::: "memory");
	}
	return dst;
}

void *simple_memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	/* Forward unless dst starts inside src's n bytes. */
	if ((uintptr_t)d - (uintptr_t)s >= n)
		return simple_memcpy(dst, src, n);
	while (n--) {
		d[n] = s[n];
		__asm__ volatile("" ::: "memory");
	}
	return dst;
}

/* Never faults on what it is given here (valid memory), so every byte is
 * copied: 0 left. */
size_t simple_try(void *dst, const void *src, size_t n)
{
	simple_memcpy(dst, src, n);
	return 0;
}
