/*
 * fuzz_sequence.c - libFuzzer target for recorded sequences, parsed from
 * memory as the command parses what it read: no crash, a refusal says where,
 * and an accepted sequence holds only calls the replay can lay out.
 */
#include "fuzz.h"
#include "sequence.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct replay r;
	char err[300];
	if (replay_parse("fuzz.seq", (const char *)data, size, &r, err, sizeof err) != 0) {
		if (strncmp(err, "fuzz.seq:", 9) || r.seq.op || r.seq.len)
			__builtin_trap();
		return 0;
	}
	if (r.seq.len == 0 || r.nthreads == 0 || r.nthreads > r.seq.len ||
	    r.seq.max_n > SEQ_MAX_SIZE || r.seq.max_off > 4095)
		__builtin_trap();
	for (size_t i = 0; i < r.seq.len; i++) {
		const struct copy_op *o = &r.seq.op[i];
		if (o->n > r.seq.max_n || o->src_off > 63 || o->dst_off > 4095)
			__builtin_trap();
	}
	replay_free(&r);
	return 0;
}
