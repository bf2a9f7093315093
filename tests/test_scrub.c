/*
 * test_scrub.c - the scrubber (programs/core/scrub.h) and the company
 * condition in the measuring core: the same decisions on every run, a run
 * after every K copies of a batch and none of the steady state's passes.
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "dist.h"
#include "measure.h"
#include "scrub.h"

static void *plain_copy(void *d, const void *s, size_t n)
{
	return memcpy(d, s, n);
}

/* The same checksum on every call: the condition is reproducible. */
static void test_same_run(void)
{
	uint64_t a = scrub_run(), b = scrub_run();
	CHECK(a == b, "two runs: %llx, then %llx", (unsigned long long)a,
	      (unsigned long long)b);
	CHECK(a != 0, "checksum 0: did anything run?");
	check_group("scrub: every run makes the same decisions");
}

/* A repeated sequence (one that a predictor learns, so one the steady
 * state applies to) timed with and without the scrubber. */
static void test_in_cells(void)
{
	size_t sizes[64];
	for (size_t i = 0; i < 64; i++)
		sizes[i] = 1 + (i * 37) % 200;
	struct copy_seq seq;
	struct cell c;
	struct variant v[2];
	struct cell_result r;
	char err[256] = "";
	struct measure *m = measure_new();
	CHECK(m && copy_seq_sizes(&seq, sizes, 64) == 0, "set-up");
	cell_init_drawn(&c, &seq, CACHE_HOT);
	variant_memcpy(&v[0], "memcpy", memcpy);
	variant_memcpy(&v[1], "plain", plain_copy);

	struct measure_opts o = { .seconds = 0.02, .counters = 1, .scrub_every = 100 };
	CHECK(measure_cell(m, v, 2, &c, &o, &r, err, sizeof err) == 0, "scrubbed cell: %s", err);
	for (size_t i = 0; i < r.nvariants; i++) {
		CHECK(r.v[i].scrubs == r.rounds * ((r.batch + 99) / 100),
		      "variant %zu: %llu scrubs in %zu rounds of %zu copies", i,
		      (unsigned long long)r.v[i].scrubs, r.rounds, r.batch);
		CHECK(r.v[i].steady_passes == 0, "variant %zu played %llu steady passes", i,
		      (unsigned long long)r.v[i].steady_passes);
		CHECK(isnan(r.v[i].ctr[CTR_CYCLES]), "variant %zu counted cycles", i);
		CHECK(r.v[i].copies == r.rounds * r.batch, "variant %zu timed %llu copies", i,
		      (unsigned long long)r.v[i].copies);
	}
	cell_result_free(&r);

	o.scrub_every = 0;
	CHECK(measure_cell(m, v, 2, &c, &o, &r, err, sizeof err) == 0, "plain cell: %s", err);
	for (size_t i = 0; i < r.nvariants; i++)
		CHECK(r.v[i].scrubs == 0, "variant %zu: %llu scrubs", i,
		      (unsigned long long)r.v[i].scrubs);
	cell_result_free(&r);

	o.scrub_every = SCRUB_MIN_EVERY - 1;
	err[0] = '\0';
	CHECK(measure_cell(m, v, 2, &c, &o, &r, err, sizeof err) < 0 &&
		      strstr(err, "expected at least 64"),
	      "every 63 copies: accepted, or the message '%s' does not say why", err);
	copy_seq_free(&seq);
	measure_free(m);
	check_group("scrub: the company condition in a cell");
}

int main(void)
{
	test_same_run();
	test_in_cells();
	return check_exit();
}
