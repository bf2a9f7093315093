/*
 * derive.c - the one derivation: from a machine's measurements (struct
 * calibration) to a policy.  `ucopy calibrate`, the report's recommendation
 * and `ucopy derive` (the rows generator) all call calibration_derive(), so
 * the same measurements give them the same policy.  The rules are stated in
 * calibration.h and docs/calibrate.md ("How the policy is derived").
 */
#include "calibration.h"

#include <math.h>
#include <string.h>

/* The ratio of k's confirmed cliff at probed size `size`; 1: none. */
static double cliff_at(const struct calibration *cal, const struct ucopy_kernel *k,
		       size_t size)
{
	double r = 1;
	for (size_t i = 0; i < cal->ncliffs; i++)
		if (cal->cliff[i].kernel == k && cal->cliff[i].size == size)
			r = fmax(r, cal->cliff[i].ratio);
	return r;
}

double calibration_worst(const struct calibration *cal, const struct ucopy_kernel *k,
			 size_t size)
{
	int ki = calibration_kernel_index(k);
	size_t below = 0, above = SIZE_MAX;
	int any_below = 0;

	/* Probed sizes: the probes that measured k, and the cliffs. */
	for (size_t i = 0; i < cal->nprobes + cal->ncliffs; i++) {
		size_t s;
		if (i < cal->nprobes) {
			if (ki < 0 || isnan(cal->probe[i].ns[ki]))
				continue;
			s = cal->probe[i].size;
		} else {
			if (cal->cliff[i - cal->nprobes].kernel != k)
				continue;
			s = cal->cliff[i - cal->nprobes].size;
		}
		if (s <= size && (!any_below || s > below)) {
			below = s;
			any_below = 1;
		}
		if (s >= size && s < above)
			above = s;
	}
	/* Between two probes the cliff may start anywhere: either side
	 * having one taints the sizes in between. */
	double r = 1;
	if (any_below)
		r = fmax(r, cliff_at(cal, k, below));
	if (above != SIZE_MAX)
		r = fmax(r, cliff_at(cal, k, above));
	return r;
}

int calibration_clean(const struct calibration *cal,
		      const struct ucopy_kernel *k, size_t size)
{
	return calibration_worst(cal, k, size) == 1;
}

size_t calibration_tidy(size_t n)
{
	size_t q = n < 128 ? 1 : n < 1024 ? 8 : n < 16384 ? 64 : 1024;
	n = (n + q / 2) / q * q;
	return n ? n : 1;
}

/* The smallest tidy size above n. */
static size_t tidy_above(size_t n)
{
	size_t q = n < 128 ? 1 : n < 1024 ? 8 : n < 16384 ? 64 : 1024;
	return n / q * q + q;
}

/*=====   One point: does a kernel win against the default?   =====*/

/* A kernel the policy may pick at pt: measured hot there, able to recover
 * from faults (a policy serves ucopy_try() too), and without a cliff near
 * the size.  A kernel with a cliff is thereby left to its guarded variant,
 * which is a kernel of its own, judged by its own measured times (the
 * guard's cost included) and its own probe cells (wins()). */
static int measured(const struct cal_point *pt, int k);

static int usable(const struct calibration *cal, const struct cal_point *pt, int k)
{
	return measured(pt, k) && calibration_clean(cal, ucopy_kernel_at((size_t)k), pt->size);
}

/* A candidate against default d: measured, and where it has a cliff, its
 * worst cell no slower than the default's worst (score x cliff <= d's
 * cliff): rep movsb's cliff on Zen 3 never pays, a 1.5x one on a kernel
 * that takes half the default's time does (docs/calibrate.md, "How the
 * policy is derived"). */
static double score(const struct calibration *cal, const struct cal_point *pt, int k, int d);

static int candidate(const struct calibration *cal, const struct cal_point *pt, int k, int d)
{
	if (!measured(pt, k))
		return 0;
	double wk = calibration_worst(cal, ucopy_kernel_at((size_t)k), pt->size);
	if (wk == 1)
		return 1;
	double wd = calibration_worst(cal, ucopy_kernel_at((size_t)d), pt->size);
	return score(cal, pt, k, d) * wk <= wd;
}

