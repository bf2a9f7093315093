/*
 * report_measure.c - the measuring sections of `ucopy report`.
 *
 * The sections, in the order they run, and what each answers:
 *   sweep     every kernel, libc's memcpy and ucopy_memcpy over 1 B .. 64 MiB,
 *             hot, and cold from 64 KiB: which strategy wins at which size;
 *   cliff     ucopy_memcpy and libc over size x source alignment x
 *             destination alignment and dst - src distance: where a copy
 *             falls off a cliff (rep movsb's 4 KiB aliasing on Zen 3);
 *   probes    each kernel at a few distances dst - src against half a page
 *             apart, for the recommended policy;
 *   workloads the historic kernel policies on compare's built-in workloads;
 *   classes   ucopy_memcpy against libc per size class, random offsets;
 *   dists     the same on the fleetbench production size distributions.
 * The budget (--seconds) is shared out by weight and re-planned before every
 * cell from the time actually left, so an overrun early (a cold region to
 * map, a slow kernel on a big size) is paid back by the cells after it.
 */
#include "calibration.h"
#include "cli.h"
#include "datadir.h"
#include "dist.h"
#include "measure.h"
#include "output.h"
#include "report_model.h"
#include "report_measure.h"
#include "workload.h"
#include "ucopy.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The most a --quick workload may map: on a 300 MB L3 the first touch of
 * cold-read's 4x-LLC source took over a third of a smoke run's budget
 * (docs/report.md, "Budget"). */
#define QUICK_MAX_MAP ((size_t)256 << 20)

/*=====   Progress and budget   =====*/

struct ctx {
	struct report *r;
	struct measure *m;
	int quick, quiet, verbose, tty;
	double start, total;
	double weight_left;        /* of the sections not yet begun */
	double sec_start, sec_budget;
	size_t sec_cells_left;
	char what[160];
	double last_draw;
	unsigned min_rounds;
	uint64_t seed;
	char err[600];             /* why the run failed, when not memory */
};

static double elapsed(const struct ctx *x)
{
	return clock_seconds() - x->start;
}

static void draw(struct ctx *x, double frac)
{
	if (x->quiet || !x->tty)
		return;
	double now = clock_seconds();
	if (now - x->last_draw < 0.1 && frac < 1)
		return;
	x->last_draw = now;
	double used = now - x->start;
	double left = x->total - used;
	int pct = (int)fmin(99.0, 100.0 * used / x->total);
	fprintf(stderr, "\r\033[Kreport: %3d%%  %3.0f s left  %s", pct,
		left > 0 ? left : 0, x->what);
	fflush(stderr);
}

static void on_progress(void *ctx, double done)
{
	draw(ctx, done);
}

