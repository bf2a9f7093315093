/*
 * overlap_prog.c - memcpy, mempcpy and __memcpy_chk between overlapping
 * buffers, forward and backward, over many (size, shift) cases, each
 * compared with memmove's result, computed here byte by byte: what
 * tests/cli/preload.sh runs under `ucopy run` (the interposer's memcpy must
 * not corrupt where glibc's, its memmove, did not).  Prints
 * "N of M overlapping cases differ from memmove" and the first few; exits 1
 * when any does.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *__memcpy_chk(void *dst, const void *src, size_t n, size_t destlen);

#define ROOM (((size_t)1 << 21) + 128)   /* 2 * 1 MiB + 64, the largest case */
static unsigned char buf[ROOM], orig[ROOM], want[ROOM];

static void *chk(void *d, const void *s, size_t n)
{
	return __memcpy_chk(d, s, n, n);
}

static void *pcpy(void *d, const void *s, size_t n)
{
	return (char *)mempcpy(d, s, n) - n;
}

static const struct {
	const char *name;
	void *(*fn)(void *, const void *, size_t);
} entries[] = { { "memcpy", memcpy }, { "mempcpy", pcpy }, { "__memcpy_chk", chk } };

static size_t cases, bad;

/* One case: n bytes from at + s to at + d of a buffer of len bytes. */
static void one(int e, size_t len, size_t n, size_t s, size_t d)
{
	void *(*volatile fn)(void *, const void *, size_t) = entries[e].fn;
	for (size_t i = 0; i < len; i++)
		orig[i] = buf[i] = want[i] = (unsigned char)(i * 131 + n + s);
	volatile unsigned char *w = want;
	for (size_t i = 0; i < n; i++)
		w[d + i] = orig[s + i];
	void *r = fn(buf + d, buf + s, n);
	cases++;
	size_t i = 0;
	while (i < len && buf[i] == want[i])
		i++;
	if (r != buf + d || i < len) {
		if (bad++ < 5)
			printf("%s: %zu bytes, dst %s src by %zu: %s\n", entries[e].name, n,
			       d > s ? "after" : "before", d > s ? d - s : s - d,
			       r != buf + d ? "wrong return value" : "differs from memmove");
	}
}

int main(void)
{
	static const size_t big[] = { 300, 511, 512, 1000, 1024, 4095, 4096, 8192, 65536,
				      262144, 1 << 20 };
	static const size_t far[] = { 65, 100, 127, 128, 255, 256, 1000, 4096, 65536 };
	for (int e = 0; e < 3; e++) {
		for (size_t n = 2; n <= 256; n++)
			for (size_t sh = 1; sh <= 64 && sh < n; sh++) {
				one(e, n + sh + 64, n, 32, 32 + sh);
				one(e, n + sh + 64, n, 32 + sh, 32);
			}
		for (size_t k = 0; k < sizeof big / sizeof big[0]; k++) {
			size_t n = big[k];
			/* Every shift up to 64 below 8K, then doubling: the
			 * larger cases cost a pass over the buffer each. */
			for (size_t sh = 1; sh < n; sh = sh < 64 && n <= 8192 ? sh + 1 : sh * 2 + 1) {
				one(e, n + sh + 64, n, 32, 32 + sh);
				one(e, n + sh + 64, n, 32 + sh, 32);
			}
			for (size_t j = 0; j < sizeof far / sizeof far[0] && far[j] < n; j++) {
				one(e, n + far[j] + 64, n, 32, 32 + far[j]);
				one(e, n + far[j] + 64, n, 32 + far[j], 32);
			}
			one(e, 2 * n + 64, n, 32, 32 + n - 1);
			one(e, 2 * n + 64, n, 32 + n - 1, 32);
		}
	}
	printf("%zu of %zu overlapping cases differ from memmove\n", bad, cases);
	return bad != 0;
}
