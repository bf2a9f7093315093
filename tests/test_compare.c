/*
 * test_compare.c - the verdict of `ucopy compare` on synthetic timings with a
 * known difference and with none, and the workloads' sequences and buffers.
 *
 * Synthetic rounds look like the real ones: a drift both variants of a round
 * share (frequency, a neighbour), noise of their own, and now and then a
 * batch ruined by an interrupt or preemption.  Seeds are fixed and printed.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "verdict.h"
#include "measure.h"
#include "workload.h"

/*=====   Synthetic rounds   =====*/

/* Approximately normal from the sum of uniforms: enough for noise. */
static double gauss(struct rng *r)
{
	double s = 0;
	for (int i = 0; i < 12; i++)
		s += rng_unit(r);
	return s - 6;
}

/* n paired rounds: A at 100 ns, B at 100 * ratio, each scaled by the round's
 * drift, by its own noise (sd `noise`), and spoiled with probability 5%. */
static void synth(double *a, double *b, size_t n, double ratio, double noise,
		  uint64_t seed)
{
	struct rng r;
	rng_seed(&r, seed);
	double drift = 1;
	for (size_t i = 0; i < n; i++) {
		drift *= 1 + 0.005 * gauss(&r);
		if (drift < 0.8 || drift > 1.25)
			drift = 1;
		a[i] = 100 * drift * (1 + noise * gauss(&r));
		b[i] = 100 * ratio * drift * (1 + noise * gauss(&r));
		if (rng_unit(&r) < 0.05)
			a[i] *= 2 + 8 * rng_unit(&r);
		if (rng_unit(&r) < 0.05)
			b[i] *= 2 + 8 * rng_unit(&r);
	}
}

#define N 400
#define SEEDS 200
#define NOISY_SEEDS 2000

static void test_identical(void)
{
	static double a[N], b[N];
	unsigned count[6] = { 0 };
	for (uint64_t seed = 1; seed <= SEEDS; seed++) {
		struct stats_interval q;
		struct verdict v;
		synth(a, b, N, 1.0, 0.03, seed);
		compare_samples(a, b, N, COMPARE_MARGIN, &q, &v);
		count[v.kind]++;
		CHECK(v.kind != VERDICT_REGRESSION && v.kind != VERDICT_IMPROVEMENT,
		      "seed %llu: identical inputs called %s: %s",
		      (unsigned long long)seed, verdict_name(v.kind), v.text);
	}
	/* With 3% noise and 400 rounds the interval is well inside ±1.5%: the
	 * test must say so, not merely avoid a false alarm. */
	CHECK(count[VERDICT_EQUIVALENT] >= SEEDS * 95 / 100,
	      "only %u of %d identical pairs found equivalent (%u slower, %u faster, "
	      "%u inconclusive)", count[VERDICT_EQUIVALENT], SEEDS,
	      count[VERDICT_SLOWER], count[VERDICT_FASTER], count[VERDICT_INCONCLUSIVE]);
	/* Identical, but very noisy and as few rounds as the command allows:
	 * the interval is wider than the margin, so the margin no longer
	 * shields it and the level does.  Mostly "inconclusive"; a directional
	 * claim about as often as the interval errs on that side: with 20
	 * rounds it is order statistics 6 and 15, each missing with probability
	 * P(Bin(20, 1/2) <= 5) = 2.07%.  Over 2000 seeds that is 41 +- 6 a
	 * side; 60 (3%) would mean the interval does not hold its level. */
	unsigned inconclusive = 0, up = 0, down = 0;
	for (uint64_t seed = 1; seed <= NOISY_SEEDS; seed++) {
		struct stats_interval q;
		struct verdict v;
		synth(a, b, 20, 1.0, 0.15, seed);
		compare_samples(a, b, 20, COMPARE_MARGIN, &q, &v);
		inconclusive += v.kind == VERDICT_INCONCLUSIVE;
		up += v.kind == VERDICT_REGRESSION || v.kind == VERDICT_SLOWER;
		down += v.kind == VERDICT_IMPROVEMENT || v.kind == VERDICT_FASTER;
	}
	CHECK(up <= NOISY_SEEDS * 3 / 100 && down <= NOISY_SEEDS * 3 / 100,
	      "noisy identical inputs: %u slower, %u faster of %d (more than 3%%)",
	      up, down, NOISY_SEEDS);
	CHECK(inconclusive >= NOISY_SEEDS * 90 / 100,
	      "noisy identical inputs: only %u of %d inconclusive", inconclusive,
	      NOISY_SEEDS);
	printf("  20 noisy rounds, seeds 1..%d: %u inconclusive, %u slower, %u faster\n",
	       NOISY_SEEDS, inconclusive, up, down);
	printf("  identical inputs, seeds 1..%d: %u equivalent, %u slower, %u faster, "
	       "%u inconclusive\n", SEEDS, count[VERDICT_EQUIVALENT],
	       count[VERDICT_SLOWER], count[VERDICT_FASTER], count[VERDICT_INCONCLUSIVE]);
	check_group("compare: no false regression on identical inputs");
}

