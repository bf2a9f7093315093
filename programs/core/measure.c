/*
 * measure.c - measure_cell(): a cell's buffers, warm-up, plan and
 * interleaved rounds, and the least time that takes (measure.h).
 */
#include "measure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "batch.h"
#include "scrub.h"

/* Where the scrubber's checksums go, so that no run of it is dropped. */
static volatile uint64_t scrub_sink;

struct measure {
	struct mapping src, dst;   /* grown as cells need, reused between them */
};

struct measure *measure_new(void)
{
	timer_init();
	return calloc(1, sizeof(struct measure));
}

void measure_free(struct measure *m)
{
	if (!m)
		return;
	if (m->src.p)
		munmap(m->src.p, m->src.len);
	if (m->dst.p)
		munmap(m->dst.p, m->dst.len);
	free(m);
}

void cell_result_free(struct cell_result *r)
{
	if (r->v)
		for (size_t i = 0; i < r->nvariants; i++)
			free(r->v[i].ns);
	free(r->v);
	memset(r, 0, sizeof *r);
}

/* Bytes copied by `rounds` batches of k copies, round r starting at
 * r * k mod len as measure_cell() does. */
static double seq_bytes(const struct copy_seq *seq, size_t k, size_t rounds)
{
	size_t len = seq->len;
	double *prefix = malloc((len + 1) * sizeof *prefix);
	if (!prefix)
		return seq->mean_n * (double)k * (double)rounds;
	prefix[0] = 0;
	for (size_t i = 0; i < len; i++)
		prefix[i + 1] = prefix[i] + (double)seq->op[i].n;
	double total = 0;
	for (size_t r = 0; r < rounds; r++) {
		size_t j = (size_t)(((unsigned long long)r * k) % len);
		size_t left = k;
		total += (double)(left / len) * prefix[len];
		left %= len;
		if (j + left <= len) {
			total += prefix[j + left] - prefix[j];
		} else {
			total += prefix[len] - prefix[j];
			total += prefix[j + left - len];
		}
	}
	free(prefix);
	return total;
}

/* Shortest batch worth timing: the two stamps cost some tens of ns, which
 * should stay around 1% of it. */
#define MIN_BATCH_NS 2000.0
/* Longest batch: short enough that most batches see no timer interrupt
 * (250-1000 Hz) and the median is a clean one. */
#define MAX_BATCH_NS 1000000.0
/* A warm-up batch grows fourfold until it lasts this long. */
#define WARM_BATCH_NS 5000.0
/* ...and then, for a sequence of sizes, to one whole pass of it where a
 * pass takes at most this long.  A 5 us batch of a --dist sequence is its
 * first ~1000 copies, met for the first time: the branch predictor has not
 * learned them and they need not be the distribution's mix, and batches
 * planned on them came out a tenth as long as the same cell's after an
 * unlearnable one, mostly spent relearning (docs/bench.md, "Regimes";
 * docs/performance.md, "Code placement, the steady state and the page-end
 * tests"). */
#define WARM_PASS_NS 2000000.0
/* The most copies a warm-up batch grows to, either way. */
#define WARM_MAX_COPIES ((size_t)1 << 20)
/* The budget is planned for this many rounds when the batch limits allow:
 * enough for an interval (at 64 rounds the 95% one spans the 24th to the
 * 41st ratio), with batches as long as the budget allows. */
#define TARGET_ROUNDS 64
/* Each round's stack placement: one of STACK_SLOTS 16-byte steps over a
 * page, drawn from a fixed seed so that a rerun draws the same ones. */
#define STACK_STEP 16
#define STACK_SLOTS 256
#define STACK_SEED 0x5eed57ac
/* What a cell costs beyond its batches' floor: set-up and summary, and per
 * variant opening and closing its counters (five perf_event_open calls),
 * the warm-up's shorter batches and the counters' ioctls around each batch.
 * These keep measure_floor_seconds() just below the least a cell of 8-byte
 * copies was measured to take (docs/bench.md, "Where the measuring core's
 * numbers come from"), so that it stays a floor: a grid it refuses could not
 * have kept its budget. */
#define CELL_FIXED_NS 5000.0
#define VARIANT_FIXED_NS 12000.0