/* Measured hot at pt, and able to recover from faults. */
static int measured(const struct cal_point *pt, int k)
{
	return k >= 0 && !isnan(pt->ns[CAL_HOT][k]) &&
	       (ucopy_kernel_at((size_t)k)->flags & UCOPY_KERNEL_FAULT_CAPABLE);
}

/* k against d in state s: the ratio of medians and its bounds, from the two
 * kernels' intervals against the point's fastest.  0: not both measured. */
struct versus {
	double est, lo, hi;
};

static int versus(const struct cal_point *pt, enum cal_state s, int k, int d,
		  struct versus *v)
{
	double a = pt->ns[s][k], b = pt->ns[s][d];
	if (!(a > 0) || !(b > 0) || !isfinite(a) || !isfinite(b))
		return 0;
	v->est = a / b;
	v->lo = pt->lo[s][k] / pt->hi[s][d];
	v->hi = pt->hi[s][k] / pt->lo[s][d];
	/* Without intervals the medians are all there is. */
	if (!isfinite(v->lo) || !isfinite(v->hi) || v->lo > v->est || v->hi < v->est)
		v->lo = v->hi = v->est;
	return 1;
}

/* The win holds: at least CAL_WIN, and so at the interval's far end. */
static int holds(const struct versus *v)
{
	return v->est <= 1 - CAL_WIN && v->hi <= 1 - CAL_WIN;
}

/* A loss the interval is sure of. */
static int loses(const struct versus *v)
{
	return v->lo > 1;
}

/* Beyond the L2 a copy is judged cold as well as hot. */
static int beyond_l2(const struct calibration *cal, const struct cal_point *pt)
{
	return cal->l2 && pt->size > cal->l2;
}

/* k's ratio to d in the state that ranks kernels at pt: cold beyond the L2
 * where both were measured cold, else hot.  NaN: not comparable. */
static double score(const struct calibration *cal, const struct cal_point *pt, int k, int d)
{
	struct versus v;
	if (beyond_l2(cal, pt) && versus(pt, CAL_COLD, k, d, &v))
		return v.est;
	return versus(pt, CAL_HOT, k, d, &v) ? v.est : NAN;
}

/* k takes the point from d: it wins by CAL_WIN hot, or beyond the L2 cold,
 * and loses in neither state (nor with mixed sizes, where measured).
 * Below CAL_SHORT it must win with mixed sizes too, and without them
 * measured it does not take the point. */
static int wins(const struct calibration *cal, const struct cal_point *pt, int k, int d)
{
	struct versus hot, cold, mixed;
	int h = versus(pt, CAL_HOT, k, d, &hot);
	int c = beyond_l2(cal, pt) && versus(pt, CAL_COLD, k, d, &cold);
	int m = versus(pt, CAL_MIXED, k, d, &mixed);

	if (m && loses(&mixed))
		return 0;
	if (pt->size < CAL_SHORT && !(m && holds(&mixed)))
		return 0;
	if (h && holds(&hot) && !(c && loses(&cold)))
		return 1;
	return c && holds(&cold) && !(h && loses(&hot));
}

/* k may fill a gap between two of its bands: it loses nowhere there. */
static int ties(const struct calibration *cal, const struct cal_point *pt, int k, int d)
{
	struct versus v;
	for (unsigned s = 0; s < CAL_NSTATES; s++) {
		if (s == CAL_COLD && !beyond_l2(cal, pt))
			continue;
		if (versus(pt, (enum cal_state)s, k, d, &v) && loses(&v))
			return 0;
	}
	return 1;
}

/*=====   The default kernel   =====*/

/* Without a policy to leave (cal->inherit NULL), the default is the one
 * kernel with the least summed log ratio to each point's fastest usable
 * kernel hot, among those usable at every point; -1 when none is. */
static int overall_default(const struct calibration *cal)
{
	size_t nk = calibration_kernels();
	int best = -1;
	double best_sum = INFINITY;
	for (size_t k = 0; k < nk; k++) {
		double sum = 0;
		for (size_t i = 0; i < cal->npoints && isfinite(sum); i++) {
			const struct cal_point *pt = &cal->point[i];
			double fastest = INFINITY;
			for (size_t j = 0; j < nk; j++)
				if (usable(cal, pt, (int)j))
					fastest = fmin(fastest, pt->ns[CAL_HOT][j]);
			sum = usable(cal, pt, (int)k) ? sum + log(pt->ns[CAL_HOT][k] / fastest)
						      : INFINITY;
		}
		if (sum < best_sum) {
			best_sum = sum;
			best = (int)k;
		}
	}
	return best;
}

