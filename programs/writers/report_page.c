/*
 * report_page.c - what `ucopy report` makes of its measurements: the fastest
 * kernel per size, the crossovers, a policy, the sentences of "what this
 * means", and the HTML page that shows all of it (report.h).
 *
 * Every sentence is computed from the numbers on the same page, and says no
 * more than they do: a difference is called one only when its 95% interval
 * excludes no difference, a kernel "wins" a size by its median, and a cliff
 * is a cell at least 1.5x its size's median (the noise of this shared guest
 * reaches 1.1-1.2x; see docs/report.md).
 */
#include "html.h"
#include "machine.h"
#include "output.h"
#include "report.h"
#include "svg.h"
#include "ucopy.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Below this a difference between two medians of one sweep is within what
 * the same kernel measures twice on this guest; a crossover or a segment
 * change needs more. */
#define SAME 1.05
/* A cell this much slower than its size's median is a cliff. */
#define CLIFF 1.5

/*=====   Formatting   =====*/

static void fmt_x(double v, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (v >= 10)
		snprintf(buf, len, "%.0f\xc3\x97", v);
	else
		snprintf(buf, len, "%.2f\xc3\x97", v);
}

static void fmt_ns(double v, char *buf, size_t len)
{
	char b[32];
	fmt_num(b, sizeof b, v);
	snprintf(buf, len, "%s", b);
}

static void fmt_ci(const struct stats_interval *s, char *buf, size_t len)
{
	if (!isfinite(s->lo) || !isfinite(s->hi))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.3f\xe2\x80\x93%.3f", s->lo, s->hi);
}

/* "12.3% faster" / "4.0% slower" for a time ratio. */
static void fmt_change(double ratio, char *buf, size_t len)
{
	if (!isfinite(ratio))
		snprintf(buf, len, "-");
	else if (ratio < 1)
		snprintf(buf, len, "%.1f%% faster", 100 * (1 / ratio - 1));
	else
		snprintf(buf, len, "%.1f%% slower", 100 * (ratio - 1));
}

enum verdict { V_SAME, V_FASTER, V_SLOWER, V_NONE };

/* The interval against 1: a claim only when it excludes no difference. */
static enum verdict verdict_of(const struct stats_interval *s)
{
	if (!isfinite(s->lo) || !isfinite(s->hi))
		return V_NONE;
	if (s->hi < 1)
		return V_FASTER;
	if (s->lo > 1)
		return V_SLOWER;
	return V_SAME;
}

static const char *verdict_text(enum verdict v)
{
	switch (v) {
	case V_FASTER: return "ucopy faster";
	case V_SLOWER: return "ucopy slower";
	case V_SAME: return "no significant difference";
	default: return "not measured";
	}
}

static const char *verdict_class(enum verdict v)
{
	return v == V_FASTER ? "good" : v == V_SLOWER ? "bad" : NULL;
}

/*=====   Analysis   =====*/

static double at(const struct report_sweep *s, size_t v, size_t i)
{
	return s->ns[v * s->nsize + i];
}

static size_t var_index(const struct report *r, const char *name)
{
	for (size_t i = 0; i < r->nvar; i++)
		if (!strcmp(r->var[i].name, name))
			return i;
	return SIZE_MAX;
}

/* The fastest kernel at size i (libc and ucopy are not kernels). */
static size_t winner(const struct report *r, const struct report_sweep *s,
		     size_t i, size_t *second)
{
	size_t w = SIZE_MAX, w2 = SIZE_MAX;
	for (size_t v = 0; v < r->ilibc; v++) {
		double t = at(s, v, i);
		if (!isfinite(t))
			continue;
		if (w == SIZE_MAX || t < at(s, w, i)) {
			w2 = w;
			w = v;
		} else if (w2 == SIZE_MAX || t < at(s, w2, i)) {
			w2 = v;
		}
	}
	if (second)
		*second = w2;
	return w;
}

static void segments(struct report *r, const struct report_sweep *s)
{
	if (!s->nsize)
		return;
	size_t *win = malloc(s->nsize * sizeof *win);
	if (!win)
		return;
	/* The kernel of a run stays while it is within the noise of the
	 * size's winner: a change of "fastest" by 1% is not a crossover. */
	size_t cur = SIZE_MAX;
	for (size_t i = 0; i < s->nsize; i++) {
		size_t w = winner(r, s, i, NULL);
		if (cur == SIZE_MAX || w == SIZE_MAX || !(at(s, cur, i) <= SAME * at(s, w, i)))
			cur = w;
		win[i] = cur;
	}
	size_t i = 0;
	while (i < s->nsize && r->nseg < sizeof r->seg / sizeof r->seg[0]) {
		size_t j = i;
		while (j + 1 < s->nsize && win[j + 1] == win[i])
			j++;
		if (win[i] != SIZE_MAX) {
			struct report_segment *g = &r->seg[r->nseg++];
			snprintf(g->kernel, sizeof g->kernel, "%s", r->var[win[i]].name);
			snprintf(g->cache, sizeof g->cache, "%s", s->cache);
			g->from = s->size[i];
			g->to = s->size[j];
			double lsum = 0;
			size_t n = 0;
			for (size_t k = i; k <= j; k++) {
				double best2 = INFINITY;
				for (size_t v = 0; v < r->ilibc; v++)
					if (v != win[i] && at(s, v, k) < best2)
						best2 = at(s, v, k);
				if (isfinite(best2) && at(s, win[i], k) > 0) {
					lsum += log(best2 / at(s, win[i], k));
					n++;
				}
			}
			g->margin = n ? exp(lsum / (double)n) : NAN;
		}
		i = j + 1;
	}
	free(win);
}

static void add_cross(struct report *r, const struct report_sweep *s,
		      size_t a, size_t b, size_t below, size_t above)
{
	if (r->ncross >= sizeof r->cross / sizeof r->cross[0])
		return;
	for (size_t i = 0; i < r->ncross; i++)
		if (!strcmp(r->cross[i].a, r->var[a].name) &&
		    !strcmp(r->cross[i].b, r->var[b].name) &&
		    !strcmp(r->cross[i].cache, s->cache) && r->cross[i].below == s->size[below])
			return;
	struct report_crossover *c = &r->cross[r->ncross++];
	snprintf(c->a, sizeof c->a, "%s", r->var[a].name);
	snprintf(c->b, sizeof c->b, "%s", r->var[b].name);
	snprintf(c->cache, sizeof c->cache, "%s", s->cache);
	c->below = s->size[below];
	c->above = s->size[above];
	c->size = sqrt((double)c->below * (double)c->above);
	c->ratio_below = at(s, b, below) / at(s, a, below);
	c->ratio_above = at(s, b, above) / at(s, a, above);
}