double measure_floor_seconds(size_t nv, unsigned min_rounds)
{
	if (min_rounds == 0)
		min_rounds = MEASURE_MIN_ROUNDS;
	double per_variant = VARIANT_FIXED_NS + 2 * WARM_BATCH_NS +
			     (double)min_rounds * MIN_BATCH_NS;
	return (CELL_FIXED_NS + (double)nv * per_variant) * 1e-9;
}

/* The most bytes a copy moves per nanosecond, with its data in a cache and
 * from memory: bounds no core reaches (64 bytes stored a cycle at 6 GHz is
 * 384; one core copies some 10-50 GB/s from DRAM), so that the floors below
 * stay floors on any machine. */
#define CACHE_BYTES_PER_NS 400.0
#define MEMORY_BYTES_PER_NS 100.0

/* The least time moving `bytes` takes when `footprint` bytes are in play. */
static double move_floor_ns(double bytes, size_t footprint)
{
	return bytes / (footprint > cache_llc() ? MEMORY_BYTES_PER_NS : CACHE_BYTES_PER_NS);
}

/* A cell whose smallest copy is `least` bytes, with `footprint` bytes in
 * play: a batch is at least one copy, the warm-up at least two batches. */
static double copies_floor_seconds(size_t least, size_t footprint, size_t nv,
				   unsigned min_rounds)
{
	if (min_rounds == 0)
		min_rounds = MEASURE_MIN_ROUNDS;
	double copy = move_floor_ns((double)least, footprint);
	double per_variant = VARIANT_FIXED_NS + 2 * fmax(WARM_BATCH_NS, copy) +
			     (double)min_rounds * fmax(MIN_BATCH_NS, copy);
	return (CELL_FIXED_NS + (double)nv * per_variant) * 1e-9;
}

double measure_cell_floor_seconds(const struct cell *c, size_t nv, unsigned min_rounds)
{
	const struct copy_seq *seq = c->seq;
	size_t least = seq->len ? SIZE_MAX : 0;
	for (size_t i = 0; i < seq->len; i++)
		if (seq->op[i].n < least)
			least = seq->op[i].n;
	size_t src, dst;
	cell_map_bytes(c, &src, &dst);
	return copies_floor_seconds(least, src + dst, nv, min_rounds);
}

double measure_size_floor_seconds(size_t n, size_t nv)
{
	return copies_floor_seconds(n, 2 * n, nv, 0) + measure_map_floor_seconds(2 * n);
}

double measure_map_floor_seconds(size_t bytes)
{
	return move_floor_ns((double)bytes, bytes) * 1e-9;
}

/* The copies in the warm-up's last batch for a sequence whose first k took
 * ns: all of it (up to WARM_MAX_COPIES) where that fits in WARM_PASS_NS, else as
 * many as do; k for a single copy repeated. */
static size_t warm_pass(const struct copy_seq *seq, size_t k, double ns)
{
	size_t len = seq->len < WARM_MAX_COPIES ? seq->len : WARM_MAX_COPIES;
	if (len <= k || !(ns > 0))
		return k;
	double fit = (double)k * WARM_PASS_NS / ns;
	return fit < (double)len ? (size_t)fit : len;
}

/* One warm-up batch of k copies from the sequence's start: the copies' time
 * in ns, and in *all the time with the flush before them. */
static double warm_batch(size_t slot, size_t place, const struct variant *v,
			 const struct cell *c, struct walk *ws, struct walk *wd, int flush,
			 size_t k, double *all)
{
	uint64_t t0 = timer_now();
	if (flush)
		flush_batch(c, *ws, *wd, 0, k);
	uint64_t copy = run_batch(slot, place, v, c->seq, ws, wd, 0, k);
	*all = timer_ns(timer_now() - t0);
	return timer_ns(copy);
}

/* Doubles every variant's sample array, up to max entries.
 * @return : 0, or -1 when out of memory (*cap is then unchanged, and every
 *           array still holds at least *cap). */
static int grow_samples(struct cell_result *out, size_t *cap, size_t max)
{
	size_t n = *cap * 2 < max ? *cap * 2 : max;
	for (size_t i = 0; i < out->nvariants; i++) {
		double *p = realloc(out->v[i].ns, n * sizeof *p);
		if (!p)
			return -1;
		out->v[i].ns = p;
	}
	*cap = n;
	return 0;
}

