/*
 * dist_loop.c - N memcpys with sizes drawn from a fleetbench distribution
 * (data/distributions/Memcpy_*.csv: "SIZE:P,..." on the first line), at
 * offsets 0-63, timed in the loop itself: what docs/trace.md measures the
 * interposer's cost on the distributions with.  The sizes are drawn before
 * the clock starts, from a fixed seed, so every run copies the same.
 * usage: dist_loop FILE.csv [N]   prints "FILE: N calls, X ns per call"
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_SIZE ((size_t)1 << 20)
#define DRAWN 65536

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: dist_loop FILE.csv [N]\n");
		return 2;
	}
	long n = argc > 2 ? atol(argv[2]) : 2000000;
	FILE *f = fopen(argv[1], "r");
	static char line[1 << 20];
	if (!f || !fgets(line, sizeof line, f)) {
		fprintf(stderr, "dist_loop: cannot read %s\n", argv[1]);
		return 2;
	}
	fclose(f);
	static size_t size[4096];
	static double cum[4096];
	size_t k = 0;
	double total = 0;
	for (char *p = line; *p && k < 4096;) {
		char *e;
		unsigned long s = strtoul(p, &e, 10);
		if (*e != ':')
			break;
		double w = strtod(e + 1, &p);
		if (s <= MAX_SIZE && w > 0) {
			size[k] = s;
			cum[k++] = total += w;
		}
		if (*p == ',')
			p++;
	}
	if (!k) {
		fprintf(stderr, "dist_loop: %s: no 'SIZE:P' on its first line\n", argv[1]);
		return 2;
	}
	static size_t drawn[DRAWN];
	unsigned x = 12345;
	for (int i = 0; i < DRAWN; i++) {
		x = x * 1103515245u + 12345u;
		double u = (double)(x >> 8) / (double)(1u << 24) * total;
		size_t j = 0;
		while (j + 1 < k && cum[j] < u)
			j++;
		drawn[i] = size[j];
	}
	unsigned char *src = malloc(MAX_SIZE + 64), *dst = malloc(MAX_SIZE + 64);
	if (!src || !dst)
		return 1;
	memset(src, 1, MAX_SIZE + 64);
	memset(dst, 0, MAX_SIZE + 64);
	void *(*volatile cpy)(void *, const void *, size_t) = memcpy;
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long i = 0; i < n; i++)
		cpy(dst + (i & 63), src + ((i >> 6) & 63), drawn[i & (DRAWN - 1)]);
	clock_gettime(CLOCK_MONOTONIC, &b);
	double ns = ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec));
	const char *name = strrchr(argv[1], '/');
	printf("%s: %ld calls, %.2f ns per call\n", name ? name + 1 : argv[1], n,
	       n ? ns / (double)n : 0.0);
	return dst[7] != 1;
}