static int side_at(const struct report_sweep *s, size_t a, size_t b, size_t i)
{
	double q = at(s, b, i) / at(s, a, i);
	return !isfinite(q) ? 0 : q > SAME ? 1 : q < 1 / SAME ? -1 : 0;
}

/* Where b's time over a's crosses 1 beyond the noise band, and stays
 * across for two sizes (one size across is noise on a shared machine):
 * the last size of one side and the first of the other. */
static void crossings(struct report *r, const struct report_sweep *s, size_t a,
		      size_t b)
{
	int side = 0;
	size_t last = 0;
	for (size_t i = 0; i < s->nsize; i++) {
		int now = side_at(s, a, b, i);
		if (now == 0)
			continue;
		if (side && now != side) {
			size_t j = i + 1;
			while (j < s->nsize && side_at(s, a, b, j) == 0)
				j++;
			if (j < s->nsize && side_at(s, a, b, j) != now)
				continue;
			add_cross(r, s, a, b, last, i);
		}
		side = now;
		last = i;
	}
}

/* The vector kernel that wins most hot sizes, for "rep movsb against the
 * vectors". */
static size_t best_vector(const struct report *r)
{
	static const char *const vec[] = { "avx512", "avx2", "sse2" };
	size_t best = SIZE_MAX, bestwins = 0;
	for (size_t k = 0; k < 3; k++) {
		size_t v = var_index(r, vec[k]);
		if (v == SIZE_MAX)
			continue;
		size_t wins = 0;
		for (size_t i = 0; i < r->hot.nsize; i++) {
			int ok = 1;
			for (size_t o = 0; o < 3; o++) {
				size_t u = var_index(r, vec[o]);
				if (u != SIZE_MAX && u != v && at(&r->hot, u, i) < at(&r->hot, v, i))
					ok = 0;
			}
			wins += ok;
		}
		if (best == SIZE_MAX || wins > bestwins) {
			best = v;
			bestwins = wins;
		}
	}
	return best;
}

static void recommend(struct report *r)
{
	struct report_policy *p = &r->policy;
	const struct ucopy_active *a = ucopy_active();
	ucopy_policy_format(a->policy, p->active, sizeof p->active);
	snprintf(p->active_source, sizeof p->active_source, "%s",
		 ucopy_source_name(a->source));
	p->gain_auto = p->gain_libc = NAN;
	if (!p->text[0]) {
		/* No calibration: one rule per hot segment. */
		snprintf(p->source, sizeof p->source, "sweep");
		p->nthr = 0;
	}
	/* One rule per hot segment, the limit at the first size of the next
	 * segment; at most UCOPY_MAX_RULES (later segments merge into the
	 * last rule). */
	const struct report_segment *hot = r->seg;
	size_t nhot = 0;
	while (nhot < r->nseg && !strcmp(r->seg[nhot].cache, "hot"))
		nhot++;
	if (!p->text[0] && nhot) {
		/* At most UCOPY_MAX_RULES: later segments merge into the last. */
		size_t n = nhot < UCOPY_MAX_RULES ? nhot : UCOPY_MAX_RULES;
		char rule[REPORT_NAME + 40];
		for (size_t i = 0; i + 1 < n; i++) {
			char lim[32];
			ucopy_size_format(hot[i + 1].from, lim, sizeof lim);
			snprintf(rule, sizeof rule, "%s:%.63s,", lim, hot[i].kernel);
			strncat(p->text, rule, sizeof p->text - strlen(p->text) - 1);
		}
		strncat(p->text, hot[n - 1].kernel, sizeof p->text - strlen(p->text) - 1);
	}
	struct ucopy_policy pol;
	char err[256];
	if (!p->text[0] || ucopy_policy_parse(&pol, p->text, err, sizeof err) < 0) {
		snprintf(p->note, sizeof p->note, "no policy could be derived");
		p->text[0] = '\0';
		return;
	}
	/* What it would save: its kernel's time at each hot size against
	 * ucopy's and libc's, geometric mean.  The sweep copies aligned
	 * buffers, hot: an estimate, not a measurement of the policy. */
	double la = 0, ll = 0;
	size_t n = 0;
	for (size_t i = 0; i < r->hot.nsize; i++) {
		size_t k = var_index(r, ucopy_policy_kernel(&pol, r->hot.size[i])->name);
		if (k == SIZE_MAX)
			continue;
		double t = at(&r->hot, k, i), u = at(&r->hot, r->iucopy, i),
		       l = at(&r->hot, r->ilibc, i);
		if (!(t > 0 && u > 0 && l > 0))
			continue;
		la += log(u / t);
		ll += log(l / t);
		n++;
	}
	if (n) {
		p->gain_auto = exp(la / (double)n);
		p->gain_libc = exp(ll / (double)n);
	}
	if (!strcmp(p->source, "sweep"))
		snprintf(p->note, sizeof p->note,
			 "the fastest kernel at each size of the hot sweep (aligned buffers)");
}

static void find(struct report *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void find(struct report *r, const char *fmt, ...)
{
	if (r->nfind >= sizeof r->find / sizeof r->find[0])
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->find[r->nfind++], sizeof r->find[0], fmt, ap);
	va_end(ap);
}

static void describe_cell(const struct report_cliff *c, size_t cell, char *buf,
			  size_t len)
{
	size_t ncol = report_cliff_ncol(c), a = cell / ncol, col = cell % ncol;
	if (col < c->nda)
		snprintf(buf, len, "with the source at +%u and the destination at +%u "
			 "within a cache line (half a page apart)", c->sa[a], c->da[col]);
	else
		snprintf(buf, len, "when dst \xe2\x88\x92 src is %u (mod 4096), source at +%u",
			 c->d[col - c->nda], c->sa[a]);
}

static void find_segments(struct report *r)
{
	char buf[400];
	size_t off = 0, n = 0;
	for (size_t i = 0; i < r->nseg && off < sizeof buf; i++) {
		if (strcmp(r->seg[i].cache, "hot"))
			continue;
		char a[32], b[32];
		fmt_size_iec(a, sizeof a, r->seg[i].from);
		fmt_size_iec(b, sizeof b, r->seg[i].to);
		if (n < 6)
			off += snprintf(buf + off, sizeof buf - off, "%s%s %s\xe2\x80\x93%s",
					n ? ", " : "", r->seg[i].kernel, a, b);
		n++;
	}
	if (n > 6)
		find(r, "The fastest kernel on hot buffers changes %zu times over the sweep "
		     "(%s, ...): no single strategy is best everywhere.", n - 1, buf);
	else if (n > 1)
		find(r, "Fastest kernel on hot buffers, by size: %s.", buf);
	else if (n == 1)
		find(r, "One kernel is fastest on hot buffers at every size: %s.", buf);
}