/* A cell being measured: where its copies walk, its budget, and each
 * variant's counters and warm-up estimate. */
struct cell_run {
	const struct variant *v;
	size_t nv;
	const struct cell *c;
	struct walk ws, wd;
	int flush;
	double seconds, start, deadline;
	size_t min_rounds, max_rounds;
	size_t cap;               /* samples each variant's array holds */
	struct counters *ctr;
	double *est;              /* ns per copy, from the warm-up */
	double sum, fast, slow;   /* the estimates' sum with the flush, least, most */
	size_t places;            /* loop placements its rounds go over (run_batch) */
	size_t scrub_every;       /* measure_opts' */
	double scrub_ns;          /* one run of the scrubber, from the warm-up */
	size_t *slot;             /* each variant's (batch_slots()) */
};

/* How many placements a cell's rounds go over: every one when all its copies
 * are of one size, else one.  A sequence of sizes is timed for how well a
 * predictor learns it (dist.h's repeated regime), and a predictor learns it
 * per placement: over four placements the repeated sequences were timed
 * unlearnt (docs/performance-zen5.md, "One call site per variant").  Where
 * code placement moves a sequence's time, `make bench-layouts` measures it
 * (docs/bench.md, "Code placement"). */
static size_t cell_places(const struct copy_seq *seq)
{
	for (size_t i = 1; i < seq->len; i++)
		if (seq->op[i].n != seq->op[0].n)
			return 1;
	return BATCH_PLACES;
}

/* Checks the cell and maps its buffers.
 * @return : 0, or -1 with err set. */
static int cell_prepare(struct measure *m, struct cell_run *run, char *err,
			size_t errlen)
{
	const struct cell *c = run->c;
	if (run->nv == 0 || !c->seq || c->seq->len == 0) {
		snprintf(err, errlen, "nothing to measure");
		return -1;
	}
	if (c->src.offset >= 4096 || c->dst.offset >= 4096) {
		snprintf(err, errlen, "offset %u is not within a page (expected 0..4095)",
			 c->src.offset >= 4096 ? c->src.offset : c->dst.offset);
		return -1;
	}
	size_t stride = cell_slot_stride(c->seq);
	struct mapping *ms = &m->src, *md = &m->dst;
	size_t need_s, need_d;
	cell_map_bytes(c, &need_s, &need_d);
	if (map_side(ms, need_s, err, errlen) < 0 || map_side(md, need_d, err, errlen) < 0)
		return -1;
	walk_setup(&run->ws, ms, &c->src, stride, c->sequential);
	walk_setup(&run->wd, md, &c->dst, stride, c->sequential);
	run->flush = c->src.flush || c->dst.flush;
	return 0;
}

/* Starts the cell's budget (everything from now on is the cell's) and sets
 * its rounds' limits. */
static void cell_budget_start(struct cell_run *run, const struct measure_opts *o)
{
	run->seconds = o->seconds > 0 ? o->seconds : 0;
	run->start = clock_seconds();
	run->deadline = run->start + run->seconds;
	run->max_rounds = o->max_rounds ? o->max_rounds : MEASURE_MAX_ROUNDS;
	run->min_rounds = o->min_rounds ? o->min_rounds : MEASURE_MIN_ROUNDS;
	if (run->min_rounds > run->max_rounds)
		run->min_rounds = run->max_rounds;
	run->cap = run->min_rounds > TARGET_ROUNDS ? run->min_rounds : TARGET_ROUNDS;
	if (run->cap > run->max_rounds)
		run->cap = run->max_rounds;
}

/* The result's arrays and the run's counters and estimates.
 * @return : 0, or -1 when out of memory (what was allocated is left for
 *           the caller to free). */
static int cell_alloc(struct cell_run *run, struct cell_result *out)
{
	size_t nv = run->nv;
	out->v = calloc(nv, sizeof *out->v);
	run->ctr = calloc(nv, sizeof *run->ctr);
	run->est = calloc(nv, sizeof *run->est);
	run->slot = calloc(nv, sizeof *run->slot);
	if (!out->v || !run->ctr || !run->est || !run->slot)
		return -1;
	batch_slots(run->v, nv, run->slot);
	out->nvariants = nv;
	for (size_t i = 0; i < nv; i++) {
		out->v[i].ns = malloc(run->cap * sizeof(double));
		if (!out->v[i].ns)
			return -1;
	}
	return 0;
}

