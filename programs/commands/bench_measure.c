/*
 * bench_measure.c - `ucopy bench`'s grid: its floor against the budget and
 * the memory, then every cell measured in turn (bench.h).
 */
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"

#define CMD "bench"

static void show_progress(void *ctx, double done)
{
	struct bench *b = ctx;
	double now = clock_seconds();
	if (!b->progress || now - b->last_progress < 0.1)
		return;
	b->last_progress = now;
	double frac = ((double)b->cell + done) / (double)b->cells;
	double left = (1 - frac) * b->seconds;
	fprintf(stderr, "\rucopy bench: %3.0f%% (%.0f s left) ", 100 * frac, ceil(left));
	fflush(stderr);
}

static void seq_cell(const struct bench *b, size_t i, struct cell *c)
{
	if (b->have_replay)
		replay_cell(c, &b->replay, b->cache);
	else
		cell_init_drawn(c, &b->drawn[i], b->cache);
}

/* How many sizes, source offsets and destination offsets the grid has. */
static void grid(const struct bench *b, size_t *nsize, size_t *nsrc, size_t *ndst)
{
	*nsize = seq_run(b) ? b->nseq : b->sizes.n;
	*nsrc = seq_run(b) ? 1 : b->src_align.n;
	*ndst = seq_run(b) ? 1 : b->have_distance ? b->distance.n : b->dst_align.n;
}

static size_t count_cells(const struct bench *b)
{
	size_t nsize, nsrc, ndst;
	grid(b, &nsize, &nsrc, &ndst);
	return nsrc * ndst * nsize;
}

static size_t largest(const struct sizes *s)
{
	size_t m = 0;
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i] > m)
			m = s->v[i];
	return m;
}

/* A grid whose cells cannot all be measured in the budget, or whose buffers
 * would take more than --max-memory, is refused before anything runs: each
 * cell has a floor (warm-up, the fewest rounds that give an interval, its
 * copies at a speed no CPU reaches), and a grid of 16 million cells would
 * otherwise run for hours on a 1-second budget, a 1 GiB copy for 16 s on a
 * 0.1 s one. */
int bench_check_budget(const struct bench *b)
{
	size_t cells = count_cells(b), nsize, nsrc, ndst;
	grid(b, &nsize, &nsrc, &ndst);
	/* The largest base offsets (a distance's wraps below 4096). */
	size_t so = seq_run(b) ? 0 : largest(&b->src_align);
	size_t dof = seq_run(b) ? 0 : b->have_distance ? so + largest(&b->distance)
						     : largest(&b->dst_align);
	double need = 0;
	size_t map_s = 0, map_d = 0;
	for (size_t i = 0; i < nsize; i++) {
		struct copy_seq fixed = { 0 };
		struct cell c;
		/* Offsets 0 give cold cells their largest regions. */
		if (seq_run(b)) {
			seq_cell(b, i, &c);
		} else {
			if (copy_seq_fixed(&fixed, b->sizes.v[i], 0, 0) < 0)
				return cli_usage_error(CMD, "out of memory");
			cell_init(&c, &fixed, b->cache, 0, 0);
		}
		need += measure_cell_floor_seconds(&c, b->nvar, 0) * (double)(cells / nsize);
		c.src.offset = (uint32_t)so;
		c.dst.offset = (uint32_t)(dof < 4096 ? dof : 4095);
		size_t s, d;
		cell_map_bytes(&c, &s, &d);
		map_s = s > map_s ? s : map_s;
		map_d = d > map_d ? d : map_d;
		copy_seq_free(&fixed);
	}
	int rc = cli_check_memory(CMD, map_s + map_d, b->max_memory, b->have_max_memory);
	if (rc)
		return rc;
	need += measure_map_floor_seconds(map_s + map_d);
	if (need <= b->seconds)
		return 0;
	return cli_usage_error(CMD, "%zu cell%s of %zu variant%s need%s a budget of at least "
			       "%.*f s, more than --seconds %g (fewer or smaller sizes, fewer "
			       "offsets or variants, or more seconds)", cells,
			       cells == 1 ? "" : "s", b->nvar, b->nvar == 1 ? "" : "s",
			       cells == 1 ? "s" : "", need < 10 ? 3 : 0, need, b->seconds);
}

int bench_measure(struct bench *b)
{
	size_t nsize, nsrc, ndst;
	grid(b, &nsize, &nsrc, &ndst);
	b->cells = count_cells(b);
	b->row = calloc(b->cells * b->nvar, sizeof *b->row);
	struct variant_summary *sum = calloc(b->nvar, sizeof *sum);
	struct measure *m = measure_new();
	if (!b->row || !sum || !m) {
		free(sum);
		measure_free(m);
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	b->progress = !b->quiet && isatty(2) && b->seconds > 1;
	b->started = clock_seconds();
	b->last_progress = 0;
	struct measure_opts o = { .seconds = b->seconds / (double)b->cells,
				  .counters = 1, .events = &b->events,
				  .scrub_every = b->scrub_every,
				  .progress = show_progress,
				  .progress_ctx = b };
	int rc = EXIT_OK;
	b->cell = 0;
	for (size_t si = 0; si < nsize && rc == EXIT_OK; si++)
		for (size_t ai = 0; ai < nsrc && rc == EXIT_OK; ai++)
			for (size_t di = 0; di < ndst && rc == EXIT_OK; di++) {
				uint32_t so = 0, dof = 0;
				size_t size = SIZE_MAX;
				struct copy_seq fixed = { 0 };
				struct cell c;
				if (seq_run(b)) {
					seq_cell(b, si, &c);
				} else {
					size = b->sizes.v[si];
					so = (uint32_t)b->src_align.v[ai];
					dof = b->have_distance
						      ? (uint32_t)((so + b->distance.v[di]) % 4096)
						      : (uint32_t)b->dst_align.v[di];
					if (copy_seq_fixed(&fixed, size, 0, 0) < 0) {
						cli_error("out of memory");
						rc = EXIT_FAIL;
						break;
					}
					cell_init(&c, &fixed, b->cache, so, dof);
				}
				/* What is left of the budget, shared by the cells
				 * left: a cell that overran is paid for by the rest. */
				o.seconds = (b->seconds - (clock_seconds() - b->started)) /
					    (double)(b->cells - b->cell);
				struct cell_result r;
				char err[256];
				if (measure_cell(m, b->var, b->nvar, &c, &o, &r, err, sizeof err) < 0) {
					cli_error("%s", err);
					rc = EXIT_FAIL;
				} else {
					measure_summarize(&r, 0, LEVEL, sum);
					size_t slow = measure_slow_rounds(&r);
					for (size_t v = 0; v < b->nvar; v++) {
						struct row *w = &b->row[b->nrows++];
						w->variant = v;
						w->size = size;
						w->seq = si;
						w->src_off = so;
						w->dst_off = dof;
						w->s = sum[v];
						w->rounds = r.rounds;
						w->slow_rounds = slow;
						w->batch = r.batch;
						w->copies = r.v[v].copies;
						w->steady_passes = r.v[v].steady_passes;
						w->steady_capped = r.v[v].steady_capped;
						w->scrubs = r.v[v].scrubs;
					}
					for (int e = 0; e < CTR_SLOTS; e++)
						b->ctr_reason[e] = r.v[0].ctr_reason[e];
					cell_result_free(&r);
				}
				copy_seq_free(&fixed);
				b->cell++;
			}
	if (b->progress)
		fprintf(stderr, "\r%40s\r", "");
	b->elapsed = clock_seconds() - b->started;
	free(sum);
	measure_free(m);
	return rc;
}
