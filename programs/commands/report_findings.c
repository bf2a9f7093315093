/*
 * report_findings.c - what `ucopy report` makes of its measurements: the
 * fastest kernel per size, the crossovers, a policy and the sentences of
 * "what this means" (report_analyse(), report_model.h).  The page and the JSON
 * only show what this puts in the report.
 *
 * Every sentence is computed from the numbers on the same page, and says no
 * more than they do: a difference is called one only when its 95% interval
 * excludes no difference, a kernel "wins" a size by its median, and a cliff
 * is a cell at least 1.5x its size's median (the noise of this shared guest
 * reaches 1.1-1.2x; see docs/report.md).
 */
#include "output.h"
#include "report_model.h"
#include "report_findings.h"
#include "report_fmt.h"
#include "ucopy.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	ucopy_auto_explain(p->auto_row, sizeof p->auto_row);
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
		report_describe_cell(c, c->worst_cell[v * c->nsize + ws], cell, sizeof cell);
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
	char ds[120];
	report_fmt_distances(p, ds, sizeof ds);
	if (w < CLIFF) {
		find(r, "No kernel has a 4 KiB aliasing cliff here: at dst \xe2\x88\x92 src = "
		     "%s (mod 4096) the worst is %s at %s, %.2f\xc3\x97 its time half a "
		     "page apart.", ds, r->var[wk].name, sz, w);
		return;
	}
	size_t n = 0;
	for (size_t k = 0; k < p->nk; k++)
		for (size_t s = 0; s < p->nsize; s++)
			n += p->worst[k * p->nsize + s] >= CLIFF;
	find(r, "%s falls %.1f\xc3\x97 at %s when dst \xe2\x88\x92 src (mod 4096) is one of %s "
	     "(%zu kernel and size pairs of the probes are %.1f\xc3\x97 or worse); the "
	     "calibrated policy avoids those kernels around those sizes.",
	     r->var[wk].name, w, sz, ds, n, CLIFF);
}

static void find_ab(struct report *r, const struct report_ab *a, const char *what)
{
	if (!a->n)
		return;
	size_t nf = 0, ns = 0, nm = 0, bf = SIZE_MAX, bs = SIZE_MAX;
	double lsum = 0;
	for (size_t i = 0; i < a->n; i++) {
		enum report_verdict v = report_verdict_of(&a->ratio[i]);
		if (v == RV_NONE)
			continue;
		nm++;
		lsum += log(a->ratio[i].est);
		if (v == RV_FASTER) {
			nf++;
			if (bf == SIZE_MAX || a->ratio[i].est < a->ratio[bf].est)
				bf = i;
		} else if (v == RV_SLOWER) {
			ns++;
			if (bs == SIZE_MAX || a->ratio[i].est > a->ratio[bs].est)
				bs = i;
		}
	}
	if (!nm)
		return;
	char buf[512], ch[48];
	size_t off = snprintf(buf, sizeof buf, "Against libc's memcpy on %s (%s), ucopy_memcpy "
			      "is faster on %zu of %zu", what, a->condition, nf, nm);
	if (bf != SIZE_MAX) {
		report_fmt_change(a->ratio[bf].est, ch, sizeof ch);
		off += snprintf(buf + off, sizeof buf - off, " (up to %s, %s)", ch, a->name[bf]);
	}
	off += snprintf(buf + off, sizeof buf - off, ", slower on %zu", ns);
	if (bs != SIZE_MAX) {
		report_fmt_change(a->ratio[bs].est, ch, sizeof ch);
		off += snprintf(buf + off, sizeof buf - off, " (up to %s, %s)", ch, a->name[bs]);
	}
	double g = exp(lsum / (double)nm);
	report_fmt_change(g, ch, sizeof ch);
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
		char as[160] = "";
		if (w->assume)
			snprintf(as, sizeof as, " (the policies resolved assuming %s)", w->assume);
		if (q->lo > SAME)
			find(r, "On the %s workload%s the fastest policy is %s; %s takes "
			     "%.2f\xc3\x97 as long (95%% interval %.2f\xe2\x80\x93%.2f).",
			     w->work_name[k], as, w->pol_name[b], w->pol_name[worst], q->est, q->lo,
			     q->hi);
		else
			find(r, "On the %s workload%s every policy is within %.0f%% of the fastest "
			     "(%s).", w->work_name[k], as, 100 * (SAME - 1), w->pol_name[b]);
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
	find_ab(r, &r->dists_repeated, "the production size distributions");
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
