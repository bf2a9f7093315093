/*
 * copy_loop.c - N small memcpys (sizes 1-64 in a fixed shuffled order,
 * offsets 0-63), timed in the loop itself: what docs/trace.md measures the
 * interposer's and the recording's cost per call with.
 * usage: copy_loop [N]   prints "N calls, X ns per call"
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10000000;
	static unsigned char src[4096], dst[4096];
	unsigned sizes[256];
	unsigned x = 12345;
	for (int i = 0; i < 256; i++) {
		x = x * 1103515245u + 12345u;
		sizes[i] = 1 + (x >> 16) % 64;
	}
	void *(*volatile cpy)(void *, const void *, size_t) = memcpy;
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long i = 0; i < n; i++)
		cpy(dst + (i & 63), src + ((i >> 6) & 63), sizes[i & 255]);
	clock_gettime(CLOCK_MONOTONIC, &b);
	double ns = ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec));
	printf("%ld calls, %.2f ns per call\n", n, n ? ns / (double)n : 0.0);
	return dst[7] == 255;
}