static void test_known_difference(void)
{
	static double a[N], b[N];
	static const struct {
		double ratio;
		enum verdict_kind want;
		const char *tail;
	} cases[] = {
		{ 1.10, VERDICT_REGRESSION, "slower than A (regression)" },
		{ 1.431, VERDICT_REGRESSION, "slower than A (regression)" },
		{ 0.88, VERDICT_IMPROVEMENT, "faster than A (improvement)" },
		{ 1.005, VERDICT_EQUIVALENT, "no significant difference (within ±1.5%)" },
	};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		unsigned covered = 0;
		for (uint64_t seed = 1; seed <= 50; seed++) {
			struct stats_interval q;
			struct verdict v;
			/* 1% noise: the 0.5% case must be resolvable as within the
			 * margin, the others as beyond it. */
			synth(a, b, N, cases[c].ratio, 0.01, seed);
			compare_samples(a, b, N, COMPARE_MARGIN, &q, &v);
			CHECK(v.kind == cases[c].want, "ratio %.3f seed %llu: %s (%s)",
			      cases[c].ratio, (unsigned long long)seed,
			      verdict_name(v.kind), v.text);
			size_t tl = strlen(cases[c].tail), vl = strlen(v.text);
			CHECK(vl >= tl && !strcmp(v.text + vl - tl, cases[c].tail),
			      "ratio %.3f: text '%s'", cases[c].ratio, v.text);
			CHECK(fabs(q.est / cases[c].ratio - 1) < 0.01,
			      "ratio %.3f seed %llu: estimate %.4f", cases[c].ratio,
			      (unsigned long long)seed, q.est);
			covered += q.lo <= cases[c].ratio && cases[c].ratio <= q.hi;
		}
		CHECK(covered >= 44, "ratio %.3f: the 95%% interval covered it in %u of 50",
		      cases[c].ratio, covered);
	}
	check_group("compare: known differences found, sized and worded");
}

/* The wording and every branch, on intervals given directly. */
static void test_verdict_text(void)
{
	static const struct {
		struct stats_interval q;
		double margin;
		enum verdict_kind kind;
		const char *text;
	} cases[] = {
		{ { 1.431, 1.425, 1.437 }, 0.015, VERDICT_REGRESSION,
		  "B is 43.1% slower than A (regression)" },
		{ { 0.880, 0.874, 0.886 }, 0.015, VERDICT_IMPROVEMENT,
		  "B is 12.0% faster than A (improvement)" },
		{ { 1.002, 0.990, 1.010 }, 0.015, VERDICT_EQUIVALENT,
		  "no significant difference (within ±1.5%)" },
		/* significant but small: real, and still not a regression */
		{ { 1.010, 1.004, 1.018 }, 0.015, VERDICT_SLOWER,
		  "B is 1.0% slower than A (significant, but within the ±1.5% margin)" },
		{ { 0.990, 0.982, 0.996 }, 0.015, VERDICT_FASTER,
		  "B is 1.0% faster than A (significant, but within the ±1.5% margin)" },
		/* inside the margin and excluding 1: the margin decides */
		{ { 1.006, 1.004, 1.008 }, 0.015, VERDICT_EQUIVALENT,
		  "no significant difference (within ±1.5%)" },
		{ { 1.020, 0.990, 1.050 }, 0.015, VERDICT_INCONCLUSIVE, NULL },
		{ { 1.020, 1.001, 1.040 }, 0.015, VERDICT_SLOWER,
		  "B is 2.0% slower than A (significant, but perhaps within the ±1.5% margin)" },
		{ { 1.020, 1.016, 1.025 }, 0.015, VERDICT_REGRESSION,
		  "B is 2.0% slower than A (regression)" },
		{ { 1.020, 0.990, 1.040 }, 0.05, VERDICT_EQUIVALENT,
		  "no significant difference (within ±5%)" },
		{ { NAN, NAN, NAN }, 0.015, VERDICT_INCONCLUSIVE, NULL },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct verdict v;
		compare_verdict(&cases[i].q, cases[i].margin, &v);
		CHECK(v.kind == cases[i].kind, "case %zu: %s, expected %s", i,
		      verdict_name(v.kind), verdict_name(cases[i].kind));
		if (cases[i].text)
			CHECK(!strcmp(v.text, cases[i].text), "case %zu: '%s'", i, v.text);
		CHECK(v.text[0], "case %zu: no text", i);
	}
	struct stats_interval q;
	struct verdict v;
	double one = 1;
	CHECK(compare_samples(&one, &one, 0, 0.015, &q, &v) < 0 &&
	      v.kind == VERDICT_INCONCLUSIVE, "no samples: %s", verdict_name(v.kind));
	check_group("compare: verdict branches and wording");
}

/*=====   Workloads   =====*/

static int setup(struct workload *w, const char *name, const char *dist,
		 const char *sizes, const char *cache, char *err, size_t errlen)
{
	struct workload_opts o = { .name = name, .dist_path = dist, .sizes = sizes,
				   .cache = cache, .seed = 42 };
	return workload_setup(w, &o, err, errlen);
}

/* A variant that records where each copy went instead of copying. */
struct rec {
	size_t n, cap;
	const char **src;
	char **dst;
	size_t *len;
};

