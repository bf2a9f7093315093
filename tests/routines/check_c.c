/*
 * check_c.c - copy routines for tests/cli/check.sh, right and deliberately
 * wrong, with the memcpy and memmove contracts (and one try routine with no
 * fault sites).  Built with -fno-builtin -fno-tree-loop-distribute-patterns,
 * so that the compiler keeps each loop as written rather than calling
 * memcpy.
 */
#include <stddef.h>
#include <stdint.h>

/* Exported, whatever -fvisibility the build passes. */
#define ROUTINE __attribute__((visibility("default")))

ROUTINE void *check_memcpy(void *dst, const void *src, size_t n);
ROUTINE void *check_memcpy_past_end(void *dst, const void *src, size_t n);
ROUTINE void *check_memcpy_overread(void *dst, const void *src, size_t n);
ROUTINE void *check_memcpy_hang(void *dst, const void *src, size_t n);
ROUTINE void *check_memcpy_ret(void *dst, const void *src, size_t n);
ROUTINE void *check_memmove(void *dst, const void *src, size_t n);
ROUTINE void *check_memmove_forward(void *dst, const void *src, size_t n);
ROUTINE size_t check_try_unlisted(void *dst, const void *src, size_t n);

/* Eight bytes at a time where both sides allow it, so the 4 MiB cases of
 * the default matrix stay quick; the head and tail byte by byte. */
void *check_memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	while (n && ((uintptr_t)d & 7)) {
		*d++ = *s++;
		n--;
	}
	if (!((uintptr_t)s & 7))
		for (; n >= 8; n -= 8, d += 8, s += 8)
			*(uint64_t *)d = *(const uint64_t *)s;
	while (n--)
		*d++ = *s++;
	return dst;
}

/* Bug: one byte past the end, dst[n], written. */
void *check_memcpy_past_end(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	for (size_t i = 0; i <= n; i++)
		d[i] = s[i];
	return dst;
}

/* Bug: reads src[n], one byte past the end (a crash where that is the
 * next page). */
void *check_memcpy_overread(void *dst, const void *src, size_t n)
{
	const volatile unsigned char *s = src;
	(void)s[n];
	return check_memcpy(dst, src, n);
}

/* Bug: never returns for a 77-byte copy. */
void *check_memcpy_hang(void *dst, const void *src, size_t n)
{
	while (n == 77)
		__asm__ volatile("" ::: "memory");
	return check_memcpy(dst, src, n);
}

/* Bug: returns dst + 1. */
void *check_memcpy_ret(void *dst, const void *src, size_t n)
{
	check_memcpy(dst, src, n);
	return (char *)dst + 1;
}

void *check_memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	if ((uintptr_t)d - (uintptr_t)s >= n)
		return check_memcpy(dst, src, n);
	while (n--)
		d[n] = s[n];
	return dst;
}

/* Bug: forward always, which overwrites the source it has yet to read
 * when dst is above src and they overlap. */
void *check_memmove_forward(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	for (size_t i = 0; i < n; i++)
		d[i] = s[i];
	return dst;
}

/* The try contract with no fault site: right on valid memory, a crash at
 * any fault. */
size_t check_try_unlisted(void *dst, const void *src, size_t n)
{
	check_memcpy(dst, src, n);
	return 0;
}
