/*
 * fuzz_policy.c - libFuzzer target for policy text: parsing and resolving
 * never crash, and whatever parses survives a format/parse round trip.
 */
#include "fuzz.h"
#include "ucopy.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	if (!text)
		return 0;

	struct ucopy_policy p, q;
	char err[256], buf[2048];
	if (ucopy_policy_parse(&p, text, err, sizeof err) == 0) {
		ucopy_policy_format(&p, buf, sizeof buf);
		if (ucopy_policy_parse(&q, buf, err, sizeof err) != 0 || q.nrules != p.nrules)
			__builtin_trap();
		for (unsigned i = 0; i < p.nrules; i++)
			if (q.rule[i].limit != p.rule[i].limit ||
			    q.rule[i].kernel != p.rule[i].kernel)
				__builtin_trap();
		/* Every size maps to a kernel. */
		if (!ucopy_policy_kernel(&p, 0) || !ucopy_policy_kernel(&p, SIZE_MAX))
			__builtin_trap();
	} else if (!memchr(err, '\0', sizeof err)) {
		__builtin_trap();
	}
	uint64_t features = size ? (uint64_t)data[0] * UINT64_C(0x0101010101) : 0;
	if (ucopy_policy_resolve(&p, text, features, err, sizeof err) == 0) {
		char note[512];
		ucopy_policy_fit(&p, ucopy_cpu()->features, note, sizeof note);
	}
	free(text);
	return 0;
}