static void record(void *ctx, void *dst, const void *src, size_t n)
{
	struct rec *r = ctx;
	if (r->n < r->cap) {
		r->src[r->n] = src;
		r->dst[r->n] = dst;
		r->len[r->n] = n;
	}
	r->n++;
}

static int run_recorded(struct workload *w, struct rec *r)
{
	r->cap = (size_t)1 << 20;
	r->n = 0;
	r->src = malloc(r->cap * sizeof *r->src);
	r->dst = malloc(r->cap * sizeof *r->dst);
	r->len = malloc(r->cap * sizeof *r->len);
	struct variant v;
	variant_call(&v, "record", record, r);
	struct measure *m = measure_new();
	struct measure_opts o = { .seconds = 0.02, .min_rounds = 5, .max_rounds = 50 };
	struct cell_result res;
	char err[256];
	int rc = !r->src || !r->dst || !r->len || !m ||
		 measure_cell(m, &v, 1, &w->cell, &o, &res, err, sizeof err) < 0;
	if (!rc)
		cell_result_free(&res);
	measure_free(m);
	if (r->n > r->cap)
		r->n = r->cap;
	return rc ? -1 : 0;
}

static void rec_free(struct rec *r)
{
	free(r->src);
	free(r->dst);
	free(r->len);
}

static void test_tcp(void)
{
	struct workload w;
	char err[256];
	CHECK(setup(&w, "tcp-sendmsg", NULL, NULL, NULL, err, sizeof err) == 0, "%s", err);
	size_t l2 = ucopy_cpu()->l2, chunk = (size_t)32 << 10;
	CHECK(w.seq.len == 1 && w.seq.op[0].n == chunk, "sizes: %zu x %zu", w.seq.len,
	      w.seq.op[0].n);
	CHECK(w.cell.src.region == (size_t)32 << 20, "user buffer %zu", w.cell.src.region);
	size_t ring = w.cell.dst.region;
	CHECK(ring > l2 && ring >= (size_t)4 << 20 && ring % chunk == 0,
	      "ring %zu (L2 %zu)", ring, l2);
	CHECK(w.cell.sequential && !w.cell.src.flush && !w.cell.dst.flush,
	      "both sides stream in order");
	CHECK(w.unit_copies == 1024, "a 32 MiB payload is 1024 copies, not %zu",
	      w.unit_copies);

	/* What measure_cell() actually does with it: 32 KiB copies, the
	 * source stepping through 32 MiB in order, the destination round a
	 * ring of 32 KiB pages. */
	struct rec r;
	if (run_recorded(&w, &r) < 0) {
		CHECK(0, "measuring the recorder failed");
	} else {
		CHECK(r.n > 100, "only %zu copies", r.n);
		size_t bad_len = 0, bad_src = 0, bad_dst = 0;
		const char *s0 = r.src[0];
		char *d0 = r.dst[0];
		for (size_t i = 0; i < r.n; i++) {
			bad_len += r.len[i] != chunk;
			/* slot index advances by one each copy, wrapping */
			size_t si = (size_t)(r.src[i] - s0) / chunk % 1024;
			size_t di = (size_t)(r.dst[i] - d0) / chunk % (ring / chunk);
			bad_src += (r.src[i] - s0) % (long)chunk != 0 || si != i % 1024 ||
				   r.src[i] < s0 || r.src[i] >= s0 + ((size_t)32 << 20);
			bad_dst += (r.dst[i] - d0) % (long)chunk != 0 ||
				   di != i % (ring / chunk) || r.dst[i] < d0 ||
				   r.dst[i] >= d0 + ring;
		}
		CHECK(!bad_len && !bad_src && !bad_dst,
		      "%zu copies: %zu bad sizes, %zu out-of-order sources, %zu "
		      "out-of-order destinations", r.n, bad_len, bad_src, bad_dst);
	}
	rec_free(&r);
	workload_free(&w);
	check_group("workload tcp-sendmsg: 32 KiB copies, 32 MiB source, ring > L2");
}

/* A variant that notes where its frame lies, once per call. */
struct frames {
	size_t n;
	uintptr_t at[4096];
};

static void note_frame(void *ctx, void *dst, const void *src, size_t n)
{
	struct frames *f = ctx;
	(void)dst, (void)src, (void)n;
	uintptr_t here = (uintptr_t)__builtin_frame_address(0);
	if (f->n < sizeof f->at / sizeof f->at[0] && (!f->n || f->at[f->n - 1] != here))
		f->at[f->n++] = here;
}

static int has_frame(const struct frames *f, uintptr_t a)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->at[i] == a)
			return 1;
	return 0;
}

/* measure_cell moves the stack from round to round (where it lies in its
 * page decides what 4K-aliases with the copies), by the same amount for
 * every variant of a round, so that paired ratios stay paired. */