/* Warm-up and estimate: also brings code, page tables and (hot) data into
 * place.  Batches grow until one is long enough to time.  The budget is
 * planned on what a copy costs with its flush (`sum`), the batch's limits
 * on the copy alone (`fast`, `slow`): flushing can cost far more than a
 * cold copy, and a plan on the copy alone overran its budget (docs/bench.md,
 * "Where the measuring core's numbers come from"). */
static void cell_warm_up(struct cell_run *run)
{
	const struct variant *v = run->v;
	const struct cell *c = run->c;
	double *est = run->est;
	double sum = 0, fast = 0, slow = 0;
	for (size_t i = 0; i < run->nv; i++) {
		size_t k = 1;
		for (;;) {
			double all, ns = warm_batch(run->slot[i], 0, &v[i], c, &run->ws,
						    &run->wd, run->flush, k, &all);
			if (ns >= WARM_BATCH_NS || k >= WARM_MAX_COPIES) {
				size_t pass = warm_pass(c->seq, k, ns);
				if (pass > k) {
					k = pass;
					ns = warm_batch(run->slot[i], 0, &v[i], c, &run->ws,
							&run->wd, run->flush, k, &all);
				}
				/* The batch that ends the warm-up is timed twice
				 * and the faster kept: one interrupt or first touch
				 * in it would otherwise make a fast variant look
				 * slow, and K too small for the timer (docs/bench.md,
				 * "Where the measuring core's numbers come from"). */
				double all2, ns2 = warm_batch(run->slot[i], 0, &v[i], c, &run->ws,
							      &run->wd, run->flush, k, &all2);
				if (ns2 < ns) {
					ns = ns2;
					all = all2;
				}
				est[i] = ns / (double)k;
				sum += all / (double)k;
				/* The other placements once each, untimed: else
				 * the first rounds at them would meet a cold
				 * loop. */
				for (size_t p = 1; p < run->places; p++)
					warm_batch(run->slot[i], p, &v[i], c, &run->ws, &run->wd,
						   run->flush, k, &all2);
				break;
			}
			k *= 4;
		}
		if (!(est[i] > 0))
			est[i] = 0.1;
		if (i == 0 || est[i] < fast)
			fast = est[i];
		if (est[i] > slow)
			slow = est[i];
	}
	if (!(sum > 0))
		sum = 0.1 * (double)run->nv;
	if (run->scrub_every) {
		/* The scrubber's time is the cell's too: the plan counts it.
		 * Run once untimed first: the first run in a process draws its
		 * table. */
		scrub_sink += scrub_run();
		uint64_t t0 = timer_now();
		scrub_sink += scrub_run();
		scrub_sink += scrub_run();
		run->scrub_ns = timer_ns(timer_now() - t0) / 2;
		sum += (double)run->nv * run->scrub_ns / (double)run->scrub_every;
	}
	run->sum = sum;
	run->fast = fast;
	run->slow = slow;
}

/* Opens each variant's counters, noting why any cannot count. */
static void cell_open_counters(struct cell_run *run, const struct measure_opts *o,
			       struct cell_result *out)
{
	for (size_t i = 0; i < run->nv; i++) {
		counters_open(&run->ctr[i], !o->counters || run->scrub_every, o->events);
		for (int e = 0; e < CTR_SLOTS; e++)
			out->v[i].ctr_reason[e] = counters_reason(&run->ctr[i], e);
	}
}

/* K, the copies in a batch: TARGET_ROUNDS rounds in what is left of the
 * budget; the slowest variant's batch under MAX_BATCH_NS; the fastest one's
 * over MIN_BATCH_NS, which wins when the two limits cross (variants more
 * than 500x apart): a sample the timer cannot resolve is worth less than
 * one an interrupt may hit. */
static size_t cell_plan_batch(const struct cell_run *run)
{
	double left_ns = (run->deadline - clock_seconds()) * 1e9;
	double kf = left_ns / TARGET_ROUNDS / run->sum;
	if (kf * run->slow > MAX_BATCH_NS)
		kf = MAX_BATCH_NS / run->slow;
	if (!(kf * run->fast >= MIN_BATCH_NS))
		kf = MIN_BATCH_NS / run->fast;
	if (!(kf <= (double)((size_t)1 << 24)))
		kf = (double)((size_t)1 << 24);
	return kf < 1 ? 1 : (size_t)kf;
}