static void find_movsb(struct report *r)
{
	size_t m = var_index(r, "movsb"), v = best_vector(r);
	if (m == SIZE_MAX || v == SIZE_MAX)
		return;
	const struct report_sweep *s = &r->hot;
	/* Where rep movsb is slower than the vector loop by more than the
	 * noise, and the worst of it. */
	size_t nslow = 0, worst = SIZE_MAX, first_ok = SIZE_MAX;
	double wq = 0;
	for (size_t i = 0; i < s->nsize; i++) {
		double q = at(s, m, i) / at(s, v, i);
		if (!isfinite(q))
			continue;
		if (q > SAME) {
			nslow++;
			if (q > wq) {
				wq = q;
				worst = i;
			}
		}
	}
	/* The smallest size from which rep movsb stays within the noise of
	 * the vector kernel or ahead of it up to the largest size. */
	for (size_t i = s->nsize; i-- > 0;) {
		double q = at(s, m, i) / at(s, v, i);
		if (!isfinite(q) || q > SAME)
			break;
		first_ok = i;
	}
	char ws[32], fs[32];
	if (nslow == 0) {
		find(r, "rep movsb is never slower than %s here by more than %.0f%% on hot "
		     "buffers, from the smallest size to the largest.",
		     r->var[v].name, 100 * (SAME - 1));
		return;
	}
	fmt_size_iec(ws, sizeof ws, s->size[worst]);
	if (first_ok != SIZE_MAX && first_ok > 0) {
		fmt_size_iec(fs, sizeof fs, s->size[first_ok]);
		find(r, "rep movsb loses to %s below %s (%.1f\xc3\x97 slower at %s) and is "
		     "within %.0f%% of it or faster from %s up, on hot buffers.",
		     r->var[v].name, fs, wq, ws, 100 * (SAME - 1), fs);
	} else {
		find(r, "rep movsb is slower than %s at %zu of %zu sizes on hot buffers "
		     "(%.1f\xc3\x97 at %s).", r->var[v].name, nslow, s->nsize, wq, ws);
	}
}

static void find_cliffs(struct report *r)
{
	const struct report_cliff *c = &r->cliff;
	static const char *const who[2] = { "ucopy_memcpy", "libc's memcpy" };
	size_t ncol = report_cliff_ncol(c), nper = c->nsa * ncol;
	for (size_t v = 0; v < c->nvar && c->nsize; v++) {
		size_t ws = SIZE_MAX;
		for (size_t s = 0; s < c->nsize; s++)
			if (isfinite(c->worst[v * c->nsize + s]) &&
			    (ws == SIZE_MAX || c->worst[v * c->nsize + s] > c->worst[v * c->nsize + ws]))
				ws = s;
		if (ws == SIZE_MAX)
			continue;
		double w = c->worst[v * c->nsize + ws];
		char sz[32], cell[200];
		fmt_size_iec(sz, sizeof sz, c->size[ws]);
		describe_cell(c, c->worst_cell[v * c->nsize + ws], cell, sizeof cell);
		if (w < CLIFF) {
			find(r, "%s has no cliff in the alignment and distance matrix: its "
			     "slowest cell is %.2f\xc3\x97 its size's median (at %s).",
			     who[v], w, sz);
			continue;
		}
		/* Are all the cliff cells at a small positive distance? */
		size_t ncliff = 0, nnear = 0;
		for (size_t s = 0; s < c->nsize; s++)
			for (size_t i = 0; i < nper; i++) {
				double sd = c->slowdown[(v * c->nsize + s) * nper + i];
				if (!(sd >= CLIFF))
					continue;
				ncliff++;
				size_t col = i % ncol;
				if (col >= c->nda && c->d[col - c->nda] < 64)
					nnear++;
			}
		find(r, "%s takes %.1f\xc3\x97 its usual time at %s %s%s", who[v], w, sz,
		     cell, nnear == ncliff ? "" : ".");
		if (nnear == ncliff) {
			/* Append to the sentence just written. */
			char *t = r->find[r->nfind - 1];
			size_t l = strlen(t);
			snprintf(t + l, sizeof r->find[0] - l,
				 "; every one of its %zu cliff cells (\xe2\x89\xa5%.1f\xc3\x97) has "
				 "dst \xe2\x88\x92 src mod 4096 below 64.", ncliff, CLIFF);
		}
	}
}

static void find_probes(struct report *r)
{
	const struct report_probes *p = &r->probes;
	size_t wk = SIZE_MAX, ws = 0;
	for (size_t k = 0; k < p->nk; k++)
		for (size_t s = 0; s < p->nsize; s++) {
			double w = p->worst[k * p->nsize + s];
			if (isfinite(w) && (wk == SIZE_MAX || w > p->worst[wk * p->nsize + ws])) {
				wk = k;
				ws = s;
			}
		}
	if (wk == SIZE_MAX)
		return;
	double w = p->worst[wk * p->nsize + ws];
	char sz[32];
	fmt_size_iec(sz, sizeof sz, p->size[ws]);
	if (w < CLIFF) {
		find(r, "No kernel has a 4 KiB aliasing cliff here: at dst \xe2\x88\x92 src "
		     "mod 4096 below 64 the worst is %s at %s, %.2f\xc3\x97 its time half a "
		     "page apart.", r->var[wk].name, sz, w);
		return;
	}
	size_t n = 0;
	for (size_t k = 0; k < p->nk; k++)
		for (size_t s = 0; s < p->nsize; s++)
			n += p->worst[k * p->nsize + s] >= CLIFF;
	find(r, "%s falls %.1f\xc3\x97 at %s when dst \xe2\x88\x92 src mod 4096 is below "
	     "64 (%zu kernel and size pairs of the probes are %.1f\xc3\x97 or worse); the "
	     "calibrated policy avoids those kernels around those sizes.",
	     r->var[wk].name, w, sz, n, CLIFF);
}