static void test_stack_placement(void)
{
	static struct frames fa, fb;
	struct variant v[2];
	variant_call(&v[0], "a", note_frame, &fa);
	variant_call(&v[1], "b", note_frame, &fb);
	struct copy_seq seq;
	struct cell c;
	CHECK(copy_seq_fixed(&seq, 64, 0, 0) == 0, "copy_seq_fixed");
	CHECK(cell_init(&c, &seq, CACHE_HOT, 0, 2048) == 0, "cell_init");
	struct measure *m = measure_new();
	struct measure_opts o = { .seconds = 0.05, .min_rounds = 40, .max_rounds = 40 };
	struct cell_result res;
	char err[256];
	int rc = !m || measure_cell(m, v, 2, &c, &o, &res, err, sizeof err) < 0;
	CHECK(!rc, "measuring: %s", rc ? err : "");
	if (!rc) {
		CHECK(res.rounds == 40, "%zu rounds", res.rounds);
		cell_result_free(&res);
	}
	measure_free(m);
	copy_seq_free(&seq);
	/* Counted as distinct frame addresses: consecutive rounds may draw the
	 * same place, so more than half of 40 draws from 256 is enough. */
	size_t distinct = 0, only_a = 0, only_b = 0;
	for (size_t i = 0; i < fa.n; i++) {
		int seen = 0;
		for (size_t j = 0; j < i && !seen; j++)
			seen = fa.at[j] == fa.at[i];
		distinct += !seen;
		only_a += !has_frame(&fb, fa.at[i]);
	}
	for (size_t i = 0; i < fb.n; i++)
		only_b += !has_frame(&fa, fb.at[i]);
	CHECK(distinct >= 20, "the stack took only %zu places in 40 rounds", distinct);
	CHECK(!only_a && !only_b,
	      "the variants saw different places: %zu only by a, %zu only by b", only_a,
	      only_b);
	check_group("measure_cell: the stack moves between rounds, the same for each variant");
}

/* A variant that notes each call site it is called from, once. */
static void note_site(void *ctx, void *dst, const void *src, size_t n)
{
	struct frames *f = ctx;
	(void)dst, (void)src, (void)n;
	uintptr_t at = (uintptr_t)__builtin_return_address(0);
	if (f->n < sizeof f->at / sizeof f->at[0] && !has_frame(f, at))
		f->at[f->n++] = at;
}

/* One cell of the nv variants v over `rounds` rounds. */
static void time_sites(const struct copy_seq *seq, struct variant *v, size_t nv,
		       unsigned rounds)
{
	struct cell c;
	CHECK(cell_init(&c, seq, CACHE_HOT, 0, 2048) == 0, "cell_init");
	struct measure *m = measure_new();
	struct measure_opts o = { .seconds = 0.05, .min_rounds = rounds, .max_rounds = rounds };
	struct cell_result res;
	char err[256];
	int rc = !m || measure_cell(m, v, nv, &c, &o, &res, err, sizeof err) < 0;
	CHECK(!rc, "measuring: %s", rc ? err : "");
	if (!rc)
		cell_result_free(&res);
	measure_free(m);
}

/* The call sites of two variants of one cell over `rounds` rounds, a
 * before b or (swap) b before a. */
static void sites_of(const struct copy_seq *seq, unsigned rounds, int swap,
		     struct frames *fa, struct frames *fb)
{
	struct variant v[2];
	memset(fa, 0, sizeof *fa);
	memset(fb, 0, sizeof *fb);
	variant_call(&v[swap], "a", note_site, fa);
	variant_call(&v[!swap], "b", note_site, fb);
	time_sites(seq, v, 2, rounds);
}

/* Past the slots: once every one is owned, a new function takes the slot
 * used longest ago, but never the one of a function in its own cell, even
 * listed after it (by the variant's index it took the site of the function
 * beside it). */
static void test_call_sites_past_slots(void)
{
	enum { SLOTS = 16 };
	static struct frames f[SLOTS + 1];
	struct variant v[2];
	struct copy_seq seq;
	char name[16];
	CHECK(copy_seq_fixed(&seq, 64, 0, 0) == 0, "copy_seq_fixed");
	for (size_t i = 0; i < SLOTS; i++) {
		snprintf(name, sizeof name, "f%zu", i);
		variant_call(&v[0], name, note_site, &f[i]);
		time_sites(&seq, v, 1, 8);
	}
	/* f0's slot is now the one used longest ago, but f0 is in the cell. */
	size_t before = f[0].n;
	variant_call(&v[0], "new", note_site, &f[SLOTS]);
	variant_call(&v[1], "f0", note_site, &f[0]);
	time_sites(&seq, v, 2, 8);
	copy_seq_free(&seq);
	size_t shared = 0;
	for (size_t i = 0; i < f[SLOTS].n; i++)
		shared += has_frame(&f[0], f[SLOTS].at[i]);
	CHECK(f[SLOTS].n > 0 && !shared,
	      "past %d functions, a new one shares %zu of its %zu sites with its cell's other",
	      SLOTS, shared, f[SLOTS].n);
	CHECK(f[0].n == before, "f0 moved: %zu sites, %zu before", f[0].n, before);
	check_group("measure_cell: past the slots, the one used longest ago");
}

/* The round orders, a Williams design: over round_order_rows(nv) rows each
 * row is a permutation, each variant takes each position equally often, and
 * each ordered pair of variants is adjacent equally often (once a cycle for
 * an even count, twice for an odd one); from three variants on, no row
 * starts with the variant the row before ends with.  Counts up to 16, and
 * bar 3's 228 (and 229). */
