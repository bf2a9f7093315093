/*
 * test_memmove.c - overlapping copies: ucopy_copy_forward_overlap (dst below
 * src), ucopy_copy_backward (dst above src) and ucopy_memmove (either, or no
 * overlap), against the C library's memmove on a copy of the same buffer.
 *
 * Sizes 0..1100 every byte at distances 1..70 and a few around vector and
 * block sizes, in both directions, at a random base alignment per case; then
 * large sizes.  The seed is printed; UCOPY_TEST_SEED=<seed> replays it.
 */
#define _GNU_SOURCE
#include "check.h"
#include "internal.h"

#include <inttypes.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define MAXN ((4u << 20) + 4096)
#define MAXD (128u << 10)
#define BUFLEN (MAXN + MAXD + 256)

typedef void *(*move_fn)(void *, const void *, size_t);

static unsigned char *buf, *ref;
static uint64_t rs;

static uint64_t rnd(void)
{
	return check_rnd(&rs);
}

static void *map(size_t len)
{
	return check_map(len, PROT_READ | PROT_WRITE);
}

/* Moves n bytes between offsets s and d of the buffer with fn and with
 * memmove on the reference, and compares the window around both. */
static int move_check(const char *name, move_fn fn, size_t s, size_t d, size_t n)
{
	size_t lo = (s < d ? s : d) - 64, hi = (s > d ? s : d) + n + 64;
	for (size_t i = lo; i < hi; i++)
		buf[i] = ref[i] = (unsigned char)(i * 7 + (i >> 8) * 13);
	memmove(ref + d, ref + s, n);
	void *r = fn(buf + d, buf + s, n);
	if (r != buf + d) {
		CHECK(0, "%s n=%zu src+%zu dst+%zu: returned %p, expected %p", name,
		      n, s, d, r, (void *)(buf + d));
		return -1;
	}
	if (memcmp(buf + lo, ref + lo, hi - lo) != 0) {
		size_t i = lo;
		while (buf[i] == ref[i])
			i++;
		CHECK(0, "%s n=%zu src+%zu dst+%zu: byte at dst%+td is %#x, expected %#x",
		      name, n, s, d, (ptrdiff_t)i - (ptrdiff_t)d, buf[i], ref[i]);
		return -1;
	}
	return 0;
}

static const size_t dists[] = {
	/* 1..70 are added in the loop */
	79, 80, 81, 127, 128, 129, 255, 256, 257, 511, 512, 513, 1023, 1024,
	1101, 4095, 4096, 4097,
};

/* dir > 0: dst above src; dir < 0: dst below src. */
static int sweep(const char *name, move_fn fn, int dir)
{
	for (size_t n = 0; n <= 1100; n++) {
		for (size_t j = 0; j < 70 + sizeof dists / sizeof dists[0]; j++) {
			size_t dist = j < 70 ? j + 1 : dists[j - 70];
			size_t base = 64 + (size_t)(rnd() % 64) + (size_t)(rnd() % 64) * 4096;
			size_t s = dir > 0 ? base : base + dist;
			size_t d = dir > 0 ? base + dist : base;
			if (move_check(name, fn, s, d, n))
				return -1;
		}
	}
	static const size_t big[] = { 2047, 4097, 65536 + 33, (1u << 20) + 5, 4u << 20 };
	static const size_t bigd[] = { 1, 15, 16, 17, 63, 64, 65, 4096, 100000 };
	for (size_t i = 0; i < sizeof big / sizeof big[0]; i++)
		for (size_t j = 0; j < sizeof bigd / sizeof bigd[0]; j++) {
			size_t base = 64 + (size_t)(rnd() % 64);
			size_t s = dir > 0 ? base : base + bigd[j];
			size_t d = dir > 0 ? base + bigd[j] : base;
			if (move_check(name, fn, s, d, big[i]))
				return -1;
		}
	return 0;
}

/* ucopy_memmove also with regions that do not overlap, at the distances
 * where they only just do not, and with src == dst. */
static void disjoint(void)
{
	for (size_t n = 0; n <= 1100; n += 1 + n / 64) {
		size_t base = 64 + (size_t)(rnd() % 64);
		size_t ds[] = { n, n + 1, n + 4096, 0 };
		for (size_t j = 0; j < sizeof ds / sizeof ds[0]; j++)
			if (move_check("ucopy_memmove", ucopy_memmove, base, base + ds[j], n) ||
			    move_check("ucopy_memmove", ucopy_memmove, base + ds[j], base, n))
				return;
	}
}

int main(void)
{
	const char *env = getenv("UCOPY_TEST_SEED");
	uint64_t seed = env ? strtoull(env, NULL, 0)
			    : (uint64_t)time(NULL) ^ (uint64_t)clock();
	rs = seed;
	printf("test_memmove: seed %" PRIu64 " (replay with UCOPY_TEST_SEED=%" PRIu64 ")\n",
	       seed, seed);
	buf = map(BUFLEN);
	ref = map(BUFLEN);

	sweep("ucopy_copy_backward", ucopy_copy_backward, 1);
	check_group("copy_backward (dst above src)");
	sweep("ucopy_copy_forward_overlap", ucopy_copy_forward_overlap, -1);
	check_group("copy_forward_overlap (dst below src)");
	/* no overlap: each is correct in either direction */
	for (size_t n = 0; n <= 600; n += 7) {
		move_check("ucopy_copy_backward", ucopy_copy_backward, 4096, 8192 + 3, n);
		move_check("ucopy_copy_backward", ucopy_copy_backward, 8192 + 5, 4096, n);
		move_check("ucopy_copy_forward_overlap", ucopy_copy_forward_overlap,
			   4096 + 9, 8192, n);
		move_check("ucopy_copy_forward_overlap", ucopy_copy_forward_overlap,
			   8192, 4096 + 11, n);
	}
	check_group("memmove helpers without overlap");
	if (!sweep("ucopy_memmove", ucopy_memmove, 1))
		sweep("ucopy_memmove", ucopy_memmove, -1);
	disjoint();
	check_group("ucopy_memmove");
	return check_exit();
}
