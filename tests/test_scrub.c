/*
 * test_scrub.c - the scrubber (programs/core/scrub.h) and the company
 * condition in the measuring core: the same decisions on every run, a run
 * after every K copies of a batch and none of the steady state's passes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dist.h"
#include "measure.h"
#include "scrub.h"

static void *plain_copy(void *d, const void *s, size_t n)
{
	return memcpy(d, s, n);
}

/* The same decisions for the same position in the table, and a table
 * longer than one run: the runs that follow differ. */
static void test_same_run(void)
{
	scrub_reset();
	uint64_t a = scrub_run(), b = scrub_run();
	scrub_reset();
	uint64_t a2 = scrub_run(), b2 = scrub_run();
	CHECK(a == a2 && b == b2, "after a reset: %llx %llx, then %llx %llx", (unsigned long long)a,
	      (unsigned long long)b, (unsigned long long)a2, (unsigned long long)b2);
	CHECK(a != b, "two runs in a row made the same decisions (%llx)", (unsigned long long)a);
	for (int i = 2; i < SCRUB_TABLE / SCRUB_DECISIONS; i++)
		scrub_run();
	CHECK(scrub_run() == a, "after %d runs the table did not start again",
	      SCRUB_TABLE / SCRUB_DECISIONS);
	check_group("scrub: the same decisions for the same place in its table");
}

/* A repeated sequence a predictor learns, long enough that steady-state
 * passes apply to it (a pass of 2 us or more: measure.c), timed with and
 * without the scrubber. */
static void test_in_cells(void)
{
	enum { LEN = 2048 };
	size_t *sizes = malloc(LEN * sizeof *sizes);
	struct copy_seq seq;
	struct cell c;
	struct variant v[2];
	struct cell_result r;
	char err[256] = "";
	struct measure *m = measure_new();
	CHECK(sizes && m, "set-up");
	for (size_t i = 0; i < LEN; i++)
		sizes[i] = 64 + (i * 37) % 256;
	CHECK(copy_seq_sizes(&seq, sizes, LEN) == 0, "set-up");
	free(sizes);
	cell_init_drawn(&c, &seq, CACHE_HOT);
	variant_memcpy(&v[0], "memcpy", memcpy);
	variant_memcpy(&v[1], "plain", plain_copy);

	/* Without the scrubber first: the sequence is one the steady state
	 * applies to, so its absence below is the scrubber's doing. */
	struct measure_opts o = { .seconds = 0.05, .counters = 1 };
	CHECK(measure_cell(m, v, 2, &c, &o, &r, err, sizeof err) == 0, "plain cell: %s", err);
	int counted = !isnan(r.v[0].ctr[CTR_INSTRUCTIONS]);
	/* A pass must take 2 us to 2 ms for the steady state to apply: so it
	 * does natively; an emulator may be slower than that. */
	int steady = r.v[0].steady_passes > 0 && r.v[1].steady_passes > 0;
	for (size_t i = 0; i < r.nvariants; i++)
		CHECK(r.v[i].scrubs == 0, "variant %zu: %llu scrubs", i,
		      (unsigned long long)r.v[i].scrubs);
	if (!steady)
		printf("  (no steady passes without the scrubber either: a pass of this sequence "
		       "is outside 2 us..2 ms here; their absence below says nothing)\n");
	cell_result_free(&r);

	o.scrub_every = 300;
	CHECK(measure_cell(m, v, 2, &c, &o, &r, err, sizeof err) == 0, "scrubbed cell: %s", err);
	for (size_t i = 0; i < r.nvariants; i++) {
		CHECK(r.v[i].scrubs == r.rounds * ((r.batch + 299) / 300),
		      "variant %zu: %llu scrubs in %zu rounds of %zu copies", i,
		      (unsigned long long)r.v[i].scrubs, r.rounds, r.batch);
		CHECK(!steady || r.v[i].steady_passes == 0, "variant %zu played %llu steady passes", i,
		      (unsigned long long)r.v[i].steady_passes);
		CHECK(isnan(r.v[i].ctr[CTR_INSTRUCTIONS]) &&
			      !strcmp(r.v[i].ctr_reason[CTR_INSTRUCTIONS], "disabled"),
		      "variant %zu: instructions %g (%s)", i, r.v[i].ctr[CTR_INSTRUCTIONS],
		      r.v[i].ctr_reason[CTR_INSTRUCTIONS]);
		CHECK(r.v[i].copies == r.rounds * r.batch, "variant %zu timed %llu copies", i,
		      (unsigned long long)r.v[i].copies);
	}
	cell_result_free(&r);
	if (!counted)
		printf("  (counters are unavailable here: the scrubbed cell's 'disabled' is the "
		       "check that it did not open them)\n");

	o.scrub_every = SCRUB_MIN_EVERY - 1;
	err[0] = '\0';
	CHECK(measure_cell(m, v, 2, &c, &o, &r, err, sizeof err) < 0 &&
		      strstr(err, "expected at least 256"),
	      "every 255 copies: accepted, or the message '%s' does not say why", err);
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