static void test_round_order(void)
{
	enum { MAXV = 229 };
	static unsigned pos[MAXV][MAXV], pair[MAXV][MAXV];
	static const size_t counts[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
					 228, 229 };
	for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
		size_t nv = counts[c], rows = round_order_rows(nv);
		memset(pos, 0, sizeof pos);
		memset(pair, 0, sizeof pair);
		int perm = 1, wraps = 1, repeats = 0;
		for (size_t r = 0; r < rows; r++) {
			unsigned char seen[MAXV] = { 0 };
			for (size_t x = 0; x < nv; x++) {
				size_t i = round_order_at(r, x, nv);
				if (i >= nv) {
					perm = 0;
					break;
				}
				seen[i]++;
				pos[i][x]++;
				if (x)
					pair[round_order_at(r, x - 1, nv)][i]++;
				wraps &= round_order_at(r + rows, x, nv) == i;
			}
			for (size_t i = 0; i < nv; i++)
				perm &= seen[i] == 1;
			repeats += round_order_at(r, nv - 1, nv) == round_order_at(r + 1, 0, nv);
		}
		CHECK(perm, "%zu variants: a row is not a permutation", nv);
		CHECK(wraps, "%zu variants: row r + %zu is not row r", nv, rows);
		unsigned bad_pos = 0, bad_pair = 0, want = nv % 2 ? 2 : 1;
		for (size_t i = 0; i < nv; i++)
			for (size_t j = 0; j < nv; j++) {
				bad_pos += pos[i][j] != rows / nv;
				bad_pair += i != j && pair[i][j] != want;
			}
		CHECK(!bad_pos, "%zu variants: %u variant/position counts differ from %zu", nv,
		      bad_pos, rows / nv);
		CHECK(!bad_pair, "%zu variants: %u ordered pairs not adjacent %u times", nv,
		      bad_pair, want);
		CHECK(nv < 3 || !repeats, "%zu variants: %d rows start with the last one's last",
		      nv, repeats);
	}
	check_group("round orders: every position and every neighbour equally often");
}

/* A variant that logs its id when it differs from the last one logged: the
 * log is the order of the batches. */
static struct {
	unsigned char id[4096];
	size_t n;
} order_log;

static void note_order(void *ctx, void *dst, const void *src, size_t n)
{
	unsigned char id = (unsigned char)(uintptr_t)ctx;
	(void)dst, (void)src, (void)n;
	if (order_log.n < sizeof order_log.id &&
	    (!order_log.n || order_log.id[order_log.n - 1] != id))
		order_log.id[order_log.n++] = id;
}

/* Times nv (up to 4) variants fn, each noting its id, over `rounds` rounds
 * of seq: order_log holds the order of their batches. */
static void log_orders(const struct copy_seq *seq, size_t nv, unsigned rounds,
		       void (*fn)(void *, void *, const void *, size_t))
{
	struct variant v[4];
	static const char *const names[4] = { "a", "b", "c", "d" };
	for (uintptr_t i = 0; i < nv; i++)
		variant_call(&v[i], names[i], fn, (void *)i);
	order_log.n = 0;
	time_sites(seq, v, nv, rounds);
}

/* measure_cell runs the rounds in those orders: over 48 rounds of three
 * variants each one comes right after each other one about as often.  In
 * rotated order only (A B C, B C A, ...), B came right after A in nearly
 * every round and A after B only where the order changed. */
static void test_round_neighbours(void)
{
	struct copy_seq seq;
	CHECK(copy_seq_fixed(&seq, 64, 0, 0) == 0, "copy_seq_fixed");
	log_orders(&seq, 3, 48, note_order);
	copy_seq_free(&seq);
	unsigned pair[3][3] = { { 0 } }, lo = ~0u, hi = 0;
	for (size_t k = 1; k < order_log.n; k++)
		pair[order_log.id[k - 1]][order_log.id[k]]++;
	for (size_t i = 0; i < 3; i++)
		for (size_t j = 0; j < 3; j++)
			if (i != j) {
				lo = pair[i][j] < lo ? pair[i][j] : lo;
				hi = pair[i][j] > hi ? pair[i][j] : hi;
			}
	/* Every one of the 144 timed batches, none of them merged with the
	 * one before: three variants never follow themselves. */
	CHECK(order_log.n >= 3 * 48, "%zu batches logged", order_log.n);
	CHECK(lo * 10 >= hi * 7,
	      "neighbours unbalanced: a ordered pair came %u times, another %u "
	      "(ab %u ba %u, bc %u cb %u, ca %u ac %u)",
	      lo, hi, pair[0][1], pair[1][0], pair[1][2], pair[2][1], pair[2][0], pair[0][2]);
	check_group("measure_cell: each variant follows each other one about as often");
}

/* note_order, slowly: about a microsecond a call, so that a batch stays
 * under a few thousand calls (MAX_BATCH_NS). */
static void note_order_slow(void *ctx, void *dst, const void *src, size_t n)
{
	for (volatile unsigned spin = 0; spin < 1000; spin++)
		;
	note_order(ctx, dst, src, n);
}