static void find_ab(struct report *r, const struct report_ab *a, const char *what)
{
	if (!a->n)
		return;
	size_t nf = 0, ns = 0, nm = 0, bf = SIZE_MAX, bs = SIZE_MAX;
	double lsum = 0;
	for (size_t i = 0; i < a->n; i++) {
		enum verdict v = verdict_of(&a->ratio[i]);
		if (v == V_NONE)
			continue;
		nm++;
		lsum += log(a->ratio[i].est);
		if (v == V_FASTER) {
			nf++;
			if (bf == SIZE_MAX || a->ratio[i].est < a->ratio[bf].est)
				bf = i;
		} else if (v == V_SLOWER) {
			ns++;
			if (bs == SIZE_MAX || a->ratio[i].est > a->ratio[bs].est)
				bs = i;
		}
	}
	if (!nm)
		return;
	char buf[400], ch[48];
	size_t off = snprintf(buf, sizeof buf, "Against libc's memcpy on %s, ucopy_memcpy is "
			      "faster on %zu of %zu", what, nf, nm);
	if (bf != SIZE_MAX) {
		fmt_change(a->ratio[bf].est, ch, sizeof ch);
		off += snprintf(buf + off, sizeof buf - off, " (up to %s, %s)", ch, a->name[bf]);
	}
	off += snprintf(buf + off, sizeof buf - off, ", slower on %zu", ns);
	if (bs != SIZE_MAX) {
		fmt_change(a->ratio[bs].est, ch, sizeof ch);
		off += snprintf(buf + off, sizeof buf - off, " (up to %s, %s)", ch, a->name[bs]);
	}
	double g = exp(lsum / (double)nm);
	fmt_change(g, ch, sizeof ch);
	snprintf(buf + off, sizeof buf - off,
		 "; geometric mean %.3f\xc3\x97 libc's time (%s). 95%% intervals decide each row.",
		 g, ch);
	find(r, "%s", buf);
}

static void find_cold(struct report *r)
{
	const struct report_sweep *s = &r->cold;
	if (!s->nsize)
		return;
	size_t i = s->nsize - 1;
	size_t w = winner(r, s, i, NULL);
	if (w == SIZE_MAX)
		return;
	char sz[32];
	fmt_size_iec(sz, sizeof sz, s->size[i]);
	double best = s->gbps[w * s->nsize + i], u = s->gbps[r->iucopy * s->nsize + i],
	       l = s->gbps[r->ilibc * s->nsize + i];
	find(r, "At %s cold the fastest kernel is %s at %.1f GB/s; ucopy_memcpy reaches "
	     "%.1f GB/s (%.0f%% of it) and libc %.1f GB/s (%.0f%%).", sz, r->var[w].name,
	     best, u, 100 * u / best, l, 100 * l / best);
}

static void find_workloads(struct report *r)
{
	const struct report_workloads *w = &r->work;
	for (size_t k = 0; k < w->nwork; k++) {
		size_t b = w->best[k], worst = SIZE_MAX;
		if (!isfinite(w->ns[b * w->nwork + k]))
			continue;
		for (size_t p = 0; p < w->npol; p++) {
			const struct stats_interval *q = &w->vs_best[p * w->nwork + k];
			if (isfinite(q->est) &&
			    (worst == SIZE_MAX || q->est > w->vs_best[worst * w->nwork + k].est))
				worst = p;
		}
		if (worst == SIZE_MAX)
			continue;
		const struct stats_interval *q = &w->vs_best[worst * w->nwork + k];
		if (q->lo > SAME)
			find(r, "On the %s workload the fastest policy is %s; %s takes %.2f\xc3\x97 "
			     "as long (95%% interval %.2f\xe2\x80\x93%.2f).", w->work_name[k],
			     w->pol_name[b], w->pol_name[worst], q->est, q->lo, q->hi);
		else
			find(r, "On the %s workload every policy is within %.0f%% of the fastest "
			     "(%s).", w->work_name[k], 100 * (SAME - 1), w->pol_name[b]);
	}
}

void report_analyse(struct report *r)
{
	r->nseg = r->ncross = r->nfind = 0;
	segments(r, &r->hot);
	size_t nhot = r->nseg;
	segments(r, &r->cold);
	/* Crossovers: where the fastest kernel changes, and rep movsb against
	 * the vector loop (the choice the kernel's history is about). */
	for (size_t i = 0; i + 1 < r->nseg; i++) {
		if (i + 1 == nhot)
			continue;
		const struct report_sweep *s = i < nhot ? &r->hot : &r->cold;
		size_t a = var_index(r, r->seg[i].kernel), b = var_index(r, r->seg[i + 1].kernel);
		size_t below = SIZE_MAX, above = SIZE_MAX;
		for (size_t k = 0; k < s->nsize; k++) {
			if (s->size[k] == r->seg[i].to)
				below = k;
			if (s->size[k] == r->seg[i + 1].from)
				above = k;
		}
		/* A change of run both sides of which are within the noise
		 * is not worth a row. */
		if (a != SIZE_MAX && b != SIZE_MAX && below != SIZE_MAX && above != SIZE_MAX &&
		    a != b && (at(s, b, below) / at(s, a, below)) /
					  (at(s, b, above) / at(s, a, above)) > SAME * SAME)
			add_cross(r, s, a, b, below, above);
	}
	size_t m = var_index(r, "movsb"), v = best_vector(r);
	if (m != SIZE_MAX && v != SIZE_MAX)
		crossings(r, &r->hot, v, m);
	/* The widest streaming kernel this CPU runs. */
	size_t nt = var_index(r, "nt512");
	if (nt == SIZE_MAX)
		nt = var_index(r, "nt");
	if (nt != SIZE_MAX && m != SIZE_MAX)
		crossings(r, &r->cold, m, nt);
	crossings(r, &r->hot, r->ilibc, r->iucopy);
	recommend(r);

	find_segments(r);
	find_movsb(r);
	find_cliffs(r);
	find_probes(r);
	find_ab(r, &r->classes, "size classes with random offsets");
	find_ab(r, &r->dists, "the production size distributions");
	find_cold(r);
	find_workloads(r);
	const struct report_policy *p = &r->policy;
	if (isfinite(p->gain_auto) && isfinite(p->gain_libc))
		find(r, "The %s policy for this machine is %s; on the hot sweep its kernels "
		     "take 1/%.2f of ucopy_memcpy's time and 1/%.2f of libc's (geometric "
		     "mean over sizes, aligned buffers: an estimate).",
		     strcmp(p->source, "sweep") ? "calibrated" : "fastest-per-size",
		     p->text, p->gain_auto, p->gain_libc);
}

/*=====   The page   =====*/

static void meta(FILE *f, const char *dt, const char *dd)
{
	fputs("<dt>", f);
	html_escape(f, dt);
	fputs("</dt><dd>", f);
	html_escape(f, dd);
	fputs("</dd>\n", f);
}