/* The default at each point: cal->inherit's kernel for the size, or the
 * overall default; -1 where that was not measured (a point's pick is then
 * forced: the fastest usable kernel). */
static void defaults(const struct calibration *cal, int *def)
{
	int all = cal->inherit && cal->inherit->nrules ? -1 : overall_default(cal);
	for (size_t i = 0; i < cal->npoints; i++) {
		const struct cal_point *pt = &cal->point[i];
		int d = all;
		if (all < 0 && cal->inherit && cal->inherit->nrules) {
			const struct ucopy_kernel *a = ucopy_policy_kernel(cal->inherit, pt->size);
			d = a ? calibration_kernel_index(a) : -1;
		}
		/* A default with a cliff stays a default: it is left only for
		 * a clean kernel that wins against it. */
		def[i] = d >= 0 && measured(pt, d) ? d : -1;
	}
}

/* The pick where no default is usable: the best by score() against any
 * usable kernel (the ratio orders them whatever the reference); where no
 * kernel is clean, the fastest measured fault-capable one.  -1: none. */
static int forced(const struct calibration *cal, const struct cal_point *pt)
{
	size_t nk = calibration_kernels();
	int best = -1;
	for (size_t k = 0; k < nk; k++)
		if (usable(cal, pt, (int)k) &&
		    (best < 0 || score(cal, pt, (int)k, best) < 1))
			best = (int)k;
	if (best >= 0)
		return best;
	for (size_t k = 0; k < nk; k++) {
		const struct ucopy_kernel *kk = ucopy_kernel_at(k);
		if (!isnan(pt->ns[CAL_HOT][k]) && (kk->flags & UCOPY_KERNEL_FAULT_CAPABLE) &&
		    (best < 0 || pt->ns[CAL_HOT][k] < pt->ns[CAL_HOT][best]))
			best = (int)k;
	}
	return best;
}

/*=====   Bands   =====*/

/* A band: consecutive points [first, last] where the pick leaves the
 * default for one kernel. */
struct band {
	size_t first, last;
	int kernel;
	double gain;      /* geometric mean of 1 / score() over its points */
};

struct work {
	int def[CAL_MAX_POINTS], pick[CAL_MAX_POINTS];
};

static size_t bands(const struct calibration *cal, const struct work *w, struct band *b)
{
	size_t nb = 0;
	for (size_t i = 0; i < cal->npoints; i++) {
		if (w->def[i] < 0 || w->pick[i] == w->def[i])
			continue;
		if (nb && b[nb - 1].last + 1 == i && b[nb - 1].kernel == w->pick[i]) {
			b[nb - 1].last = i;
			continue;
		}
		b[nb++] = (struct band){ i, i, w->pick[i], 0 };
	}
	for (size_t j = 0; j < nb; j++) {
		double sum = 0;
		for (size_t i = b[j].first; i <= b[j].last; i++)
			sum -= log(score(cal, &cal->point[i], b[j].kernel, w->def[i]));
		b[j].gain = exp(sum / (double)(b[j].last - b[j].first + 1));
	}
	return nb;
}

static void revert(struct work *w, const struct band *b)
{
	for (size_t i = b->first; i <= b->last; i++)
		w->pick[i] = w->def[i];
}

/* Runs of default points between two bands of one kernel that loses at
 * none of them join the bands. */
static void fill_gaps(const struct calibration *cal, struct work *w)
{
	for (size_t i = 1; i < cal->npoints; i++) {
		int k = w->pick[i - 1];
		if (w->def[i - 1] < 0 || k == w->def[i - 1] || w->pick[i] != w->def[i])
			continue;   /* not the end of a band, or no gap after it */
		size_t j = i;
		while (j < cal->npoints && w->def[j] >= 0 && w->pick[j] == w->def[j] &&
		       w->pick[j] != k && ties(cal, &cal->point[j], k, w->def[j]) &&
		       candidate(cal, &cal->point[j], k, w->def[j]))
			j++;
		/* Only between two bands: a gap filled up to a point whose
		 * default is k itself would be a band of its own that the
		 * narrow rule could give back, and the next fill take again. */
		if (j == i || j == cal->npoints || w->pick[j] != k || w->def[j] == k ||
		    w->def[j] < 0)
			continue;
		for (size_t m = i; m < j; m++)
			w->pick[m] = k;
	}
}

