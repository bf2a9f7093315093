/*
 * fuzz_sizespec.c - libFuzzer target for sizes and size lists: no crash, no
 * hang on huge ranges, and every accepted list within its limits.
 */
#include "fuzz.h"
#include "sizespec.h"
#include "ucopy.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	if (!text)
		return 0;

	char err[256], back[32];
	size_t v, w;
	/* The library's one size form: a refusal names the size, an accepted
	 * one formats and parses back to itself. */
	if (ucopy_size_parse(text, &v, err, sizeof err) != 0) {
		if (!strstr(err, "bad size") && !strstr(err, "too large"))
			__builtin_trap();
	} else if (ucopy_size_format(v, back, sizeof back) >= sizeof back ||
		   ucopy_size_parse(back, &w, NULL, 0) != 0 || w != v) {
		__builtin_trap();
	}

	/* As --sizes parses, and as bench's offsets do (their own noun and
	 * limit in the messages). */
	static const struct {
		const char *noun;
		size_t max_count, max_size;
	} as[] = { { NULL, 4096, (size_t)1 << 30 }, { "offset", 0, 4095 } };
	for (size_t a = 0; a < sizeof as / sizeof as[0]; a++) {
		struct sizes s;
		size_t max_count = as[a].max_count ? as[a].max_count : 1000000;
		if (sizespec_parse(text, as[a].noun, as[a].max_count, as[a].max_size, &s, err,
				   sizeof err) == 0) {
			if (s.n == 0 || s.n > max_count)
				__builtin_trap();
			for (size_t i = 0; i < s.n; i++)
				if (s.v[i] > as[a].max_size)
					__builtin_trap();
			sizes_free(&s);
		} else if (s.v || s.n || !err[0]) {
			__builtin_trap();
		}
	}
	free(text);
	return 0;
}