static void para(FILE *f, const char *cls, const char *s)
{
	fprintf(f, "<p%s%s%s>", cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
	html_escape(f, s);
	fputs("</p>\n", f);
}

static void header(FILE *f, const struct report *r)
{
	const struct ucopy_cpu *c = ucopy_cpu();
	char buf[640], l1[16], l2[16], l3[16];
	fputs("<h1>ucopy report</h1>\n", f);
	snprintf(buf, sizeof buf, "Copy performance on %s, %s.",
		 c->brand[0] ? c->brand : "an unknown CPU", r->date);
	para(f, "sub", buf);
	fputs("<dl class=\"meta\" id=\"machine\">\n", f);
	snprintf(buf, sizeof buf, "%s %s, family %u model %u stepping %u (%s)",
		 c->brand[0] ? c->brand : "unknown", c->vendor, c->family, c->model,
		 c->stepping, c->arch);
	meta(f, "CPU", buf);
	meta(f, "Features", r->features[0] ? r->features : "none detected");
	ucopy_size_format(c->l1d, l1, sizeof l1);
	ucopy_size_format(c->l2, l2, sizeof l2);
	ucopy_size_format(c->l3, l3, sizeof l3);
	snprintf(buf, sizeof buf, "L1d %s, L2 %s, L3 %s", l1, l2, l3);
	meta(f, "Caches", buf);
	meta(f, "Kernel", machine_kernel());
	snprintf(buf, sizeof buf, "%s, flags %s", machine_compiler(), machine_cflags());
	meta(f, "Compiler", buf);
	meta(f, "ucopy", ucopy_version_string());
	snprintf(buf, sizeof buf, "%s (%s)", r->policy.active, r->policy.active_source);
	meta(f, "Active policy", buf);
	meta(f, "Date", r->date);
	snprintf(buf, sizeof buf, "%.0f s asked, %.0f s measured%s", r->budget, r->elapsed,
		 r->quick ? " (--quick: fewer sizes, sampled cliff matrix)" : "");
	meta(f, "Budget", buf);
	snprintf(buf, sizeof buf, "%s; seed %llu", r->timer ? r->timer : "?",
		 (unsigned long long)r->seed);
	meta(f, "Timer", buf);
	meta(f, "Command", r->command);
	fputs("</dl>\n", f);
}

static void chart_sweep(FILE *f, const struct report *r, const struct report_sweep *s,
			const char *id, int gbps, const char *title)
{
	struct svg_series *ser = calloc(s->nvar, sizeof *ser);
	double *x = malloc(s->nsize * sizeof *x);
	if (!ser || !x) {
		free(ser);
		free(x);
		return;
	}
	for (size_t i = 0; i < s->nsize; i++)
		x[i] = (double)s->size[i];
	for (size_t v = 0; v < s->nvar; v++) {
		ser[v].name = r->var[v].name;
		ser[v].note = v == r->iucopy ? strchr(r->var[v].label, '(') : NULL;
		ser[v].x = x;
		ser[v].y = (gbps ? s->gbps : s->ns) + v * s->nsize;
		ser[v].n = s->nsize;
		ser[v].color = (unsigned)v;
		ser[v].highlight = v == r->ilibc;
		ser[v].dashed = v == r->iucopy;
	}
	struct svg_line_chart c = {
		.id = id,
		.title = title,
		.xlabel = "copy size (bytes, log scale)",
		.ylabel = gbps ? "GB/s (log scale; higher is better)"
			       : "time per copy (log scale; lower is better)",
		.yunit = gbps ? SVG_PLAIN : SVG_NS,
		.series = ser,
		.nseries = s->nvar,
	};
	fputs("<div class=\"scroll\">\n", f);
	svg_line_chart(f, &c);
	fputs("</div>\n", f);
	free(ser);
	free(x);
}

/* The cliff heatmap's labels and per-cell text. */
struct cliff_view {
	const struct report *r;
	char **row_label, **row_group, **col_label, **col_group, **col_panel;
};

static void cliff_attrs(void *ctx, size_t row, size_t col, char *buf, size_t len)
{
	const struct cliff_view *cv = ctx;
	const struct report_cliff *c = &cv->r->cliff;
	size_t ncol = report_cliff_ncol(c);
	size_t s = row / c->nsa, a = row % c->nsa, v = col / ncol, k = col % ncol;
	uint32_t so, dof;
	report_cliff_offsets(c, a, k, &so, &dof);
	snprintf(buf, len, " data-variant=\"%s\" data-size=\"%zu\" data-src-offset=\"%u\" "
		 "data-dst-offset=\"%u\"", v ? "libc" : "ucopy", c->size[s], so, dof);
}

static void cliff_title(void *ctx, size_t row, size_t col, char *buf, size_t len)
{
	const struct cliff_view *cv = ctx;
	const struct report *r = cv->r;
	const struct report_cliff *c = &r->cliff;
	size_t ncol = report_cliff_ncol(c), nper = c->nsa * ncol;
	size_t s = row / c->nsa, a = row % c->nsa, v = col / ncol, k = col % ncol;
	uint32_t so, dof;
	report_cliff_offsets(c, a, k, &so, &dof);
	double ns = c->ns[(v * c->nsize + s) * nper + a * ncol + k];
	double sd = c->slowdown[(v * c->nsize + s) * nper + a * ncol + k];
	char sz[32];
	fmt_size_iec(sz, sizeof sz, c->size[s]);
	snprintf(buf, len, "%s, %s, src page offset %u, dst %u (dst - src = %u): %.1f ns, "
		 "%.2fx the median of this size (%.1f ns)", v ? "libc" : "ucopy", sz, so, dof,
		 (dof - so) & 4095u, ns, sd, c->median[v * c->nsize + s]);
}

static char *dupf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *dupf(const char *fmt, ...)
{
	char buf[128];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return strdup(buf);
}

static void chart_cliff(FILE *f, const struct report *r)
{
	const struct report_cliff *c = &r->cliff;
	size_t ncol = report_cliff_ncol(c), nper = c->nsa * ncol;
	size_t nrows = c->nsize * c->nsa, ncols = c->nvar * ncol;
	if (!nrows || !ncols)
		return;
	struct cliff_view cv = { .r = r };
	cv.row_label = calloc(nrows, sizeof(char *));
	cv.row_group = calloc(nrows, sizeof(char *));
	cv.col_label = calloc(ncols, sizeof(char *));
	cv.col_group = calloc(ncols, sizeof(char *));
	cv.col_panel = calloc(ncols, sizeof(char *));
	double *val = malloc(nrows * ncols * sizeof *val);
	unsigned char *lab = calloc(nrows * ncols, 1);
	if (!cv.row_label || !cv.row_group || !cv.col_label || !cv.col_group ||
	    !cv.col_panel || !val || !lab)
		goto out;
	for (size_t s = 0; s < c->nsize; s++)
		for (size_t a = 0; a < c->nsa; a++) {
			char sz[32];
			fmt_size_iec(sz, sizeof sz, c->size[s]);
			cv.row_group[s * c->nsa + a] = dupf("%s", sz);
			cv.row_label[s * c->nsa + a] = dupf("src +%u", c->sa[a]);
		}
	for (size_t v = 0; v < c->nvar; v++)
		for (size_t k = 0; k < ncol; k++) {
			size_t i = v * ncol + k;
			cv.col_panel[i] = dupf("%s", v ? "libc (memcpy)" : r->var[r->iucopy].label);
			if (k < c->nda) {
				cv.col_group[i] = dupf("dst align");
				cv.col_label[i] = dupf("+%u", c->da[k]);
			} else {
				cv.col_group[i] = dupf("dst \xe2\x88\x92 src");
				uint32_t d = c->d[k - c->nda];
				cv.col_label[i] = d >= 1024 && d % 1024 == 0 ? dupf("%uK", d / 1024)
									      : dupf("%u", d);
			}
		}
	for (size_t row = 0; row < nrows; row++)
		for (size_t col = 0; col < ncols; col++) {
			size_t s = row / c->nsa, a = row % c->nsa, v = col / ncol, k = col % ncol;
			size_t idx = (v * c->nsize + s) * nper + a * ncol + k;
			double sd = c->slowdown[idx];
			val[row * ncols + col] = sd;
			/* Label the cliffs, and the worst cell of each size when
			 * it stands out at all. */
			lab[row * ncols + col] =
				sd >= CLIFF || (c->worst_cell[v * c->nsize + s] == a * ncol + k &&
						sd >= 1.2);
		}
	for (size_t i = 0; i < nrows; i++)
		if (!cv.row_label[i] || !cv.row_group[i])
			goto out;
	for (size_t i = 0; i < ncols; i++)
		if (!cv.col_label[i] || !cv.col_group[i] || !cv.col_panel[i])
			goto out;
	struct svg_heatmap h = {
		.id = "chart-cliff",
		.title = "Cliff matrix: time per copy over the size's median cell, by "
			 "alignment and distance",
		.nrows = nrows,
		.ncols = ncols,
		.row_label = (const char *const *)cv.row_label,
		.row_group = (const char *const *)cv.row_group,
		.col_label = (const char *const *)cv.col_label,
		.col_group = (const char *const *)cv.col_group,
		.col_panel = (const char *const *)cv.col_panel,
		.col_caption = NULL,
		.value = val,
		.labelled = lab,
		.cell_attrs = cliff_attrs,
		.cell_title = cliff_title,
		.ctx = &cv,
	};
	fputs("<div class=\"scroll\">\n", f);
	svg_heatmap(f, &h);
	fputs("</div>\n", f);
out:
	for (size_t i = 0; cv.row_label && i < nrows; i++) {
		free(cv.row_label[i]);
		free(cv.row_group[i]);
	}
	for (size_t i = 0; cv.col_label && i < ncols; i++) {
		free(cv.col_label[i]);
		free(cv.col_group[i]);
		free(cv.col_panel[i]);
	}
	free(cv.row_label);
	free(cv.row_group);
	free(cv.col_label);
	free(cv.col_group);
	free(cv.col_panel);
	free(val);
	free(lab);
}

static void table_segments(FILE *f, const struct report *r)
{
	static const char *const head[] = { "cache", "sizes", "fastest kernel",
					    "lead over the next kernel" };
	struct html_table t;
	html_table_begin(&t, f, "t-segments", "The fastest kernel by size (medians of the sweep)",
			 4, head, "llll");
	for (size_t i = 0; i < r->nseg; i++) {
		const struct report_segment *g = &r->seg[i];
		char a[32], b[32], range[80], lead[48], key[48];
		fmt_size_iec(a, sizeof a, g->from);
		fmt_size_iec(b, sizeof b, g->to);
		if (g->from == g->to)
			snprintf(range, sizeof range, "%s", a);
		else
			snprintf(range, sizeof range, "%s \xe2\x80\x93 %s", a, b);
		fmt_x(g->margin, lead, sizeof lead);
		snprintf(key, sizeof key, "seg-%zu", i);
		const char *cells[] = { g->cache, range, g->kernel, lead };
		html_table_row(&t, key, cells, NULL);
	}
	html_table_end(&t);
}

static void table_crossovers(FILE *f, const struct report *r)
{
	static const char *const head[] = { "kernels (a \xe2\x86\x92 b)", "cache",
					    "crossover at about", "b/a time below",
					    "b/a time above" };
	struct html_table t;
	html_table_begin(&t, f, "t-crossovers",
			 "Crossovers: where b's time over a's crosses 1 by more than 5%", 5,
			 head, "llrrr");
	for (size_t i = 0; i < r->ncross; i++) {
		const struct report_crossover *c = &r->cross[i];
		char pair[140], at_[48], lo[32], hi[32], key[48], b1[32], b2[32];
		snprintf(pair, sizeof pair, "%s \xe2\x86\x92 %s", c->a, c->b);
		svg_format_bytes(c->size, at_, sizeof at_);
		fmt_size_iec(b1, sizeof b1, c->below);
		fmt_size_iec(b2, sizeof b2, c->above);
		char atfull[120];
		snprintf(atfull, sizeof atfull, "%s (%s\xe2\x80\x93%s)", at_, b1, b2);
		fmt_x(c->ratio_below, lo, sizeof lo);
		fmt_x(c->ratio_above, hi, sizeof hi);
		snprintf(key, sizeof key, "cross-%zu", i);
		const char *cells[] = { pair, c->cache, atfull, lo, hi };
		html_table_row(&t, key, cells, NULL);
	}
	html_table_end(&t);
}

static void table_policy(FILE *f, const struct report *r)
{
	const struct report_policy *p = &r->policy;
	static const char *const head[] = { "policy", "text", "expected time vs ucopy now",
					    "expected time vs libc" };
	struct html_table t;
	html_table_begin(&t, f, "t-policy", "The policy ucopy uses and the one the data suggest",
			 4, head, "llrr");
	char src[80];
	snprintf(src, sizeof src, "active (%s)", p->active_source);
	const char *c1[] = { src, p->active, "1", NULL };
	html_table_row(&t, "active", c1, NULL);
	char ga[32], gl[32], name[80];
	if (isfinite(p->gain_auto))
		snprintf(ga, sizeof ga, "1/%.2f", p->gain_auto);
	else
		snprintf(ga, sizeof ga, "-");
	if (isfinite(p->gain_libc))
		snprintf(gl, sizeof gl, "1/%.2f", p->gain_libc);
	else
		snprintf(gl, sizeof gl, "-");
	snprintf(name, sizeof name, "%s", !strcmp(p->source, "sweep")
		 ? "fastest per size (this sweep)" : "calibrated (this run)");
	const char *c2[] = { name, p->text[0] ? p->text : "-", ga, gl };
	html_table_row(&t, "recommended", c2, NULL);
	html_table_end(&t);
	para(f, "note", "Expected time: the recommended policy's kernel at each size of the "
	     "hot sweep against ucopy_memcpy's and libc's time there, geometric mean over "
	     "the sizes (aligned buffers: an estimate, not a measurement of the policy).");
	if (p->note[0])
		para(f, "note", p->note);
	if (!p->nthr)
		return;
	static const char *const th[] = { "below", "kernel", "then", "at sizes",
					  "then/kernel time below", "then/kernel time at" };
	html_table_begin(&t, f, "t-thresholds",
			 "The calibrated policy's thresholds and the measurements behind them",
			 6, th, "rllrrr");
	for (size_t i = 0; i < p->nthr; i++) {
		const struct report_threshold *x = &p->thr[i];
		char lim[32], sizes[80], b1[32], b2[32], rb[32], ra[32], key[32];
		fmt_size_iec(lim, sizeof lim, x->limit);
		fmt_size_iec(b1, sizeof b1, x->below);
		fmt_size_iec(b2, sizeof b2, x->at);
		if (x->inherited)
			snprintf(sizes, sizeof sizes, "kept from auto (beyond the sweep)");
		else
			snprintf(sizes, sizeof sizes, "%s, %s", b1, b2);
		fmt_x(x->ratio_below, rb, sizeof rb);
		fmt_x(x->ratio_at, ra, sizeof ra);
		snprintf(key, sizeof key, "thr-%zu", i);
		const char *cells[] = { lim, x->from, x->to, sizes, rb, ra };
		html_table_row(&t, key, cells, NULL);
	}
	html_table_end(&t);
}

static void table_probes(FILE *f, const struct report *r)
{
	const struct report_probes *p = &r->probes;
	if (!p->nsize || !p->nk)
		return;
	size_t ncol = 1 + p->nsize;
	const char **head = calloc(ncol, sizeof *head);
	const char **cells = calloc(ncol, sizeof *cells);
	const char **cls = calloc(ncol, sizeof *cls);
	char (*buf)[48] = calloc(ncol, sizeof *buf);
	char (*hb)[32] = calloc(ncol, sizeof *hb);
	if (!head || !cells || !cls || !buf || !hb)
		goto out;
	head[0] = "kernel";
	for (size_t s = 0; s < p->nsize; s++) {
		fmt_size_iec(hb[s], sizeof hb[s], p->size[s]);
		head[1 + s] = hb[s];
	}
	char cap[200];
	snprintf(cap, sizeof cap, "Each kernel's slowest time at dst \xe2\x88\x92 src = "
		 "%u, %u or %u (mod 4096) over its time half a page apart",
		 p->d[0], p->nd > 1 ? p->d[1] : 0, p->nd > 2 ? p->d[2] : 0);
	struct html_table t;
	html_table_begin(&t, f, "t-probes", cap, ncol, head, NULL);
	for (size_t k = 0; k < p->nk; k++) {
		cells[0] = r->var[k].name;
		cls[0] = NULL;
		for (size_t s = 0; s < p->nsize; s++) {
			double w = p->worst[k * p->nsize + s];
			fmt_x(w, buf[s], sizeof buf[s]);
			cells[1 + s] = buf[s];
			cls[1 + s] = w >= CLIFF ? "bad" : NULL;
		}
		html_table_row(&t, r->var[k].name, cells, cls);
	}
	html_table_end(&t);
out:
	free(head);
	free(cells);
	free(cls);
	free(buf);
	free(hb);
}

static void table_cliff(FILE *f, const struct report *r)
{
	const struct report_cliff *c = &r->cliff;
	static const char *const head[] = { "size", "variant", "median ns", "worst / median",
					    "worst cell" };
	struct html_table t;
	html_table_begin(&t, f, "t-cliff", "Per size: the median cell and the slowest one", 5,
			 head, "llrrl");
	for (size_t s = 0; s < c->nsize; s++)
		for (size_t v = 0; v < c->nvar; v++) {
			size_t k = v * c->nsize + s;
			char sz[32], med[32], w[32], cell[200], key[48];
			fmt_size_iec(sz, sizeof sz, c->size[s]);
			fmt_ns(c->median[k], med, sizeof med);
			fmt_x(c->worst[k], w, sizeof w);
			describe_cell(c, c->worst_cell[k], cell, sizeof cell);
			snprintf(key, sizeof key, "cliff-%s-%zu", v ? "libc" : "ucopy", c->size[s]);
			const char *cells[] = { sz, v ? "libc" : "ucopy", med, w, cell };
			const char *cls[] = { NULL, NULL, NULL,
					      c->worst[k] >= CLIFF ? "bad" : NULL, NULL };
			html_table_row(&t, key, cells, cls);
		}
	html_table_end(&t);
}

static void table_workloads(FILE *f, const struct report *r)
{
	const struct report_workloads *w = &r->work;
	if (!w->nwork || !w->npol) {
		para(f, "note", w->reason[0] ? w->reason : "No workloads were measured.");
		return;
	}
	size_t ncol = 2 + w->nwork;
	const char **head = calloc(ncol, sizeof *head);
	const char **cells = calloc(ncol, sizeof *cells);
	const char **cls = calloc(ncol, sizeof *cls);
	char (*buf)[96] = calloc(ncol, sizeof *buf);
	char *align = calloc(ncol + 1, 1);
	if (!head || !cells || !cls || !buf || !align)
		goto out;
	head[0] = "policy";
	head[1] = "resolved here to";
	memset(align, 'r', ncol);
	align[0] = align[1] = 'l';
	for (size_t k = 0; k < w->nwork; k++)
		head[2 + k] = w->work_name[k];
	struct html_table t;
	html_table_begin(&t, f, "t-workloads",
			 "Time relative to the fastest policy on each workload, with the 95% "
			 "interval (1.00 = the fastest)", ncol, head, align);
	for (size_t p = 0; p < w->npol; p++) {
		cells[0] = w->pol_name[p];
		cells[1] = w->pol_text[p];
		cls[0] = cls[1] = NULL;
		for (size_t k = 0; k < w->nwork; k++) {
			const struct stats_interval *q = &w->vs_best[p * w->nwork + k];
			if (!isfinite(q->est))
				snprintf(buf[k], sizeof buf[k], "-");
			else if (p == w->best[k])
				snprintf(buf[k], sizeof buf[k], "1.00 (fastest)");
			else
				snprintf(buf[k], sizeof buf[k], "%.2f [%.2f\xe2\x80\x93%.2f]", q->est,
					 q->lo, q->hi);
			cells[2 + k] = buf[k];
			cls[2 + k] = !isfinite(q->est) ? NULL
				     : p == w->best[k] ? "best good"
				     : q->lo > SAME ? "bad" : NULL;
		}
		html_table_row(&t, w->pol_name[p], cells, cls);
	}
	cells[0] = "fastest: ns per copy";
	cells[1] = "";
	for (size_t k = 0; k < w->nwork; k++) {
		fmt_ns(w->ns[w->best[k] * w->nwork + k], buf[k], sizeof buf[k]);
		cells[2 + k] = buf[k];
		cls[2 + k] = NULL;
	}
	html_table_row(&t, "fastest-ns", cells, NULL);
	html_table_end(&t);
	fputs("<ul class=\"note\">\n", f);
	for (size_t k = 0; k < w->nwork; k++) {
		fputs("<li><code>", f);
		html_escape(f, w->work_name[k]);
		fputs("</code>: ", f);
		html_escape(f, w->work_what[k]);
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
	if (w->reason[0])
		para(f, "note", w->reason);
out:
	free(head);
	free(cells);
	free(cls);
	free(buf);
	free(align);
}

static void table_ab(FILE *f, const struct report_ab *a, const char *id,
		     const char *first, const char *caption)
{
	if (!a->n) {
		para(f, "note", a->reason[0] ? a->reason : "Not measured.");
		return;
	}
	const char *head[] = { first, "mean size", "ucopy ns", "libc ns", "ucopy / libc",
			       "95% interval", "verdict" };
	struct html_table t;
	html_table_begin(&t, f, id, caption, 7, head, "lrrrrrl");
	for (size_t i = 0; i < a->n; i++) {
		char ms[32], u[32], l[32], q[32], ci[48], key[80];
		fmt_num(ms, sizeof ms, a->mean_size[i]);
		fmt_ns(a->ns_ucopy[i], u, sizeof u);
		fmt_ns(a->ns_libc[i], l, sizeof l);
		if (isfinite(a->ratio[i].est))
			snprintf(q, sizeof q, "%.3f", a->ratio[i].est);
		else
			snprintf(q, sizeof q, "-");
		fmt_ci(&a->ratio[i], ci, sizeof ci);
		enum verdict v = verdict_of(&a->ratio[i]);
		snprintf(key, sizeof key, "%s", a->name[i]);
		const char *cells[] = { a->name[i], ms, u, l, q, ci, verdict_text(v) };
		const char *cls[] = { NULL, NULL, NULL, NULL, verdict_class(v), NULL,
				      verdict_class(v) };
		html_table_row(&t, key, cells, cls);
	}
	html_table_end(&t);
}

void report_write_html(FILE *f, const struct report *r)
{
	html_begin(f, "ucopy report");
	header(f, r);

	fputs("<h2 id=\"meaning\">What this means</h2>\n<ul class=\"findings\" id=\"findings\">\n", f);
	for (size_t i = 0; i < r->nfind; i++) {
		fputs("<li>", f);
		html_escape(f, r->find[i]);
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);

	fputs("<h2 id=\"sweep\">Time per copy</h2>\n", f);
	para(f, NULL, "Median time of one copy between the same two page-aligned buffers "
	     "(hot: they stay in the nearest cache that holds them), for every kernel this "
	     "CPU runs, libc's memcpy (thick line) and ucopy_memcpy (dashed). Both axes are "
	     "logarithmic: a flat line is a fixed cost, a slope of one is a bandwidth.");
	chart_sweep(f, r, &r->hot, "chart-ns", 0, "Time per copy against size, hot buffers");
	fputs("<h2 id=\"bandwidth\">Bandwidth</h2>\n", f);
	para(f, NULL, "The same copies as bytes per nanosecond (GB/s): the higher, the better.");
	chart_sweep(f, r, &r->hot, "chart-gbps", 1, "Bandwidth against size, hot buffers");
	if (r->cold_skipped)
		para(f, "note", "--quick skips the cold sweep: its buffers are four times the "
		     "last-level cache on each side.");
	if (r->cold.nsize) {
		fputs("<h3 id=\"cold\">Cold buffers, 64 KiB and up</h3>\n", f);
		para(f, NULL, "Source and destination walk regions four times the last-level "
		     "cache in a scattered order, so every copy misses the caches: what a copy "
		     "of data nobody touched recently costs.");
		chart_sweep(f, r, &r->cold, "chart-cold", 1,
			    "Bandwidth against size, cold buffers");
	}

	fputs("<h2 id=\"crossovers\">Crossovers and the policy</h2>\n", f);
	table_segments(f, r);
	table_crossovers(f, r);
	table_policy(f, r);

	fputs("<h2 id=\"cliffs\">Cliffs</h2>\n", f);
	para(f, NULL, "ucopy_memcpy and libc's memcpy on hot buffers, with the source at "
	     "four offsets in its cache line and the destination either at four offsets "
	     "half a page away or a few bytes after the source (mod 4096: the 4 KiB "
	     "aliasing distance that makes rep movsb crawl on some CPUs). Each cell is "
	     "its time over the median cell of the same size and variant; cells 1.5\xc3\x97 "
	     "and worse, and the worst of each size, carry their value.");
	if (r->cliff.sampled)
		para(f, "note", "The matrix was sampled to fit the budget: fewer sizes, "
		     "offsets and distances than a full run measures.");
	chart_cliff(f, r);
	para(f, "note", "Columns: \"dst align\" puts the destination at that offset in its "
	     "cache line, half a page from the source; \"dst \xe2\x88\x92 src\" puts it that "
	     "many bytes after the source, mod 4096. Rows: the source's offset in its "
	     "cache line. Hover a cell for its time.");
	table_cliff(f, r);
	table_probes(f, r);

	fputs("<h2 id=\"policies\">Historic policies on workloads</h2>\n", f);
	para(f, NULL, "The Linux kernel's user-copy policies over the years, resolved for "
	     "this CPU's features, and libc alone, on the copy patterns behind the "
	     "reports that changed them.");
	table_workloads(f, r);

	fputs("<h2 id=\"vs-libc\">ucopy against libc</h2>\n", f);
	para(f, NULL, "ucopy_memcpy (the active policy) and libc's memcpy interleaved on "
	     "the same random sequence of copies: a ratio below 1 means ucopy is faster. "
	     "The interval is that of the median of per-round ratios (order statistics); "
	     "a verdict is given only when it excludes 1.");
	table_ab(f, &r->classes, "t-classes", "sizes",
		 "Per size class: sizes log-uniform in the class, offsets 0..63");
	table_ab(f, &r->dists, "t-dists", "distribution",
		 "Per production size distribution (fleetbench)");

	fputs("<h2 id=\"method\">How this was measured</h2>\n", f);
	para(f, NULL, "Every cell interleaves its variants in rounds (A B C, B C A, ...) so "
	     "that drift hits them alike; a round times a batch of copies per variant, "
	     "called through a function pointer with sizes read from memory. Times are "
	     "medians over the rounds. Buffers are mapped and written before timing. "
	     "See docs/report.md for how to read each chart and table; --json writes "
	     "every number on this page.");
	html_end(f);
}