/* The transitions in the order log of four variants (fn) over `rounds`
 * rounds of seq that do not go to the next variant in list order. */
static size_t off_list_order(const struct copy_seq *seq, unsigned rounds,
			     void (*fn)(void *, void *, const void *, size_t))
{
	log_orders(seq, 4, rounds, fn);
	size_t off = 0;
	for (size_t k = 1; k < order_log.n; k++)
		off += order_log.id[k] != (order_log.id[k - 1] + 1) % 4;
	CHECK(order_log.n >= 4 * rounds, "%zu batches logged", order_log.n);
	return off;
}

/* A sequence of sizes a predictor may learn, shorter than an unlearnable
 * one, keeps one order, however many copies a batch has: the log goes a, b,
 * c, d, a... throughout, so every variant has the three others between two
 * batches of its own (four variants: the balanced orders' first is a, b,
 * d, c).  The slow variants keep a batch shorter than the 8192-copy
 * sequence.  An unlearnable one goes through the balanced orders. */
static void test_round_one_order(void)
{
	static size_t sizes[DIST_SEQ_UNLEARNABLE];
	for (size_t i = 0; i < DIST_SEQ_UNLEARNABLE; i++)
		sizes[i] = i % 2 ? 32 : 64;
	struct copy_seq seq;
	CHECK(copy_seq_sizes(&seq, sizes, DIST_SEQ_REPEAT_DEFAULT) == 0, "copy_seq_sizes");
	size_t off = off_list_order(&seq, 24, note_order_slow);
	copy_seq_free(&seq);
	CHECK(!off, "a %zu-copy sequence: %zu batches did not follow the one before in list order",
	      (size_t)DIST_SEQ_REPEAT_DEFAULT, off);
	CHECK(copy_seq_sizes(&seq, sizes, DIST_SEQ_UNLEARNABLE) == 0, "copy_seq_sizes");
	off = off_list_order(&seq, 24, note_order);
	copy_seq_free(&seq);
	CHECK(off >= 24, "a %zu-copy sequence: only %zu batches out of list order",
	      (size_t)DIST_SEQ_UNLEARNABLE, off);
	check_group("measure_cell: a learnable sequence keeps one order, an unlearnable one not");
}

/* Each variant calls from sites of its own (a site that called one variant
 * slowed the next one it called), and keeps them from cell to cell; a single
 * size's rounds go over several placements of the site, a sequence's stay at
 * one (a predictor learns a sequence per placement). */
static void test_call_sites(void)
{
	static struct frames fa, fb, first_a, first_b;
	struct copy_seq seq;
	CHECK(copy_seq_fixed(&seq, 64, 0, 0) == 0, "copy_seq_fixed");
	sites_of(&seq, 40, 1, &fa, &fb);
	first_a = fa;
	first_b = fb;
	sites_of(&seq, 40, 0, &fa, &fb);
	copy_seq_free(&seq);
	size_t moved = 0;
	for (size_t i = 0; i < fa.n; i++)
		moved += !has_frame(&first_a, fa.at[i]);
	for (size_t i = 0; i < fb.n; i++)
		moved += !has_frame(&first_b, fb.at[i]);
	CHECK(!moved, "listed the other way round, %zu sites changed", moved);
	size_t shared = 0;
	for (size_t i = 0; i < fa.n; i++)
		shared += has_frame(&fb, fa.at[i]);
	CHECK(fa.n >= 2 && fb.n >= 2, "one size, 40 rounds: a called from %zu sites, b from %zu",
	      fa.n, fb.n);
	CHECK(!shared, "one size: %zu sites called both variants", shared);
	size_t one_a = fa.n, one_b = fb.n;

	size_t sizes[] = { 64, 128, 64, 256 };
	CHECK(copy_seq_sizes(&seq, sizes, 4) == 0, "copy_seq_sizes");
	sites_of(&seq, 40, 0, &fa, &fb);
	copy_seq_free(&seq);
	/* Fewer, not one: a compiler that unrolls the loop calls from more
	 * than one instruction per placement. */
	CHECK(fa.n < one_a && fb.n < one_b,
	      "a sequence, 40 rounds: a called from %zu sites (%zu for one size), b from %zu (%zu)",
	      fa.n, one_a, fb.n, one_b);
	shared = 0;
	for (size_t i = 0; i < fa.n; i++)
		shared += has_frame(&fb, fa.at[i]);
	CHECK(!shared, "a sequence: %zu sites called both variants", shared);
	check_group("measure_cell: call sites per function, placements for a single size");
}

/* measure_slow_rounds: a round counts when every variant took at least
 * SLOW_ROUND_FACTOR times its own fastest tenth, not when one did. */
