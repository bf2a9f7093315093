/*
 * calibrate_cells.c - the cells `ucopy calibrate` times: their sequences
 * and cache states, timing one, each phase's share of the budget, and the
 * progress line (calibrate.h).
 */
#include "calibrate.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* Copies in a mixed-size sequence: more than a branch predictor keeps of
 * one call site's history (dist.h). */
#define MIXED_LEN DIST_SEQ_UNLEARNABLE

/* An equal share of what is left of the phase for each of `left` cells:
 * a cell that overran (buffers mapped, minimum rounds) is paid back by the
 * ones after it. */
double calibrate_share(const struct run *r, size_t left)
{
	double t = r->deadline - clock_seconds();
	return t > 0 && left ? t / (double)left : 0;
}

/*=====   Progress   =====*/

void calibrate_progress(struct run *r, size_t done, size_t total)
{
	if (!r->progress)
		return;
	fprintf(stderr, "\rcalibrate: %-7s %3zu/%-3zu %5.1f s ", r->phase, done, total,
		clock_seconds() - r->started);
	fflush(stderr);
}

void calibrate_progress_end(struct run *r)
{
	if (r->progress)
		fputs("\r\033[K", stderr);
}

/* A finding, with -v. */
void calibrate_say(struct run *r, const char *fmt, ...)
{
	if (!r->verbose)
		return;
	va_list ap;
	calibrate_progress_end(r);
	fprintf(stderr, "calibrate: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/*=====   Measuring   =====*/

/* Medians of each variant and, when lo is not NULL, the paired interval of
 * median(i) / median(fastest).  rounds > 0: exactly that many rounds of the
 * shortest batches worth timing, whatever the time (cold cells, whose
 * flushes the measuring core's budget does not see). */
int calibrate_time_cell(struct run *r, const struct variant *v, size_t nv,
			const struct cell *c, double seconds, unsigned rounds,
			double *med, double *lo, double *hi)
{
	/* Copies of a few MiB and more take milliseconds each, and on a
	 * shared host one round in three may catch a neighbour's burst: nine
	 * rounds keep the median clear of them where five did not
	 * (docs/calibrate.md, "Where calibrate's numbers come from"). */
	struct measure_opts o = { .seconds = seconds,
				  .min_rounds = c->seq->max_n >= LARGE ? 9 : MEASURE_MIN_ROUNDS };
	struct cell_result res;

	if (rounds) {
		o.seconds = 0;
		o.min_rounds = o.max_rounds = rounds;
	}
	if (measure_cell(r->m, v, nv, c, &o, &res, r->err, sizeof r->err) < 0)
		return -1;
	size_t best = 0;
	for (size_t i = 0; i < nv; i++) {
		med[i] = stats_median(res.v[i].ns, res.rounds);
		if (med[i] < med[best])
			best = i;
	}
	if (lo) {
		struct variant_summary *s = calloc(nv, sizeof *s);
		if (!s) {
			cell_result_free(&res);
			snprintf(r->err, sizeof r->err, "out of memory");
			return -1;
		}
		measure_summarize(&res, best, LEVEL, s);
		for (size_t i = 0; i < nv; i++) {
			lo[i] = i == best ? 1 : s[i].ratio.lo;
			hi[i] = i == best ? 1 : s[i].ratio.hi;
		}
		free(s);
	}
	cell_result_free(&res);
	return 0;
}

/* Copies of n bytes at four offset pairs, equally aligned (0/0, 16/16) and
 * not (32/0, 7/3), added to calibrate_cell_for()'s base offsets 0/2048: the
 * distances (dst - src) mod 4096 are 2016 to 2048, far from the small ones in
 * either direction.  (Phase 3 is about those: at a small negative distance each
 * copy's loads 4K-alias the previous copy's stores, for every kernel;
 * docs/calibrate.md, "Where calibrate's numbers come from".) */
int calibrate_seq_mixed(struct copy_seq *s, size_t n)
{
	static const uint32_t off[4][2] = { { 0, 0 }, { 16, 16 }, { 32, 0 }, { 7, 3 } };
	size_t sizes[4] = { n, n, n, n };
	if (copy_seq_sizes(s, sizes, 4))
		return -1;
	for (size_t i = 0; i < 4; i++) {
		s->op[i].src_off = off[i][0];
		s->op[i].dst_off = off[i][1];
	}
	s->max_off = 32;
	return 0;
}

/* MIXED_LEN copies of sizes drawn uniformly from lo to hi with `seed`
 * (fixed, so that two runs time the same thing); offsets cycle as in
 * calibrate_seq_mixed(). */
int calibrate_seq_uniform(struct copy_seq *s, size_t lo, size_t hi, uint64_t seed)
{
	static const uint32_t off[4][2] = { { 0, 0 }, { 16, 16 }, { 32, 0 }, { 7, 3 } };
	size_t *sizes = malloc(MIXED_LEN * sizeof *sizes);
	struct rng g;
	if (!sizes)
		return -1;
	rng_seed(&g, seed);
	for (size_t i = 0; i < MIXED_LEN; i++)
		sizes[i] = lo + (size_t)rng_below(&g, hi - lo + 1);
	int rc = copy_seq_sizes(s, sizes, MIXED_LEN);
	free(sizes);
	if (rc)
		return -1;
	for (size_t i = 0; i < MIXED_LEN; i++) {
		s->op[i].src_off = off[i % 4][0];
		s->op[i].dst_off = off[i % 4][1];
	}
	s->max_off = 32;
	return 0;
}

/* The mixed cell of point n: sizes from n/2 to 2n (1 to 2 below 2). */
int calibrate_seq_class(struct copy_seq *s, size_t n)
{
	return calibrate_seq_uniform(s, n / 2 ? n / 2 : 1, 2 * n, n);
}

/* A cell in `cache`: hot is the measuring core's (one slot each side);
 * cold walks enough slots that a batch never copies the same lines twice and
 * flushes each batch's lines first, which needs far less memory than walking
 * 4x the LLC (docs/calibrate.md, "Where calibrate's numbers come from"). */
void calibrate_cell_for(struct cell *c, const struct copy_seq *seq, enum cal_state s)
{
	/* A replay carries its own distance in its offsets (max_off > 64). */
	if (seq->max_off > 64)
		cell_init(c, seq, CACHE_HOT, 0, 0);
	else
		cell_init_drawn(c, seq, CACHE_HOT);
	if (s == CAL_COLD) {
		size_t stride = cell_slot_stride(seq);
		size_t slots = ((size_t)64 << 20) / stride;
		if (slots > 16384)
			slots = 16384;
		if (slots < 16)
			slots = 16;
		c->src.region = c->dst.region = slots * stride;
		c->src.flush = c->dst.flush = 1;
	}
}

/* Rounds for a cold cell of n bytes and nv variants in `seconds`. */
unsigned calibrate_cold_rounds(const struct run *r, size_t n, size_t nv, double seconds)
{
	if (!(r->cold_byte_s > 0))
		return 9;
	double round = r->cold_byte_s * (double)(n > 4096 ? n : 4096) * (double)nv;
	double k = seconds / round;
	return k < MEASURE_MIN_ROUNDS ? MEASURE_MIN_ROUNDS : k > 25 ? 25 : (unsigned)k;
}

void calibrate_cold_learn(struct run *r, size_t n, size_t nv, unsigned rounds,
			  double elapsed)
{
	r->cold_byte_s = elapsed / (double)rounds / (double)nv /
			 (double)(n > 4096 ? n : 4096);
}