size_t round_order_rows(size_t nv)
{
	return nv % 2 ? 2 * nv : nv;
}

size_t round_order_at(size_t row, size_t x, size_t nv)
{
	row %= round_order_rows(nv);
	if (row >= nv) {
		/* Backwards through the reversed rows: then no row ends with
		 * the variant the next one starts with (for three variants,
		 * forwards, two of the six changes of order did). */
		row = (2 * nv - row) % nv;
		x = nv - 1 - x;
	}
	size_t w = x == 0 ? 0 : x % 2 ? (x + 1) / 2 : nv - x / 2;
	return (w + row) % nv;
}

/* In a cell whose sequence a predictor learns, before each of its timed
 * batches a variant plays the sequence untimed, a pass at a time from where
 * the batch starts, until it is at its steady state: until STEADY_FLAT
 * passes in a row gain less than STEADY_GAIN on the fastest pass so far.
 * What ran before (the other variants' batches) then no longer moves its
 * time (docs/bench.md, "Steady state").  Bounds: STEADY_MAX_PASSES passes,
 * and no pass that would take the passes past STEADY_MAX_NS; none at all
 * where one pass takes longer than WARM_PASS_NS (a sequence that long is
 * timed as the warm-up times it, not learnt), nor where it takes less than
 * MIN_BATCH_NS (a batch is then many passes).  *capped counts the batches
 * a bound, not the rule, ended.
 * @return : the passes played. */
#define STEADY_GAIN 0.01
#define STEADY_FLAT 2
#define STEADY_MAX_PASSES 32
#define STEADY_MAX_NS (16 * MAX_BATCH_NS)
static size_t steady_state(struct cell_run *run, size_t i, size_t shift, size_t place,
			   size_t j, uint64_t *capped)
{
	const struct copy_seq *seq = run->c->seq;
	double best = INFINITY, spent = 0, pass = run->est[i] * (double)seq->len;
	size_t p, flat = 0;
	if (pass > WARM_PASS_NS) {
		++*capped;
		return 0;
	}
	if (pass < MIN_BATCH_NS)
		return 0;   /* the batch is many passes: its own first ones are it */
	for (p = 0; p < STEADY_MAX_PASSES && flat < STEADY_FLAT; p++) {
		if (spent + (p ? best : pass) > STEADY_MAX_NS)
			break;
		double ns = timer_ns(run_batch_shifted(shift, run->slot[i], place, &run->v[i], seq,
						       &run->ws, &run->wd, j, seq->len));
		spent += ns;
		if (ns < best * (1 - STEADY_GAIN)) {
			best = ns;
			flat = 0;
		} else {
			flat++;
		}
	}
	*capped += flat < STEADY_FLAT;
	return p;
}

/* Variant i's batch of k copies from j under the company condition: timed
 * in stretches of run->scrub_every copies, the scrubber after each (and so
 * before the next stretch and the next batch), untimed.
 * @return : the stretches' ticks. */
static uint64_t scrubbed_batch(struct cell_run *run, size_t i, size_t shift, size_t place,
			       size_t j, size_t k, uint64_t *scrubs)
{
	const struct copy_seq *seq = run->c->seq;
	uint64_t ticks = 0;
	for (size_t done = 0; done < k;) {
		size_t n = k - done < run->scrub_every ? k - done : run->scrub_every;
		ticks += run_batch_shifted(shift, run->slot[i], place, &run->v[i], seq, &run->ws,
					   &run->wd, (j + done) % seq->len, n);
		done += n;
		scrub_sink += scrub_run();
		++*scrubs;
	}
	return ticks;
}

/* Rounds of k copies until the budget is spent: stop when one more round
 * would end further past the deadline than stopping now ends before it.
 * @return : the rounds timed. */