static void add_evidence(const struct calibration *cal, struct cal_cross *c,
			 size_t i, int to, int from)
{
	size_t first = i >= 3 ? i - 3 : 0, end = i + 3 < cal->npoints ? i + 3 : cal->npoints;
	for (size_t e = first; e < end && c->nev < CAL_MAX_EVIDENCE; e++) {
		const struct cal_point *pt = &cal->point[e];
		double r = pt->ns[CAL_HOT][to] / pt->ns[CAL_HOT][from];
		if (isfinite(r) && r > 0) {
			c->ev_size[c->nev] = pt->size;
			c->ev_ratio[c->nev++] = r;
		}
	}
}

/* The rules of cal->inherit that begin above the largest measured size
 * `top`, after the measured classes that end with `last`.  A rule already
 * in force at `top` was judged there: the measured pick goes on. */
static void inherit_tail(struct calibration *cal, size_t top,
			 const struct ucopy_kernel *last)
{
	const struct ucopy_policy *a = cal->inherit;
	for (unsigned j = 0; a && j < a->nrules; j++) {
		size_t start = j ? a->rule[j - 1].limit : 0;
		size_t end = j + 1 == a->nrules ? SIZE_MAX : a->rule[j].limit;
		const struct ucopy_kernel *k = a->rule[j].kernel;
		if (end <= top + 1 || start <= top || k == last)
			continue;
		if (cal->ncross + 1 >= UCOPY_MAX_RULES)
			break;
		struct cal_cross *c = &cal->cross[cal->ncross++];
		memset(c, 0, sizeof *c);
		c->from = last;
		c->to = k;
		c->below = top;
		c->at = c->limit = start;
		c->inherited = 1;
		last = k;
	}
}

/* cal->policy and cal->cross from the picks.  @return : the rules. */
static unsigned build(struct calibration *cal, const struct work *w)
{
	struct ucopy_policy *p = &cal->policy;
	size_t n = cal->npoints;

	memset(p, 0, sizeof *p);
	snprintf(p->name, sizeof p->name, "calibrated");
	cal->ncross = 0;
	for (size_t i = 1; i < n; i++) {
		if (w->pick[i] == w->pick[i - 1])
			continue;
		if (cal->ncross + 1 >= UCOPY_MAX_RULES)
			return UCOPY_MAX_RULES + 1;
		struct cal_cross *c = &cal->cross[cal->ncross++];
		memset(c, 0, sizeof *c);
		c->from = ucopy_kernel_at((size_t)w->pick[i - 1]);
		c->to = ucopy_kernel_at((size_t)w->pick[i]);
		c->below = cal->point[i - 1].size;
		c->at = cal->point[i].size;
		/* Just above the last size `from` won at, at most where `to`
		 * was measured to win. */
		c->limit = tidy_above(c->below);
		if (c->limit > c->at)
			c->limit = c->at;
		/* No threshold among the short sizes that no kernel was
		 * measured to win with mixed sizes there (wins()). */
		if (c->limit < CAL_SHORT && c->at >= CAL_SHORT && w->pick[i - 1] == w->def[i - 1] &&
		    isnan(cal->point[i - 1].ns[CAL_MIXED][w->pick[i]]))
			c->limit = CAL_SHORT;
		add_evidence(cal, c, i, w->pick[i], w->pick[i - 1]);
	}
	if (cal->keep_tail)
		inherit_tail(cal, cal->point[n - 1].size, ucopy_kernel_at((size_t)w->pick[n - 1]));
	p->rule[0].kernel = ucopy_kernel_at((size_t)w->pick[0]);
	p->nrules = 1;
	for (unsigned i = 0; i < cal->ncross; i++) {
		p->rule[p->nrules - 1].limit = cal->cross[i].limit;
		p->rule[p->nrules].kernel = cal->cross[i].to;
		p->nrules++;
	}
	p->rule[p->nrules - 1].limit = SIZE_MAX;
	return p->nrules;
}