static void test_slow_rounds(void)
{
	enum { R = 40 };
	static double a[R], b[R];
	struct variant_result v[2] = { { .ns = a }, { .ns = b } };
	struct cell_result r = { .nvariants = 2, .rounds = R, .v = v };
	for (size_t k = 0; k < R; k++) {
		a[k] = 2.0 + 0.01 * (double)(k % 5);
		b[k] = 3.0 + 0.01 * (double)(k % 7);
	}
	CHECK(measure_slow_rounds(&r) == 0, "%zu slow rounds in a steady cell",
	      measure_slow_rounds(&r));
	/* Rounds 10..17: both variants 1.5x (the core slowed); 20..27: only a
	 * (one variant's own noise); 30: both, but b only 1.1x. */
	for (size_t k = 10; k < 18; k++) {
		a[k] *= 1.5;
		b[k] *= 1.5;
	}
	for (size_t k = 20; k < 28; k++)
		a[k] *= 1.5;
	a[30] *= 1.5;
	b[30] *= 1.1;
	CHECK(measure_slow_rounds(&r) == 8, "%zu slow rounds, expected 8",
	      measure_slow_rounds(&r));
	r.nvariants = 1;
	CHECK(measure_slow_rounds(&r) == 0, "one variant: %zu slow rounds",
	      measure_slow_rounds(&r));
	r.nvariants = 2;
	r.rounds = 10;
	a[5] = b[5] = 100;
	CHECK(measure_slow_rounds(&r) == 1, "10 rounds, one slow: %zu",
	      measure_slow_rounds(&r));
	r.rounds = 9;
	CHECK(measure_slow_rounds(&r) == 0, "9 rounds: no fastest tenth, yet %zu",
	      measure_slow_rounds(&r));
	check_group("measure_slow_rounds: rounds in which every variant was slow");
}

static void test_aio(void)
{
	struct workload w;
	char err[256];
	CHECK(setup(&w, "aio-poll", NULL, NULL, NULL, err, sizeof err) == 0, "%s", err);
	CHECK(w.seq.len == 2 && w.seq.op[0].n == 64 && w.seq.op[1].n == 32,
	      "sequence is not 64, 32");
	CHECK(w.cell.src.region == 0 && w.cell.dst.region == 0, "not hot");
	CHECK(w.unit_copies == 2, "unit %zu", w.unit_copies);
	struct rec r;
	if (run_recorded(&w, &r) < 0) {
		CHECK(0, "measuring the recorder failed");
	} else {
		/* Batches continue the sequence where the last one stopped, so
		 * the sizes alternate across the whole run after the warm-up. */
		size_t n64 = 0, n32 = 0, same = 0, moved = 0;
		for (size_t i = 0; i < r.n; i++) {
			n64 += r.len[i] == 64;
			n32 += r.len[i] == 32;
			same += i && r.len[i] == r.len[i - 1];
			moved += r.src[i] != r.src[0] || r.dst[i] != r.dst[0];
		}
		CHECK(n64 + n32 == r.n, "%zu copies of other sizes", r.n - n64 - n32);
		CHECK(n64 > 0 && n32 > 0 && (n64 > n32 ? n64 - n32 : n32 - n64) <= 64,
		      "64-byte %zu, 32-byte %zu", n64, n32);
		CHECK(same <= 64, "%zu of %zu copies repeat the size before", same, r.n);
		CHECK(!moved, "%zu copies left the hot buffers", moved);
	}
	rec_free(&r);
	workload_free(&w);

	CHECK(setup(&w, "aio-poll", NULL, NULL, "warm", err, sizeof err) == 0, "%s", err);
	CHECK(w.cell.src.region > 0 && !strcmp(w.cache, "warm"), "--cache warm ignored");
	workload_free(&w);
	check_group("workload aio-poll: 64- and 32-byte copies in turn, hot");
}

static void test_cold(void)
{
	struct workload w;
	char err[256];
	size_t llc = cache_llc();
	CHECK(setup(&w, "cold-read", NULL, NULL, NULL, err, sizeof err) == 0, "%s", err);
	CHECK(w.seq.len == 1 && w.seq.op[0].n == 4096, "default size %zu", w.seq.op[0].n);
	/* Cold: either every line flushed, or a walk of 4x the LLC. */
	CHECK(w.cell.src.flush || w.cell.src.region + 4096 >= 4 * llc,
	      "source region %zu for LLC %zu, not flushed", w.cell.src.region, llc);
	CHECK(!w.cell.sequential, "a streamed source would be prefetched");
	CHECK(w.cell.dst.region == 0 && !w.cell.dst.flush, "destination not hot");
	workload_free(&w);

	CHECK(setup(&w, "cold-read", NULL, "16K", NULL, err, sizeof err) == 0, "%s", err);
	CHECK(w.seq.len == 1 && w.seq.op[0].n == 16384, "--sizes 16K ignored");
	CHECK(w.cell.src.region >= 16 * 16384, "region %zu", w.cell.src.region);
	workload_free(&w);
	CHECK(setup(&w, "cold-read", NULL, "64,4K", NULL, err, sizeof err) == 0, "%s", err);
	CHECK(w.seq.len == 2 && w.seq.op[0].n == 64 && w.seq.op[1].n == 4096,
	      "--sizes 64,4K");
	workload_free(&w);
	check_group("workload cold-read: 4 KiB (or --sizes) from an uncached source");
}