static size_t cell_rounds(struct cell_run *run, const struct measure_opts *o,
			  size_t k, struct cell_result *out)
{
	const struct copy_seq *seq = run->c->seq;
	size_t nv = run->nv;
	double round_start = clock_seconds();
	size_t r;
	struct rng placement;
	rng_seed(&placement, STACK_SEED);
	/* A sequence of sizes shorter than an unlearnable one is one a
	 * predictor may learn (dist.h), and what it learnt wears off while
	 * the others run: with the order moving, a variant's time followed how
	 * many batches of the others came since its own last one.  So such a
	 * cell keeps one order: every variant has the same nv - 1 batches of
	 * others between two of its own (docs/bench.md, "The orders"), and
	 * each batch starts from the variant's steady state (steady_state()).
	 * The length decides, not the batch, which the budget and the speeds
	 * set. */
	int one_order = run->places == 1 && seq->len < DIST_SEQ_UNLEARNABLE;
	for (r = 0; r < run->max_rounds; r++) {
		if (r == run->cap && grow_samples(out, &run->cap, run->max_rounds) < 0)
			break;
		size_t j = (size_t)(((unsigned long long)r * k) % seq->len);
		size_t shift = STACK_STEP * (size_t)rng_below(&placement, STACK_SLOTS);
		for (size_t x = 0; x < nv; x++) {
			/* Else the order moves on every `places` rounds, so
			 * that no placement goes with one order. */
			size_t i = one_order ? x : round_order_at(r / run->places, x, nv);
			struct variant_result *vr = &out->v[i];
			if (one_order && !run->scrub_every)
				vr->steady_passes += steady_state(run, i, shift, r % run->places, j,
								  &vr->steady_capped);
			if (run->flush)
				flush_batch(run->c, run->ws, run->wd, j, k);
			counters_start(&run->ctr[i]);
			uint64_t ticks = 0;
			if (run->scrub_every)
				ticks = scrubbed_batch(run, i, shift, r % run->places, j, k,
						       &vr->scrubs);
			else
				ticks = run_batch_shifted(shift, run->slot[i], r % run->places,
							  &run->v[i], seq, &run->ws, &run->wd, j, k);
			counters_stop(&run->ctr[i]);
			double ns = timer_ns(ticks);
			vr->ns[r] = ns / (double)k;
			vr->ns_total += ns;
			vr->copies += k;
		}
		double now = clock_seconds();
		if (o->progress)
			o->progress(o->progress_ctx,
				    run->seconds > 0 ? fmin(1.0, (now - run->start) / run->seconds)
						     : 1.0);
		if (r + 1 >= run->min_rounds && now + 0.5 * (now - round_start) >= run->deadline) {
			r++;
			break;
		}
		round_start = now;
	}
	return r;
}

/* Each variant's bytes and counter totals; closes the counters. */
static void cell_collect(struct cell_run *run, struct cell_result *out)
{
	double bytes = seq_bytes(run->c->seq, out->batch, out->rounds);
	for (size_t i = 0; i < run->nv; i++) {
		struct counters *ctr = &run->ctr[i];
		out->v[i].bytes = bytes;
		for (int e = 0; e < CTR_SLOTS; e++) {
			out->v[i].ctr[e] = counters_total(ctr, e);
			/* A counter that opened may still not have counted. */
			if (isnan(out->v[i].ctr[e]))
				out->v[i].ctr_reason[e] = counters_reason(ctr, e);
		}
		counters_close(ctr);
	}
}

int measure_cell(struct measure *m, const struct variant *v, size_t nv,
		 const struct cell *c, const struct measure_opts *o,
		 struct cell_result *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	struct cell_run run = { .v = v, .nv = nv, .c = c };
	if (cell_prepare(m, &run, err, errlen) < 0)
		return -1;
	if (o->scrub_every && o->scrub_every < SCRUB_MIN_EVERY) {
		snprintf(err, errlen, "the scrubber every %zu copies: expected at least %d",
			 o->scrub_every, SCRUB_MIN_EVERY);
		return -1;
	}
	run.scrub_every = o->scrub_every;
	run.places = cell_places(c->seq);
	cell_budget_start(&run, o);
	int rc = cell_alloc(&run, out);
	if (rc == 0) {
		cell_warm_up(&run);
		cell_open_counters(&run, o, out);
		out->batch = cell_plan_batch(&run);
		out->rounds = cell_rounds(&run, o, out->batch, out);
		cell_collect(&run, out);
	}
	free(run.ctr);
	free(run.est);
	free(run.slot);
	if (rc < 0) {
		cell_result_free(out);
		snprintf(err, errlen, "out of memory");
	}
	return rc;
}