/* The pick at every point: the default where no kernel wins there, else
 * one of the kernels that win, chosen so that the picks change kernel as
 * few times as they can, and among such choices with the least summed log
 * score (dynamic programming over points x kernels): where two kernels
 * both win over a run of sizes, one band of either, not an alternation
 * that follows the noise between them.  @return : -1 when a point has no
 * usable kernel at all. */
static int choose(const struct calibration *cal, struct work *w)
{
	/* A change of kernel outweighs any sum of log scores. */
	const double change = 1e6;
	double total[CAL_MAX_POINTS][CAL_MAX_KERNELS];
	int from[CAL_MAX_POINTS][CAL_MAX_KERNELS];
	size_t n = cal->npoints, nk = calibration_kernels();

	for (size_t i = 0; i < n; i++) {
		const struct cal_point *pt = &cal->point[i];
		int d = w->def[i], f = d < 0 ? forced(cal, pt) : -1, any = 0;
		if (d < 0 && f < 0)
			return -1;
		for (size_t k = 0; k < nk; k++)
			any |= d >= 0 && (int)k != d && candidate(cal, pt, (int)k, d) &&
			       wins(cal, pt, (int)k, d);
		for (size_t k = 0; k < nk; k++) {
			double cost;
			if (d < 0)
				cost = (int)k == f ? 0 : INFINITY;
			else if (!any)
				cost = (int)k == d ? 0 : INFINITY;
			else if ((int)k != d && candidate(cal, pt, (int)k, d) &&
				 wins(cal, pt, (int)k, d))
				cost = log(score(cal, pt, (int)k, d));
			else
				cost = INFINITY;
			total[i][k] = INFINITY;
			from[i][k] = -1;
			if (!isfinite(cost))
				continue;
			if (i == 0) {
				total[i][k] = cost;
				continue;
			}
			for (size_t j = 0; j < nk; j++) {
				double t = total[i - 1][j] + (j == k ? 0 : change);
				if (t < total[i][k]) {
					total[i][k] = t;
					from[i][k] = (int)j;
				}
			}
			total[i][k] += cost;
		}
	}
	int k = -1;
	for (size_t j = 0; j < nk; j++)
		if (isfinite(total[n - 1][j]) && (k < 0 || total[n - 1][j] < total[n - 1][k]))
			k = (int)j;
	for (size_t i = n; i-- > 0 && k >= 0;) {
		w->pick[i] = k;
		k = i ? from[i][k] : k;
	}
	return 0;
}

/* The band to give up first: the least gain, the smaller size on a tie. */
static const struct band *weakest(const struct band *b, size_t nb)
{
	const struct band *out = NULL;
	for (size_t j = 0; j < nb; j++)
		if (!out || b[j].gain < out->gain)
			out = &b[j];
	return out;
}

static int narrow(const struct calibration *cal, const struct band *b)
{
	return (double)cal->point[b->last].size < CAL_NARROW * (double)cal->point[b->first].size;
}

void calibration_derive(struct calibration *cal)
{
	struct work w;
	struct band b[CAL_MAX_POINTS];
	size_t n = cal->npoints;

	cal->ncross = 0;
	memset(&cal->policy, 0, sizeof cal->policy);
	snprintf(cal->policy.name, sizeof cal->policy.name, "calibrated");
	if (n == 0)
		return;
	defaults(cal, w.def);
	if (choose(cal, &w))
		return;   /* a point where no kernel can be used */
	/* Give up bands, the weakest first, until the rules are met. */
	for (;;) {
		fill_gaps(cal, &w);
		size_t nb = bands(cal, &w, b);
		const struct band *drop = NULL;
		for (size_t j = 0; j < nb; j++)
			if (narrow(cal, &b[j]) && b[j].gain < 1 + CAL_NARROW_WIN &&
			    (!drop || b[j].gain < drop->gain))
				drop = &b[j];
		if (!drop) {
			unsigned rules = build(cal, &w);
			const struct band *x = weakest(b, nb);
			if (x && (rules > UCOPY_MAX_RULES ||
				  (rules > CAL_RULES && x->gain < 1 + CAL_EXTRA_WIN)))
				drop = x;
		}
		if (!drop)
			break;
		revert(&w, drop);
	}
	build(cal, &w);
}
