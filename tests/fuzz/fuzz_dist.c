/*
 * fuzz_dist.c - libFuzzer target for distribution files, parsed from memory
 * as the command parses what it read: no crash, and an accepted
 * distribution is a proper one that the sampler can draw from.
 */
#include "fuzz.h"
#include "dist.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dist d;
	char err[300];
	if (dist_parse("fuzz.csv", (const char *)data, size, &d, err, sizeof err) != 0) {
		if (!err[0] || d.n || d.size)
			__builtin_trap();
		return 0;
	}
	if (d.n == 0 || d.cdf[d.n - 1] != 1.0 || d.max_size > DIST_MAX_SIZE ||
	    !(d.mean >= 0) || d.mean > (double)d.max_size)
		__builtin_trap();
	for (size_t i = 1; i < d.n; i++)
		if (d.size[i] <= d.size[i - 1] || d.cdf[i] < d.cdf[i - 1])
			__builtin_trap();
	struct copy_seq s;
	if (dist_sample(&d, 64, 1, &s) == 0) {
		for (size_t i = 0; i < s.len; i++)
			if (s.op[i].n > d.max_size || s.op[i].src_off > 63 || s.op[i].dst_off > 63)
				__builtin_trap();
		copy_seq_free(&s);
	}
	dist_free(&d);
	return 0;
}