static void step(struct ctx *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void step(struct ctx *x, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(x->what, sizeof x->what, fmt, ap);
	va_end(ap);
	if (x->quiet)
		return;
	if (x->verbose && !x->tty)
		fprintf(stderr, "report: %5.1f s  %s\n", elapsed(x), x->what);
	else
		draw(x, 0);
}

/* A section gets its weight's share of the time left; its cells share the
 * section's time left equally, re-planned cell by cell. */
static void section_begin(struct ctx *x, double weight, size_t cells)
{
	double left = x->total - elapsed(x);
	if (left < 0)
		left = 0;
	x->sec_budget = x->weight_left > 0 ? left * weight / x->weight_left : left;
	x->weight_left -= weight;
	x->sec_start = clock_seconds();
	x->sec_cells_left = cells ? cells : 1;
}

static double cell_budget(struct ctx *x)
{
	double left = x->sec_budget - (clock_seconds() - x->sec_start);
	double b = left / (double)(x->sec_cells_left ? x->sec_cells_left : 1);
	if (x->sec_cells_left > 1)
		x->sec_cells_left--;
	/* Below this the rounds floor (min_rounds) decides anyway. */
	return b > 0.002 ? b : 0.002;
}

/* Measures one cell, summarising against `baseline` (SIZE_MAX: against the
 * fastest variant, whose index is stored in *best), and when sum_best is
 * not NULL also against the fastest of the first nbest variants.
 * @return : 0, or -1 (message printed) when the cell could not be measured. */
static int run_cell2(struct ctx *x, const struct variant *v, size_t nv,
		     const struct cell *c, size_t baseline,
		     struct variant_summary *sum, size_t *rounds, size_t *best,
		     struct variant_summary *sum_best, size_t nbest)
{
	struct measure_opts o = {
		.seconds = cell_budget(x),
		.min_rounds = x->min_rounds,
		.progress = on_progress,
		.progress_ctx = x,
	};
	struct cell_result res;
	char err[256];
	if (measure_cell(x->m, v, nv, c, &o, &res, err, sizeof err) < 0) {
		if (!x->quiet)
			fprintf(stderr, "%sucopy: %s: %s\n", x->tty ? "\r\033[K" : "",
				x->what, err);
		return -1;
	}
	x->seed = x->seed * 6364136223846793005u + 1442695040888963407u;
	size_t base = baseline == SIZE_MAX ? 0 : baseline;
	measure_summarize(&res, base, 0.95, sum);
	if (baseline == SIZE_MAX) {
		size_t b = 0;
		for (size_t i = 1; i < nv; i++)
			if (sum[i].ns.median < sum[b].ns.median)
				b = i;
		if (b != 0)
			measure_summarize(&res, b, 0.95, sum);
		*best = b;
	}
	if (sum_best && nbest) {
		size_t b = 0;
		for (size_t i = 1; i < nbest; i++)
			if (sum[i].ns.median < sum[b].ns.median)
				b = i;
		measure_summarize(&res, b, 0.95, sum_best);
	}
	if (rounds)
		*rounds = res.rounds;
	cell_result_free(&res);
	return 0;
}

static int run_cell(struct ctx *x, const struct variant *v, size_t nv,
		    const struct cell *c, size_t baseline,
		    struct variant_summary *sum, size_t *rounds, size_t *best)
{
	return run_cell2(x, v, nv, c, baseline, sum, rounds, best, NULL, 0);
}

/*=====   Variants   =====*/

/* Every kernel this CPU runs (the table's `libc` entry aside: libc's memcpy
 * is timed directly, without the kernel-interface wrapper), then libc, then
 * ucopy_memcpy with whatever policy is active. */
static int build_variants(struct report *r, struct variant **out)
{
	const struct ucopy_cpu *cpu = ucopy_cpu();
	size_t nk = ucopy_kernel_count();
	struct variant *v = calloc(nk + 2, sizeof *v);
	r->var = calloc(nk + 2, sizeof *r->var);
	if (!v || !r->var) {
		free(v);
		return -1;
	}
	size_t n = 0;
	for (size_t i = 0; i < nk; i++) {
		const struct ucopy_kernel *k = ucopy_kernel_at(i);
		if (!strcmp(k->name, "libc") || !ucopy_kernel_supported(k, cpu->features))
			continue;
		variant_kernel(&v[n], k);
		snprintf(r->var[n].name, REPORT_NAME, "%s", k->name);
		snprintf(r->var[n].label, REPORT_NAME, "%s", k->name);
		n++;
	}
	r->ilibc = n;
	variant_memcpy(&v[n], "libc", memcpy);
	snprintf(r->var[n].name, REPORT_NAME, "libc");
	snprintf(r->var[n].label, REPORT_NAME, "libc (memcpy)");
	n++;
	r->iucopy = n;
	variant_memcpy(&v[n], "ucopy", ucopy_memcpy);
	snprintf(r->var[n].name, REPORT_NAME, "ucopy");
	const struct ucopy_active *a = ucopy_active();
	snprintf(r->var[n].label, REPORT_NAME, "ucopy (%s)",
		 a->source == UCOPY_SOURCE_DEFAULT ? "auto" : ucopy_source_name(a->source));
	n++;
	r->nvar = n;
	*out = v;
	return 0;
}

/*=====   Sweep   =====*/

static int sweep_alloc(struct report_sweep *s, const char *cache, size_t nvar,
		       const size_t *size, size_t nsize)
{
	s->cache = cache;
	s->nsize = nsize;
	s->nvar = nvar;
	size_t n = nvar * nsize;
	s->size = malloc(nsize * sizeof *s->size);
	s->ns = malloc(n * sizeof *s->ns);
	s->p10 = malloc(n * sizeof *s->p10);
	s->p90 = malloc(n * sizeof *s->p90);
	s->gbps = malloc(n * sizeof *s->gbps);
	s->vs_libc = malloc(n * sizeof *s->vs_libc);
	s->vs_best = malloc(n * sizeof *s->vs_best);
	s->rounds = calloc(nsize, sizeof *s->rounds);
	if (!s->size || !s->ns || !s->p10 || !s->p90 || !s->gbps || !s->vs_libc ||
	    !s->vs_best || !s->rounds)
		return -1;
	memcpy(s->size, size, nsize * sizeof *size);
	for (size_t i = 0; i < n; i++) {
		s->ns[i] = s->p10[i] = s->p90[i] = s->gbps[i] = NAN;
		s->vs_libc[i].est = s->vs_libc[i].lo = s->vs_libc[i].hi = NAN;
		s->vs_best[i] = s->vs_libc[i];
	}
	return 0;
}

/* Sizes 1 B .. 64 MiB: powers of two and the points half-way between them
 * (x1.5), so a crossover is placed within half an octave; --quick takes
 * every second power of two. */
static size_t sweep_sizes(size_t lo, size_t hi, int quick, size_t *out)
{
	size_t n = 0;
	for (size_t p = lo; p <= hi; p *= quick ? 4 : 2) {
		out[n++] = p;
		if (!quick && p * 2 <= hi && p >= 2)
			out[n++] = p + p / 2;
	}
	return n;
}

static int run_sweep(struct ctx *x, const struct variant *v,
		     struct report_sweep *s, enum cache_state cache)
{
	struct variant_summary *sum = calloc(s->nvar, sizeof *sum);
	struct variant_summary *sb = calloc(s->nvar, sizeof *sb);
	if (!sum || !sb) {
		free(sum);
		free(sb);
		return -1;
	}
	/* Cold from the largest size down: its regions are the biggest, and
	 * mapping them first lets every smaller size reuse them. */
	for (size_t n = 0; n < s->nsize; n++) {
		size_t i = cache == CACHE_COLD ? s->nsize - 1 - n : n;
		char sz[32];
		ucopy_size_format(s->size[i], sz, sizeof sz);
		step(x, "sweep, %s: %s", cache_name(cache), sz);
		struct copy_seq seq;
		struct cell c;
		if (copy_seq_fixed(&seq, s->size[i], 0, 0) < 0)
			continue;
		cell_init(&c, &seq, cache, 0, 0);
		if (run_cell2(x, v, s->nvar, &c, x->r->ilibc, sum, &s->rounds[i], NULL, sb,
			      x->r->ilibc) == 0) {
			for (size_t k = 0; k < s->nvar; k++) {
				size_t j = k * s->nsize + i;
				s->ns[j] = sum[k].ns.median;
				s->p10[j] = sum[k].ns.p10;
				s->p90[j] = sum[k].ns.p90;
				s->gbps[j] = sum[k].gbps;
				s->vs_libc[j] = sum[k].ratio;
				s->vs_best[j] = sb[k].ratio;
			}
		}
		copy_seq_free(&seq);
	}
	free(sum);
	free(sb);
	return 0;
}

/*=====   Cliff matrix   =====*/

/* The matrix: sizes {64, 256, 2K, 4352, 32K, 256K} x source
 * alignment {0,1,15,32} x destination alignment {0,1,15,32} x distance
 * {1,8,31,63,2048}.  4352 is the 4 KiB + 256 B copy in which Zen 3's rep
 * movsb runs about 25x slower at a small distance (docs/performance-zen3.md,
 * "The aliasing cliff, measured"). */
static const size_t cliff_size_full[] = { 64, 256, 2048, 4352, 32768, 262144 };
static const uint32_t cliff_align_full[] = { 0, 1, 15, 32 };
static const uint32_t cliff_dist_full[] = { 1, 8, 31, 63, 2048 };
/* Sampled: one size per regime, one aligned and one odd offset, a distance
 * inside and one outside the aliasing window. */
static const size_t cliff_size_small[] = { 64, 4352, 32768 };
static const uint32_t cliff_sa_small[] = { 0, 15 };
static const uint32_t cliff_da_small[] = { 0, 32 };
static const uint32_t cliff_dist_small[] = { 1, 31, 2048 };

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static int cliff_alloc(struct report_cliff *c, int small)
{
	c->nsize = small ? COUNT(cliff_size_small) : COUNT(cliff_size_full);
	c->nsa = small ? COUNT(cliff_sa_small) : COUNT(cliff_align_full);
	c->nda = small ? COUNT(cliff_da_small) : COUNT(cliff_align_full);
	c->nd = small ? COUNT(cliff_dist_small) : COUNT(cliff_dist_full);
	c->sampled = small;
	c->nvar = 2;
	c->size = malloc(c->nsize * sizeof *c->size);
	c->sa = malloc(c->nsa * sizeof *c->sa);
	c->da = malloc(c->nda * sizeof *c->da);
	c->d = malloc(c->nd * sizeof *c->d);
	size_t ncell = c->nvar * c->nsize * c->nsa * report_cliff_ncol(c);
	c->ns = malloc(ncell * sizeof *c->ns);
	c->slowdown = malloc(ncell * sizeof *c->slowdown);
	c->median = malloc(c->nvar * c->nsize * sizeof *c->median);
	c->worst = malloc(c->nvar * c->nsize * sizeof *c->worst);
	c->worst_cell = calloc(c->nvar * c->nsize, sizeof *c->worst_cell);
	if (!c->size || !c->sa || !c->da || !c->d || !c->ns || !c->slowdown ||
	    !c->median || !c->worst || !c->worst_cell)
		return -1;
	memcpy(c->size, small ? cliff_size_small : cliff_size_full, c->nsize * sizeof *c->size);
	memcpy(c->sa, small ? cliff_sa_small : cliff_align_full, c->nsa * sizeof *c->sa);
	memcpy(c->da, small ? cliff_da_small : cliff_align_full, c->nda * sizeof *c->da);
	memcpy(c->d, small ? cliff_dist_small : cliff_dist_full, c->nd * sizeof *c->d);
	for (size_t i = 0; i < ncell; i++)
		c->ns[i] = c->slowdown[i] = NAN;
	for (size_t i = 0; i < c->nvar * c->nsize; i++)
		c->median[i] = c->worst[i] = NAN;
	return 0;
}

static int run_cliff(struct ctx *x, const struct variant *sweepv)
{
	struct report_cliff *c = &x->r->cliff;
	struct variant v[2] = { sweepv[x->r->iucopy], sweepv[x->r->ilibc] };
	struct variant_summary sum[2];
	size_t ncol = report_cliff_ncol(c);
	size_t per_var = c->nsize * c->nsa * ncol;
	for (size_t s = 0; s < c->nsize; s++) {
		char sz[32];
		ucopy_size_format(c->size[s], sz, sizeof sz);
		step(x, "cliff matrix: %s", sz);
		struct copy_seq seq;
		if (copy_seq_fixed(&seq, c->size[s], 0, 0) < 0)
			continue;
		for (size_t a = 0; a < c->nsa; a++) {
			for (size_t col = 0; col < ncol; col++) {
				uint32_t so, dof;
				report_cliff_offsets(c, a, col, &so, &dof);
				struct cell cell;
				cell_init(&cell, &seq, CACHE_HOT, so, dof);
				if (run_cell(x, v, 2, &cell, 1, sum, NULL, NULL) < 0)
					continue;
				for (size_t k = 0; k < 2; k++)
					c->ns[k * per_var + (s * c->nsa + a) * ncol + col] =
						sum[k].ns.median;
			}
		}
		copy_seq_free(&seq);
	}
	/* Slowdown over the size's median cell, per variant: the cliff is
	 * what a caller sees when its buffers land badly, against what it sees
	 * usually. */
	size_t nper = c->nsa * ncol;
	double *tmp = malloc(nper * sizeof *tmp);
	if (!tmp)
		return -1;
	for (size_t k = 0; k < c->nvar; k++) {
		for (size_t s = 0; s < c->nsize; s++) {
			const double *ns = c->ns + k * per_var + s * nper;
			size_t m = 0;
			for (size_t i = 0; i < nper; i++)
				if (isfinite(ns[i]))
					tmp[m++] = ns[i];
			double med = stats_median(tmp, m);
			size_t ws = 0;
			double worst = NAN;
			for (size_t i = 0; i < nper; i++) {
				double sd = isfinite(ns[i]) && med > 0 ? ns[i] / med : NAN;
				c->slowdown[k * per_var + s * nper + i] = sd;
				if (isfinite(sd) && !(sd <= worst)) {
					worst = sd;
					ws = i;
				}
			}
			c->median[k * c->nsize + s] = med;
			c->worst[k * c->nsize + s] = worst;
			c->worst_cell[k * c->nsize + s] = ws;
		}
	}
	free(tmp);
	return 0;
}

/*=====   Kernel distance probes and the calibration   =====*/

/* Each kernel at a few distances inside the 4 KiB aliasing window against
 * half a page apart, at sizes from short copies to beyond L2: enough for
 * calibrate's derivation to keep a kernel with a cliff out of the sizes
 * around it (calibration.h).  1, 31 and 63 are rep movsb's window on Zen 3;
 * 192 lies in the wider one where a loop that stores a block before it
 * loads the next meets its own stores by page offset (below 512:
 * docs/performance-zen5.md, "4K aliasing in avx512's block loop").  A
 * multiple of 64 as the control is, so that it measures that alone and not
 * also the destination's misalignment against the source, which every
 * kernel pays at such a distance (docs/report.md, "Cliffs (chart 3)"). */
static const size_t probe_size_full[] = { 64, 2048, 4352, 32768, 262144 };
static const size_t probe_size_small[] = { 4352 };
static const uint32_t probe_dist[] = { 1, 31, 63, 192 };

static int run_probes(struct ctx *x, const struct variant *sweepv)
{
	struct report *r = x->r;
	struct report_probes *p = &r->probes;
	int small = x->quick;
	p->nsize = small ? COUNT(probe_size_small) : COUNT(probe_size_full);
	p->nk = r->ilibc;
	p->nd = COUNT(probe_dist);
	p->size = malloc(p->nsize * sizeof *p->size);
	p->d = malloc(p->nd * sizeof *p->d);
	p->ns = malloc(p->nk * p->nsize * p->nd * sizeof *p->ns);
	p->control = malloc(p->nk * p->nsize * sizeof *p->control);
	p->worst = malloc(p->nk * p->nsize * sizeof *p->worst);
	struct variant_summary *sum = calloc(p->nk ? p->nk : 1, sizeof *sum);
	if (!p->size || !p->d || !p->ns || !p->control || !p->worst || !sum) {
		free(sum);
		return -1;
	}
	memcpy(p->size, small ? probe_size_small : probe_size_full, p->nsize * sizeof *p->size);
	memcpy(p->d, probe_dist, p->nd * sizeof *p->d);
	for (size_t i = 0; i < p->nk * p->nsize * p->nd; i++)
		p->ns[i] = NAN;
	for (size_t i = 0; i < p->nk * p->nsize; i++)
		p->control[i] = p->worst[i] = NAN;
	for (size_t s = 0; s < p->nsize; s++) {
		char sz[32];
		ucopy_size_format(p->size[s], sz, sizeof sz);
		step(x, "kernel distance probes: %s", sz);
		struct copy_seq seq;
		if (copy_seq_fixed(&seq, p->size[s], 0, 0) < 0)
			continue;
		for (size_t j = 0; j <= p->nd; j++) {
			struct cell c;
			cell_init(&c, &seq, CACHE_HOT, 0, j < p->nd ? p->d[j] : PROBE_CONTROL);
			if (run_cell(x, sweepv, p->nk, &c, 0, sum, NULL, NULL) < 0)
				continue;
			for (size_t k = 0; k < p->nk; k++) {
				if (j < p->nd)
					p->ns[(k * p->nsize + s) * p->nd + j] = sum[k].ns.median;
				else
					p->control[k * p->nsize + s] = sum[k].ns.median;
			}
		}
		for (size_t k = 0; k < p->nk; k++) {
			double w = NAN, ctl = p->control[k * p->nsize + s];
			size_t wj = 0;
			for (size_t j = 0; j < p->nd; j++) {
				double q = p->ns[(k * p->nsize + s) * p->nd + j] / ctl;
				if (isfinite(q) && !(q <= w)) {
					w = q;
					wj = j;
				}
			}
			/* The control and the distance cells ran at different
			 * times; on a shared machine a neighbour can make one of
			 * them slow.  A cliff must show again, the kernel alone
			 * in both cells (as `ucopy calibrate` confirms its own). */
			if (w >= CAL_CLIFF) {
				struct cell cc, cd;
				struct variant_summary a1, a2;
				cell_init(&cc, &seq, CACHE_HOT, 0, PROBE_CONTROL);
				cell_init(&cd, &seq, CACHE_HOT, 0, p->d[wj]);
				if (run_cell(x, &sweepv[k], 1, &cd, 0, &a2, NULL, NULL) == 0 &&
				    run_cell(x, &sweepv[k], 1, &cc, 0, &a1, NULL, NULL) == 0 &&
				    a1.ns.median > 0)
					w = fmin(w, a2.ns.median / a1.ns.median);
			}
			p->worst[k * p->nsize + s] = w;
		}
		copy_seq_free(&seq);
	}
	free(sum);
	return 0;
}

/* calibrate's derivation over what the report measured: the hot and cold
 * sweeps as its points, the probes as its distance cells.  Only kernels
 * that can recover from faults are candidates, as in `ucopy calibrate`. */
static int run_calibration(struct report *r)
{
	struct report_policy *pol = &r->policy;
	const struct ucopy_cpu *cpu = ucopy_cpu();
	struct calibration *cal = calloc(1, sizeof *cal);
	if (!cal)
		return -1;
	calibration_init(cal);
	struct ucopy_policy ap;
	char err[256];
	if (ucopy_policy_resolve(&ap, "auto", cpu->features, err, sizeof err) == 0) {
		ucopy_policy_fit(&ap, cpu->features, err, sizeof err);
		/* auto's rules (non-temporal stores) above the largest size
		 * the sweep measured. */
		cal->inherit = &ap;
	}
	cal->l2 = cpu->l2;
	cal->keep_tail = 1;
	const struct report_sweep *sw[2] = { &r->hot, &r->cold };
	for (int st = 0; st < 2; st++) {
		const struct report_sweep *s = sw[st];
		for (size_t i = 0; i < s->nsize; i++) {
			struct cal_point *pt = calibration_point(cal, s->size[i]);
			if (!pt)
				break;
			for (size_t k = 0; k < r->ilibc; k++) {
				const struct ucopy_kernel *kk = ucopy_kernel_find(r->var[k].name);
				size_t j = k * s->nsize + i;
				if (!kk || !(kk->flags & UCOPY_KERNEL_FAULT_CAPABLE) ||
				    calibration_kernel_index(kk) < 0 || !isfinite(s->ns[j]))
					continue;
				calibration_set(cal, pt, st ? CAL_COLD : CAL_HOT, kk, s->ns[j],
						s->vs_best[j].lo, s->vs_best[j].hi);
			}
		}
	}
	const struct report_probes *p = &r->probes;
	for (size_t s = 0; s < p->nsize; s++) {
		for (size_t j = 0; j <= p->nd; j++) {
			struct cal_probe *cp = calibration_probe(cal, p->size[s], 0,
								 j < p->nd ? p->d[j] : PROBE_CONTROL);
			for (size_t k = 0; cp && k < p->nk; k++) {
				const struct ucopy_kernel *kk = ucopy_kernel_find(r->var[k].name);
				int ki = kk ? calibration_kernel_index(kk) : -1;
				if (ki >= 0)
					cp->ns[ki] = j < p->nd ? p->ns[(k * p->nsize + s) * p->nd + j]
							       : p->control[k * p->nsize + s];
			}
		}
		for (size_t k = 0; k < p->nk; k++) {
			const struct ucopy_kernel *kk = ucopy_kernel_find(r->var[k].name);
			double ctl = p->control[k * p->nsize + s];
			size_t wj = SIZE_MAX;
			double w = 0;
			for (size_t j = 0; j < p->nd; j++) {
				double q = p->ns[(k * p->nsize + s) * p->nd + j] / ctl;
				if (isfinite(q) && q > w) {
					w = q;
					wj = j;
				}
			}
			/* The confirmed ratio (run_probes) decides. */
			w = p->worst[k * p->nsize + s];
			if (kk && wj != SIZE_MAX && w >= CAL_CLIFF)
				calibration_add_cliff(cal, kk, p->size[s], w, 0, p->d[wj]);
		}
	}
	calibration_derive(cal);
	snprintf(pol->source, sizeof pol->source, "calibration");
	if (cal->policy.nrules)
		ucopy_policy_format(&cal->policy, pol->text, sizeof pol->text);
	pol->nthr = 0;
	for (unsigned i = 0; i < cal->ncross && pol->nthr < COUNT(pol->thr); i++) {
		const struct cal_cross *c = &cal->cross[i];
		struct report_threshold *t = &pol->thr[pol->nthr++];
		t->limit = c->limit;
		snprintf(t->from, sizeof t->from, "%s", c->from ? c->from->name : "?");
		snprintf(t->to, sizeof t->to, "%s", c->to ? c->to->name : "?");
		t->inherited = c->inherited;
		t->below = c->below;
		t->at = c->at;
		t->ratio_below = t->ratio_at = NAN;
		for (unsigned e = 0; e < c->nev; e++) {
			if (c->ev_size[e] == c->below)
				t->ratio_below = c->ev_ratio[e];
			if (c->ev_size[e] == c->at)
				t->ratio_at = c->ev_ratio[e];
		}
	}
	snprintf(pol->note, sizeof pol->note, "%s", cal->nnotes ? cal->notes[0] : "");
	calibration_free(cal);
	free(cal);
	return 0;
}

/*=====   Named policies on the workloads   =====*/

/* The report's policies: the library's named ones, then these. */
static const char *const policy_last[] = { "auto", "libc" };

static const char *policy_name(size_t i)
{
	size_t n = 0;
	while (ucopy_policy_named(n))
		n++;
	return i < n ? ucopy_policy_named(i) : i < n + COUNT(policy_last) ? policy_last[i - n] : NULL;
}

/* Appends a sentence to the workloads' note: several workloads may add one. */
static void reason_add(struct report_workloads *w, const char *fmt, ...)
{
	size_t len = strlen(w->reason);
	if (len && len + 1 < sizeof w->reason)
		w->reason[len++] = ' ';
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(w->reason + len, sizeof w->reason - len, fmt, ap);
	va_end(ap);
}

static int run_workloads(struct ctx *x)
{
	struct report_workloads *w = &x->r->work;
	const struct ucopy_cpu *cpu = ucopy_cpu();
	size_t npol = 0, nwork = 0;
	while (policy_name(npol))
		npol++;
	/* dist:FILE is the distributions section's job. */
	for (size_t i = 0; workload_list_name(i); i++)
		nwork += !strchr(workload_list_name(i), ':');
	struct ucopy_policy *pol = calloc(npol, sizeof *pol);
	struct variant *v = calloc(npol, sizeof *v);
	struct variant_summary *sum = calloc(npol, sizeof *sum);
	w->pol_name = calloc(npol, sizeof *w->pol_name);
	w->pol_text = calloc(npol, sizeof *w->pol_text);
	w->work_name = calloc(nwork ? nwork : 1, sizeof *w->work_name);
	w->work_what = calloc(nwork ? nwork : 1, sizeof *w->work_what);
	w->ns = malloc((npol * nwork + 1) * sizeof *w->ns);
	w->vs_best = malloc((npol * nwork + 1) * sizeof *w->vs_best);
	w->best = calloc(nwork + 1, sizeof *w->best);
	int rc = -1;
	if (!pol || !v || !sum || !w->pol_name || !w->pol_text || !w->work_name ||
	    !w->work_what || !w->ns || !w->vs_best || !w->best)
		goto out;
	size_t np = 0;
	for (size_t i = 0; i < npol; i++) {
		char err[256], note[256];
		if (ucopy_policy_resolve(&pol[np], policy_name(i), w->features, err,
					 sizeof err) < 0)
			continue;   /* a name this architecture does not have */
		ucopy_policy_fit(&pol[np], cpu->features, note, sizeof note);
		snprintf(w->pol_name[np], REPORT_NAME, "%s", policy_name(i));
		ucopy_policy_format(&pol[np], w->pol_text[np], sizeof w->pol_text[np]);
		variant_policy(&v[np], policy_name(i), &pol[np], 0);
		np++;
	}
	w->npol = np;
	size_t k = 0;
	for (size_t i = 0; workload_list_name(i) && k < nwork; i++) {
		const char *name = workload_list_name(i);
		if (strchr(name, ':'))
			continue;
		for (size_t p = 0; p < np; p++) {
			w->ns[p * nwork + k] = NAN;
			w->vs_best[p * nwork + k].est = w->vs_best[p * nwork + k].lo =
				w->vs_best[p * nwork + k].hi = NAN;
		}
		snprintf(w->work_name[k], REPORT_NAME, "%s", name);
		snprintf(w->work_what[k], sizeof w->work_what[k], "%s", workload_list_models(i));
		struct workload wl;
		struct workload_opts o = { .name = name, .seed = x->seed };
		char err[200];
		size_t best = 0;
		step(x, "policies on workload %s", name);
		if (workload_setup(&wl, &o, err, sizeof err) != 0) {
			reason_add(w, "%s: %s", name, err);
		} else if (x->quick && wl.cell.src.region + wl.cell.dst.region > QUICK_MAX_MAP) {
			char size[32];
			fmt_size_iec(size, sizeof size, wl.cell.src.region + wl.cell.dst.region);
			snprintf(w->work_what[k], sizeof w->work_what[k], "%s", wl.what);
			reason_add(w, "%s: not run with --quick, which maps at most 256 MiB "
				   "for a workload (this one maps %s).", name, size);
			workload_free(&wl);
		} else {
			snprintf(w->work_what[k], sizeof w->work_what[k], "%s", wl.what);
			if (run_cell(x, v, np, &wl.cell, SIZE_MAX, sum, NULL, &best) == 0) {
				for (size_t p = 0; p < np; p++) {
					w->ns[p * nwork + k] = sum[p].ns.median;
					w->vs_best[p * nwork + k] = sum[p].ratio;
				}
			}
			w->best[k] = best;
			workload_free(&wl);
		}
		k++;
	}
	w->nwork = k;
	rc = 0;
out:
	free(pol);
	free(v);
	free(sum);
	return rc;
}

/*=====   ucopy against libc   =====*/

static int ab_alloc(struct report_ab *a, size_t n)
{
	a->n = 0;
	a->name = calloc(n + 1, sizeof *a->name);
	a->what = calloc(n + 1, sizeof *a->what);
	a->lo = calloc(n + 1, sizeof *a->lo);
	a->hi = calloc(n + 1, sizeof *a->hi);
	a->mean_size = calloc(n + 1, sizeof *a->mean_size);
	a->ns_ucopy = calloc(n + 1, sizeof *a->ns_ucopy);
	a->ns_libc = calloc(n + 1, sizeof *a->ns_libc);
	a->ratio = calloc(n + 1, sizeof *a->ratio);
	a->nker = 0;
	a->ker = NULL;
	a->ns_alone_ucopy = a->ns_alone = NULL;
	return a->name && a->what && a->lo && a->hi && a->mean_size && a->ns_ucopy &&
	       a->ns_libc && a->ratio ? 0 : -1;
}

/* The vector kernels of REPORT_DIST_KERNELS among the sweep's variants,
 * for n rows of a.  @return : 0, or -1 out of memory. */
static int ab_alloc_alone(struct report_ab *a, const struct report *r, size_t n)
{
	static const char *const names[] = REPORT_DIST_KERNELS;
	a->ker = calloc(COUNT(names) + 1, sizeof *a->ker);
	a->ns_alone_ucopy = calloc(n + 1, sizeof *a->ns_alone_ucopy);
	a->ns_alone = calloc((n + 1) * COUNT(names), sizeof *a->ns_alone);
	if (!a->ker || !a->ns_alone_ucopy || !a->ns_alone)
		return -1;
	for (size_t k = 0; k < COUNT(names); k++)
		for (size_t v = 0; v < r->ilibc; v++)
			if (!strcmp(r->var[v].name, names[k])) {
				snprintf(a->ker[a->nker++], REPORT_NAME, "%s", names[k]);
				break;
			}
	return 0;
}

/* Times ucopy_memcpy (variant 0) against libc (1) on seq, hot, and stores
 * row i of a. */
static void ab_measure(struct ctx *x, const struct variant *sweepv,
		       struct report_ab *a, size_t i, const struct copy_seq *seq)
{
	struct variant v[2] = { sweepv[x->r->iucopy], sweepv[x->r->ilibc] };
	struct variant_summary sum[2];
	struct cell c;
	a->mean_size[i] = seq->mean_n;
	a->ns_ucopy[i] = a->ns_libc[i] = NAN;
	if (a->nker) {
		a->ns_alone_ucopy[i] = NAN;
		for (size_t k = 0; k < a->nker; k++)
			a->ns_alone[i * a->nker + k] = NAN;
	}
	a->ratio[i].est = a->ratio[i].lo = a->ratio[i].hi = NAN;
	cell_init_drawn(&c, seq, CACHE_HOT);
	/* Baseline libc: the ratio is ucopy's time over libc's. */
	if (run_cell(x, v, 2, &c, 1, sum, NULL, NULL) < 0)
		return;
	a->ns_ucopy[i] = sum[0].ns.median;
	a->ns_libc[i] = sum[1].ns.median;
	a->ratio[i] = sum[0].ratio;
	if (!a->nker)
		return;
	/* The kernels alone, in a cell without libc: ucopy first, then each
	 * by name among the sweep's variants. */
	struct variant va[1 + 8];
	struct variant_summary sa[1 + 8];
	size_t nv = 0;
	va[nv++] = sweepv[x->r->iucopy];
	for (size_t k = 0; k < a->nker; k++)
		for (size_t j = 0; j < x->r->ilibc && nv < COUNT(va); j++)
			if (!strcmp(x->r->var[j].name, a->ker[k])) {
				va[nv++] = sweepv[j];
				break;
			}
	if (nv != 1 + a->nker || run_cell(x, va, nv, &c, 0, sa, NULL, NULL) < 0)
		return;
	a->ns_alone_ucopy[i] = sa[0].ns.median;
	for (size_t k = 0; k < a->nker; k++)
		a->ns_alone[i * a->nker + k] = sa[1 + k].ns.median;
}

/* Size classes: the kernel's own thresholds (8, 64 bytes), rep movsb's
 * startup region, and then every factor of four up to the cold sizes. */
static const size_t class_lo[] = { 1, 17, 65, 257, 1025, 4097, 16385, 65537,
				   262145, 1048577, 8388609 };
static const size_t class_hi[] = { 16, 64, 256, 1024, 4096, 16384, 65536,
				   262144, 1048576, 8388608, 67108864 };

/* Sizes log-uniform within [lo, hi], offsets uniform in 0..63: every size
 * and alignment of the class counts alike, and no branch predictor learns
 * the sequence (the distributions' unlearnable length).  Above 64 KiB a
 * copy's branches are a sliver of its time, and 64 copies keep the
 * sequence's buffers sane. */
#define CLASS_SEQ_LEN DIST_SEQ_UNLEARNABLE
#define CLASS_SEQ_LEN_LARGE ((size_t)64)
static int class_seq(struct copy_seq *s, size_t lo, size_t hi, uint64_t seed)
{
	size_t len = hi <= 65536 ? CLASS_SEQ_LEN : CLASS_SEQ_LEN_LARGE;
	memset(s, 0, sizeof *s);
	s->op = calloc(len, sizeof *s->op);
	if (!s->op)
		return -1;
	struct rng g;
	rng_seed(&g, seed);
	double llo = log((double)lo), lhi = log((double)hi + 1), sum = 0;
	for (size_t i = 0; i < len; i++) {
		size_t n = (size_t)exp(llo + (lhi - llo) * rng_unit(&g));
		if (n < lo)
			n = lo;
		if (n > hi)
			n = hi;
		s->op[i].n = n;
		s->op[i].src_off = (uint32_t)rng_below(&g, 64);
		s->op[i].dst_off = (uint32_t)rng_below(&g, 64);
		if (n > s->max_n)
			s->max_n = n;
		if (s->op[i].src_off > s->max_off)
			s->max_off = s->op[i].src_off;
		if (s->op[i].dst_off > s->max_off)
			s->max_off = s->op[i].dst_off;
		sum += (double)n;
	}
	s->len = len;
	s->mean_n = sum / (double)len;
	s->seed = seed;
	return 0;
}

/* Names a's regime and the condition its rows hold under. */
static void ab_regime(struct report_ab *a, enum dist_regime g, size_t len)
{
	a->sequence = len;
	snprintf(a->regime, sizeof a->regime, "%s", dist_regime_name(g));
	dist_regime_condition(g, len, 0, a->condition, sizeof a->condition);
}

static int run_classes(struct ctx *x, const struct variant *sweepv)
{
	struct report_ab *a = &x->r->classes;
	if (ab_alloc(a, COUNT(class_lo)) < 0)
		return -1;
	ab_regime(a, REGIME_UNLEARNABLE, CLASS_SEQ_LEN);
	snprintf(a->condition, sizeof a->condition, "sizes in an order no predictor learns "
		 "(%zu copies; %zu above 64 KiB)", CLASS_SEQ_LEN, CLASS_SEQ_LEN_LARGE);
	for (size_t i = 0; i < COUNT(class_lo); i++) {
		char lo[32], hi[32];
		ucopy_size_format(class_lo[i], lo, sizeof lo);
		ucopy_size_format(class_hi[i], hi, sizeof hi);
		snprintf(a->name[i], REPORT_NAME, "%s-%s", lo, hi);
		snprintf(a->what[i], 256, "sizes %zu..%zu bytes, log-uniform; "
			 "offsets 0..63 each side", class_lo[i], class_hi[i]);
		a->lo[i] = class_lo[i];
		a->hi[i] = class_hi[i];
		step(x, "ucopy vs libc: sizes %s", a->name[i]);
		struct copy_seq seq;
		if (class_seq(&seq, class_lo[i], class_hi[i], x->seed + i) < 0)
			return -1;
		ab_measure(x, sweepv, a, i, &seq);
		copy_seq_free(&seq);
		a->n = i + 1;
	}
	return 0;
}

static int run_dists(struct ctx *x, const struct variant *sweepv, char **files,
		     size_t nfiles)
{
	struct report_ab *a = &x->r->dists, *rep = &x->r->dists_repeated;
	if (ab_alloc(a, nfiles) < 0 || ab_alloc(rep, nfiles) < 0 ||
	    ab_alloc_alone(a, x->r, nfiles) < 0 || ab_alloc_alone(rep, x->r, nfiles) < 0)
		return -1;
	ab_regime(a, REGIME_UNLEARNABLE, DIST_SEQ_UNLEARNABLE);
	ab_regime(rep, REGIME_REPEATED, DIST_SEQ_REPEAT_DEFAULT);
	for (size_t i = 0; i < nfiles; i++) {
		const char *base = path_base(files[i]);
		step(x, "ucopy vs libc: distribution %s, both regimes", base);
		struct dist d;
		if (dist_read_file(files[i], &d, x->err, sizeof x->err) < 0)
			return -1;
		struct copy_seq seq;
		for (int g = 0; g < 2; g++) {
			struct report_ab *ag = g ? rep : a;
			if (dist_regime_sample(&d, g ? REGIME_REPEATED : REGIME_UNLEARNABLE,
					       ag->sequence, x->r->seed, &seq) < 0)
				break;
			size_t k = ag->n;
			snprintf(ag->name[k], REPORT_NAME, "%.*s", (int)(strlen(base) - 4), base);
			snprintf(ag->what[k], 256, "%s format, %zu size%s up to %zu bytes, mean %.0f; "
				 "offsets %s", dist_format_name(d.format), d.n, d.n == 1 ? "" : "s",
				 d.max_size, d.mean,
				 d.has_align ? "from the file's alignment line" : "uniform 0..63");
			ab_measure(x, sweepv, ag, k, &seq);
			ag->n++;
			copy_seq_free(&seq);
		}
		dist_free(&d);
	}
	return 0;
}

/* Section weights: the sweep is the bulk of the page; the cliff matrix has
 * the most cells; the A/B rows need enough rounds for a tight interval. */
#define W_HOT 0.31
#define W_COLD 0.14
#define W_CLIFF 0.18
#define W_PROBES 0.05
#define W_WORK 0.09
#define W_CLASSES 0.08
#define W_DISTS 0.16

/*=====   All the sections   =====*/

/* The hot sweep, then the cold one (none on a --quick run). */
static int measure_sweeps(struct ctx *x, const struct variant *v)
{
	struct report *r = x->r;
	size_t sizes[64];
	/* A smoke run stops at 16 MiB: the byte loop alone needs a second
	 * for the rounds of a 64 MiB copy. */
	size_t n = sweep_sizes(1, (size_t)(x->quick ? 16 : 64) << 20, x->quick, sizes);
	if (sweep_alloc(&r->hot, "hot", r->nvar, sizes, n) < 0)
		return -1;
	/* Cold regions are 4x the LLC each side (2.4 GB to map and write on a
	 * 300 MB L3): more than a smoke run's whole budget. */
	n = x->quick ? 0 : sweep_sizes((size_t)64 << 10, (size_t)64 << 20, x->quick, sizes);
	r->cold_skipped = x->quick;
	if (sweep_alloc(&r->cold, "cold", r->nvar, sizes, n) < 0)
		return -1;
	section_begin(x, W_HOT, r->hot.nsize);
	run_sweep(x, v, &r->hot, CACHE_HOT);
	if (n) {
		section_begin(x, W_COLD, r->cold.nsize);
		run_sweep(x, v, &r->cold, CACHE_COLD);
	} else {
		x->weight_left -= W_COLD;
	}
	return 0;
}

/* The cliff matrix, the kernels' distance probes, the workloads and the
 * size classes. */
static int measure_sections(struct ctx *x, const struct variant *v)
{
	struct report *r = x->r;
	/* The full matrix needs about 25 ms a cell to give stable medians on
	 * this noisy guest; below that, sample it. */
	double cliff_time = (x->total - elapsed(x)) * W_CLIFF / x->weight_left;
	int small = x->quick || cliff_time < 216 * 0.025;
	if (cliff_alloc(&r->cliff, small) < 0)
		return -1;
	section_begin(x, W_CLIFF, r->cliff.nsize * r->cliff.nsa * report_cliff_ncol(&r->cliff));
	if (run_cliff(x, v) < 0)
		return -1;

	section_begin(x, W_PROBES, (x->quick ? COUNT(probe_size_small) : COUNT(probe_size_full)) *
					   (COUNT(probe_dist) + 1));
	if (run_probes(x, v) < 0)
		return -1;

	section_begin(x, W_WORK, 3);
	if (run_workloads(x) < 0)
		return -1;

	section_begin(x, W_CLASSES, COUNT(class_lo));
	return run_classes(x, v);
}

/* The production distributions in o->dist_dir, or the reason there are
 * none. */
static int measure_dists(struct ctx *x, const struct variant *v,
			 const struct report_measure_opts *o)
{
	struct report *r = x->r;
	char **files = NULL;
	size_t nfiles = 0;
	/* Checked before anything was timed (report.c): a file that fails in
	 * run_dists() changed since. */
	if (o->dist_dir)
		nfiles = data_list(o->dist_dir, &files, DATA_MAX_DISTS);
	int rc = 0;
	if (nfiles) {
		section_begin(x, W_DISTS, 4 * nfiles);
		rc = run_dists(x, v, files, nfiles);
	} else {
		x->weight_left -= W_DISTS;
		for (int g = 0; g < 2 && rc == 0; g++) {
			struct report_ab *a = g ? &r->dists_repeated : &r->dists;
			rc = ab_alloc(a, 0);
			ab_regime(a, g ? REGIME_REPEATED : REGIME_UNLEARNABLE,
				  g ? DIST_SEQ_REPEAT_DEFAULT : DIST_SEQ_UNLEARNABLE);
			if (rc == 0 && o->dist_dir)
				snprintf(a->reason, sizeof a->reason,
					 "no *.csv distribution files in %.200s", o->dist_dir);
			else if (rc == 0)
				snprintf(a->reason, sizeof a->reason, "%.200s (or give --dist-dir)",
					 o->dist_why);
		}
	}
	data_list_free(files, nfiles);
	return rc;
}

int report_measure(struct report *r, const struct report_measure_opts *o)
{
	struct ctx x = {
		.r = r, .quick = r->quick, .quiet = o->quiet, .verbose = o->verbose,
		.tty = isatty(2), .total = r->budget,
		.weight_left = W_HOT + W_COLD + W_CLIFF + W_PROBES + W_WORK + W_CLASSES +
			       W_DISTS,
		.min_rounds = MEASURE_MIN_ROUNDS,
		.seed = r->seed,
	};
	int rc = -1;
	struct variant *v = NULL;
	r->work.assume = o->assume;
	r->work.features = o->assume ? o->features : ucopy_cpu()->features;
	x.m = measure_new();
	if (!x.m || build_variants(r, &v) < 0)
		goto done;
	r->timer = timer_name();
	x.start = clock_seconds();
	step(&x, "starting: %zu variants, %.0f s budget", r->nvar, r->budget);

	if (measure_sweeps(&x, v) < 0 || measure_sections(&x, v) < 0 ||
	    measure_dists(&x, v, o) < 0)
		goto done;
	r->elapsed = elapsed(&x);
	if (!x.quiet && x.tty)
		fputs("\r\033[K", stderr);

	rc = run_calibration(r);
done:
	if (rc < 0) {
		if (!x.quiet && x.tty)
			fputs("\r\033[K", stderr);
		cli_error("%s", x.err[0] ? x.err : "out of memory");
	}
	free(v);
	measure_free(x.m);
	return rc;
}