static void test_dist_and_sizes(void)
{
	struct workload w;
	char err[256], path[] = "/tmp/ucopy-test-dist-XXXXXX";
	int fd = mkstemp(path);
	const char text[] = "# plain format\n64 3\n4K 1\n";
	CHECK(fd >= 0 && write(fd, text, sizeof text - 1) == (ssize_t)(sizeof text - 1),
	      "temporary file");
	if (fd >= 0)
		close(fd);

	CHECK(setup(&w, NULL, path, NULL, NULL, err, sizeof err) == 0, "%s", err);
	size_t n64 = 0, other = 0;
	for (size_t i = 0; i < w.seq.len; i++) {
		n64 += w.seq.op[i].n == 64;
		other += w.seq.op[i].n != 64 && w.seq.op[i].n != 4096;
	}
	CHECK(w.seq.len == DIST_SEQ_UNLEARNABLE && !other, "sequence of %zu, %zu stray sizes",
	      w.seq.len, other);
	CHECK(fabs((double)n64 / (double)w.seq.len - 0.75) < 0.02,
	      "64-byte share %.3f, expected 0.75", (double)n64 / (double)w.seq.len);
	CHECK(!strncmp(w.name, "dist:", 5), "name '%s'", w.name);
	/* Each copy adds 0..63 to each side and reaches up to 64 bytes on
	 * (dist.h): the two bases must keep the windows 4K-apart. */
	unsigned gap = (w.cell.dst.offset - w.cell.src.offset) & 4095;
	CHECK(gap >= 128 && gap <= 4096 - 128,
	      "a drawn sequence's sides at page offsets %u and %u: every copy 4K-aliases",
	      w.cell.src.offset, w.cell.dst.offset);
	workload_free(&w);

	/* The repeated regime: the start of the same draw. */
	struct workload_opts o = { .dist_path = path, .regime = "repeated", .seed = 42 };
	struct workload u;
	CHECK(setup(&u, NULL, path, NULL, NULL, err, sizeof err) == 0, "%s", err);
	CHECK(workload_setup(&w, &o, err, sizeof err) == 0 && w.regime == REGIME_REPEATED &&
	      w.seq.len == DIST_SEQ_REPEAT_DEFAULT && u.regime == REGIME_UNLEARNABLE &&
	      !memcmp(w.seq.op, u.seq.op, w.seq.len * sizeof *w.seq.op), "repeated: %s", err);
	workload_free(&w);
	workload_free(&u);

	/* dist:FILE is the same as --dist FILE. */
	char name[64];
	snprintf(name, sizeof name, "dist:%s", path);
	CHECK(setup(&w, name, NULL, NULL, "cold", err, sizeof err) == 0, "%s", err);
	CHECK(w.kind == WORKLOAD_DIST && w.cell.src.region > 0, "dist:FILE --cache cold");
	workload_free(&w);
	unlink(path);

	CHECK(setup(&w, NULL, NULL, "64,32", NULL, err, sizeof err) == 0, "%s", err);
	CHECK(w.kind == WORKLOAD_SIZES && w.seq.len == 2 && w.seq.op[0].n == 64 &&
	      w.seq.op[1].n == 32, "--sizes 64,32");
	workload_free(&w);
	check_group("workload dist:FILE and --sizes");
}

static void test_errors(void)
{
	static const struct {
		const char *name, *dist, *sizes, *cache, *msg;
	} cases[] = {
		{ "tcp", NULL, NULL, NULL, "unknown workload 'tcp'" },
		{ "aio-poll", "x.csv", NULL, NULL, "--workload and --dist" },
		{ NULL, "x.csv", "64", NULL, "--dist draws its own sizes" },
		{ "tcp-sendmsg", NULL, "64", NULL, "--sizes does not apply" },
		{ "aio-poll", NULL, "64", NULL, "--sizes does not apply" },
		{ "tcp-sendmsg", NULL, NULL, "hot", "--cache does not apply" },
		{ "cold-read", NULL, NULL, "cold", "--cache does not apply" },
		{ NULL, NULL, "64", "lukewarm", "bad cache state 'lukewarm'" },
		{ NULL, NULL, NULL, NULL, "no workload" },
		{ "dist:", NULL, NULL, NULL, "names no file" },
		{ NULL, "/nonexistent/ucopy.csv", NULL, NULL, "/nonexistent/ucopy.csv" },
		{ NULL, NULL, "12Q", NULL, "12Q" },
		{ NULL, NULL, "0", NULL, "0 bytes" },
		{ "cold-read", NULL, "8M", NULL, "--sizes" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct workload w;
		char err[256] = "";
		int rc = setup(&w, cases[i].name, cases[i].dist, cases[i].sizes,
			       cases[i].cache, err, sizeof err);
		CHECK(rc == -1, "case %zu: rc %d", i, rc);
		CHECK(strstr(err, cases[i].msg), "case %zu: '%s' does not say '%s'", i,
		      err, cases[i].msg);
	}
	check_group("workload: bad input named");
}

int main(void)
{
	test_round_order();
	test_round_neighbours();
	test_round_one_order();
	test_call_sites_past_slots();
	test_call_sites();
	test_verdict_text();
	test_identical();
	test_known_difference();
	test_tcp();
	test_stack_placement();
	test_slow_rounds();
	test_aio();
	test_cold();
	test_dist_and_sizes();
	test_errors();
	return check_exit();
}
