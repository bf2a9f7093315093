/*
 * calibration.c - from measurements to the `calibrated` policy and its
 * profile file (calibration.h).
 */
#include "calibration.h"
#include "profile_keys.h"
#include "machine.h"
#include "output.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>

void calibration_init(struct calibration *cal)
{
	memset(cal, 0, sizeof *cal);
	for (unsigned r = 0; r < CAL_NREFS; r++)
		for (unsigned s = 0; s < CAL_NSTATES; s++)
			cal->gain[r][s] = NAN;
}

void calibration_free(struct calibration *cal)
{
	/* Everything is inside the struct; this is for symmetry and for a
	 * later version that allocates. */
	memset(cal, 0, sizeof *cal);
}

size_t calibration_kernels(void)
{
	size_t n = ucopy_kernel_count();
	return n < CAL_MAX_KERNELS ? n : CAL_MAX_KERNELS;
}

int calibration_kernel_index(const struct ucopy_kernel *k)
{
	for (size_t i = 0; i < ucopy_kernel_count() && i < CAL_MAX_KERNELS; i++)
		if (ucopy_kernel_at(i) == k)
			return (int)i;
	return -1;
}

int calibration_streams(const struct ucopy_kernel *k)
{
	return k && !strncmp(k->name, "nt", 2);
}

static void point_clear(struct cal_point *pt, size_t size)
{
	pt->size = size;
	for (unsigned s = 0; s < CAL_NSTATES; s++)
		for (unsigned k = 0; k < CAL_MAX_KERNELS; k++)
			pt->ns[s][k] = pt->lo[s][k] = pt->hi[s][k] = NAN;
}

struct cal_point *calibration_point(struct calibration *cal, size_t size)
{
	size_t i = 0;
	while (i < cal->npoints && cal->point[i].size < size)
		i++;
	if (i < cal->npoints && cal->point[i].size == size)
		return &cal->point[i];
	if (cal->npoints == CAL_MAX_POINTS)
		return NULL;
	memmove(&cal->point[i + 1], &cal->point[i],
		(cal->npoints - i) * sizeof cal->point[0]);
	cal->npoints++;
	point_clear(&cal->point[i], size);
	return &cal->point[i];
}

void calibration_set(struct calibration *cal, struct cal_point *pt,
		     enum cal_state s, const struct ucopy_kernel *k, double ns,
		     double lo, double hi)
{
	int i = calibration_kernel_index(k);
	(void)cal;
	if (!pt || i < 0 || (unsigned)s >= CAL_NSTATES)
		return;
	pt->ns[s][i] = ns;
	pt->lo[s][i] = lo;
	pt->hi[s][i] = hi;
}

struct cal_probe *calibration_probe(struct calibration *cal, size_t size,
				    uint32_t src, uint32_t dst)
{
	for (size_t i = 0; i < cal->nprobes; i++) {
		struct cal_probe *p = &cal->probe[i];
		if (p->size == size && p->src == src && p->dst == dst)
			return p;
	}
	if (cal->nprobes == CAL_MAX_PROBES)
		return NULL;
	struct cal_probe *p = &cal->probe[cal->nprobes++];
	p->size = size;
	p->src = src;
	p->dst = dst;
	for (unsigned k = 0; k < CAL_MAX_KERNELS; k++)
		p->ns[k] = NAN;
	return p;
}

void calibration_add_effect(struct calibration *cal, const struct ucopy_kernel *k,
			    size_t size, double distance, double align)
{
	if (cal->neffects < CAL_MAX_EFFECTS)
		cal->effect[cal->neffects++] =
			(struct cal_effect){ k, size, distance, align };
}

int calibration_add_cliff(struct calibration *cal, const struct ucopy_kernel *k,
			  size_t size, double ratio, uint32_t src, uint32_t dst)
{
	/* Several reports (or probes) of one cell must not fill the table
	 * with repeats. */
	for (size_t i = 0; i < cal->ncliffs; i++)
		if (cal->cliff[i].kernel == k && cal->cliff[i].size == size) {
			if (ratio > cal->cliff[i].ratio)
				cal->cliff[i] = (struct cal_cliff){ k, size, ratio, src, dst };
			return 0;
		}
	if (cal->ncliffs == CAL_MAX_CLIFFS)
		return -1;
	cal->cliff[cal->ncliffs++] = (struct cal_cliff){ k, size, ratio, src, dst };
	return 0;
}

void calibration_note(struct calibration *cal, const char *fmt, ...)
{
	if (cal->nnotes == sizeof cal->notes / sizeof cal->notes[0])
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cal->notes[cal->nnotes++], sizeof cal->notes[0], fmt, ap);
	va_end(ap);
}

/*=====   Judging against auto   =====*/

struct cal_check *calibration_check(struct calibration *cal, const char *name,
				    enum cal_state state, size_t size)
{
	if (cal->nchecks == CAL_MAX_CHECKS)
		return NULL;
	struct cal_check *c = &cal->check[cal->nchecks++];
	memset(c, 0, sizeof *c);
	snprintf(c->name, sizeof c->name, "%s", name);
	c->state = state;
	c->size = size;
	c->ns = c->lo = c->hi = NAN;
	for (unsigned r = 0; r < CAL_NREFS; r++)
		c->ref[r] = NAN;
	return c;
}

static int check_valid(const struct cal_check *c)
{
	return c->ns > 0 && c->ref[CAL_REF_AUTO] > 0 && c->ref[CAL_REF_LIBC] > 0 &&
	       isfinite(c->ns) && isfinite(c->ref[CAL_REF_AUTO]) &&
	       isfinite(c->ref[CAL_REF_LIBC]);
}

/* Gains of the derived policy (as_auto: of auto, whose ns is ref[AUTO]). */
static void set_gains(struct calibration *cal, int as_auto)
{
	double logsum[CAL_NREFS][CAL_NSTATES] = { { 0 } };
	unsigned count[CAL_NSTATES] = { 0 };
	for (size_t i = 0; i < cal->nchecks; i++) {
		const struct cal_check *c = &cal->check[i];
		if (!check_valid(c))
			continue;
		double ns = as_auto ? c->ref[CAL_REF_AUTO] : c->ns;
		for (unsigned r = 0; r < CAL_NREFS; r++)
			logsum[r][c->state] += log(c->ref[r] / ns);
		count[c->state]++;
	}
	for (unsigned s = 0; s < CAL_NSTATES; s++) {
		cal->gain_sizes[s] = count[s];
		for (unsigned r = 0; r < CAL_NREFS; r++)
			cal->gain[r][s] = count[s] ? exp(logsum[r][s] / count[s]) : NAN;
	}
}

/* Where the derived policy and auto pick the same kernel for a size, the
 * two time the same code and their ratio is noise: only the other checks
 * (and every mixed workload) say anything. */
static int differs(const struct calibration *cal, const struct cal_check *c)
{
	return c->state == CAL_MIXED ||
	       ucopy_policy_kernel(&cal->policy, c->size) !=
	       ucopy_policy_kernel(cal->inherit, c->size);
}

/* Why the derived policy may not be saved, or NULL. */
static const char *verdict(const struct calibration *cal, char *why, size_t len)
{
	double logsum[CAL_NSTATES] = { 0 };
	unsigned count[CAL_NSTATES] = { 0 }, ahead = 0;
	char text[256];

	ucopy_policy_format(&cal->policy, text, sizeof text);
	ucopy_policy_format(cal->inherit, why, len);
	if (!strcmp(text, why)) {
		snprintf(why, len, "auto's own");
		return why;
	}
	for (size_t i = 0; i < cal->nchecks; i++) {
		const struct cal_check *c = &cal->check[i];
		if (!check_valid(c) || !differs(cal, c))
			continue;
		/* lo, hi: the interval of ns / ns(auto); NaN (too few
		 * rounds) proves nothing. */
		if (c->state == CAL_HOT && c->lo > 1 + CAL_MAX_LOSS) {
			snprintf(why, len, "%.2fx slower than auto at %s bytes hot",
				 c->ns / c->ref[CAL_REF_AUTO], c->name);
			return why;
		}
		if (c->state == CAL_MIXED && c->lo > 1 + CAL_SIGNIFICANT) {
			snprintf(why, len, "%.2fx slower than auto on %s",
				 c->ns / c->ref[CAL_REF_AUTO], c->name);
			return why;
		}
		ahead += c->state != CAL_COLD && c->hi < 1 / (1 + CAL_SIGNIFICANT);
		logsum[c->state] += log(c->ref[CAL_REF_AUTO] / c->ns);
		count[c->state]++;
	}
	/* A mean over the sizes or workloads spreads far less than one
	 * cell: 2% behind is behind, cold too.  With one cold cell's 5%, runs
	 * on one machine kept and rejected the same policy by turns
	 * (docs/calibrate.md, "When the derived policy is saved"). */
	static const char *const what[CAL_NSTATES] = { NULL, "cold", "on mixed sizes" };
	for (int st = CAL_COLD; st <= CAL_MIXED; st++) {
		double g = count[st] ? exp(logsum[st] / count[st]) : 1;
		if (g < 1 / (1 + CAL_SIGNIFICANT)) {
			snprintf(why, len, "%.3fx auto's speed %s where they differ", g, what[st]);
			return why;
		}
	}
	unsigned n = count[CAL_HOT] + count[CAL_MIXED];
	double gain = n ? exp((logsum[CAL_HOT] + logsum[CAL_MIXED]) / n) : NAN;
	if (!(gain >= 1 + CAL_ACCEPT) || !ahead) {
		snprintf(why, len, "%.3fx auto's speed where they differ (needs %.2fx and "
			 "a workload clearly ahead)", gain, 1 + CAL_ACCEPT);
		return why;
	}
	return NULL;
}

void calibration_judge(struct calibration *cal)
{
	char why[160], text[256];
	const struct ucopy_policy *a = cal->inherit;

	cal->derived = cal->policy;
	cal->accepted = 1;
	set_gains(cal, 0);
	if (!a || a->nrules == 0 || cal->nchecks == 0 || !verdict(cal, why, sizeof why))
		return;
	cal->accepted = 0;
	ucopy_policy_format(&cal->derived, text, sizeof text);
	calibration_note(cal, "calibration found nothing better than auto: %s is %s", text, why);
	cal->policy = *a;
	snprintf(cal->policy.name, sizeof cal->policy.name, "calibrated");
	cal->ncross = 0;
	for (unsigned j = 0; j + 1 < a->nrules; j++) {
		struct cal_cross *c = &cal->cross[cal->ncross++];
		memset(c, 0, sizeof *c);
		c->from = a->rule[j].kernel;
		c->to = a->rule[j + 1].kernel;
		c->below = c->at = c->limit = a->rule[j].limit;
		c->inherited = 1;
	}
	set_gains(cal, 1);
}

/* Whether check c shows the derived policy significantly behind auto. */
static int check_loses(const struct cal_check *c)
{
	double margin = c->state == CAL_COLD ? CAL_SIGNIFICANT_COLD : CAL_SIGNIFICANT;
	return check_valid(c) && c->lo > 1 + margin;
}

int calibration_merge(struct calibration *cal)
{
	const struct ucopy_policy *d = &cal->derived, *a = cal->inherit;
	size_t cut[2 * UCOPY_MAX_RULES + 1];
	unsigned ncut = 0;

	if (!a || a->nrules == 0 || d->nrules == 0)
		return 0;
	/* The segments: every limit of either policy, in order. */
	for (unsigned i = 0, j = 0; i + 1 < d->nrules || j + 1 < a->nrules;) {
		size_t x = i + 1 < d->nrules ? d->rule[i].limit : SIZE_MAX;
		size_t y = j + 1 < a->nrules ? a->rule[j].limit : SIZE_MAX;
		size_t m = x < y ? x : y;
		cut[ncut++] = m;
		i += x == m;
		j += y == m;
	}
	cut[ncut++] = SIZE_MAX;

	/* A segment is judged by its own checks, so that a loss elsewhere (on
	 * one fleetbench file, say) does not throw away a band that won
	 * (docs/calibrate.md, "When the derived policy is saved"). */
	struct ucopy_policy m;
	memset(&m, 0, sizeof m);
	int from_auto = 0;
	size_t lo = 0;
	for (unsigned s = 0; s < ncut; lo = cut[s++]) {
		int lose = 0, ahead = 0;
		for (size_t i = 0; i < cal->nchecks; i++) {
			const struct cal_check *c = &cal->check[i];
			if (c->state == CAL_MIXED || c->size < lo || c->size >= cut[s])
				continue;
			lose |= check_loses(c);
			ahead |= check_valid(c) && c->hi < 1 / (1 + CAL_SIGNIFICANT);
		}
		/* A segment keeps the derived kernel only where a check
		 * there measured it clearly ahead and none behind: what
		 * verify did not see win is auto's.  The noise of one sweep,
		 * read as a winner and kept because verify's noise did not
		 * reject it, made three runs three policies
		 * (docs/calibrate.md, "When the derived policy is saved"). */
		lose |= !ahead;
		const struct ucopy_kernel *k = ucopy_policy_kernel(lose ? a : d, lo);
		from_auto |= lose && k != ucopy_policy_kernel(d, lo);
		if (m.nrules && m.rule[m.nrules - 1].kernel == k) {
			m.rule[m.nrules - 1].limit = cut[s];
			continue;
		}
		if (m.nrules == UCOPY_MAX_RULES)
			return 0;
		m.rule[m.nrules].kernel = k;
		m.rule[m.nrules].limit = cut[s];
		m.nrules++;
	}
	char mt[256], at[256];
	ucopy_policy_format(&m, mt, sizeof mt);
	ucopy_policy_format(a, at, sizeof at);
	if (!from_auto || !strcmp(mt, at))
		return 0;   /* nothing of auto's to take, or auto itself */

	/* The crossovers: the derived policy's where its threshold stays,
	 * else auto's (inherited). */
	struct cal_cross cross[UCOPY_MAX_RULES];
	unsigned ncross = 0;
	for (unsigned j = 0; j + 1 < m.nrules; j++) {
		struct cal_cross *c = &cross[ncross++];
		memset(c, 0, sizeof *c);
		c->from = m.rule[j].kernel;
		c->to = m.rule[j + 1].kernel;
		c->below = c->at = c->limit = m.rule[j].limit;
		c->inherited = 1;
		for (unsigned i = 0; i < cal->ncross; i++)
			if (cal->cross[i].limit == c->limit && cal->cross[i].from == c->from &&
			    cal->cross[i].to == c->to)
				*c = cal->cross[i];
	}
	m.rule[m.nrules - 1].limit = SIZE_MAX;
	snprintf(m.name, sizeof m.name, "calibrated");
	cal->policy = m;
	cal->ncross = ncross;
	memcpy(cal->cross, cross, sizeof cross[0] * ncross);
	cal->nchecks = 0;
	cal->nnotes = 0;
	calibration_note(cal, "kept the derived rules where they won and auto's where they lost "
			 "(derived %.*s)", 180, ucopy_policy_format(d, mt, sizeof mt) ? mt : "");
	return 1;
}

/*=====   The profile   =====*/

/* Numbers as the loader reads them: plain decimals, positive, no exponent
 * (%g could write 1e+06).  The command never calls setlocale(), so the
 * decimal point is '.'. */
static void put_ns(FILE *f, double v)
{
	fprintf(f, "%.2f", v < 0.01 ? 0.01 : v > 1e12 ? 1e12 : v);
}

static void put_ratio(FILE *f, double v)
{
	fprintf(f, "%.3f", v < 0.001 ? 0.001 : v > 1e9 ? 1e9 : v);
}

static void put_size(FILE *f, size_t n)
{
	char buf[32];
	ucopy_size_format(n, buf, sizeof buf);
	fputs(buf, f);
}

/* "kernel=ns" for every measured kernel; a line stays far below
 * UCOPY_PROFILE_LINE_MAX (16 kernels of about 24 bytes). */
static void put_times(FILE *f, const double *ns)
{
	for (size_t k = 0; k < calibration_kernels(); k++)
		if (!isnan(ns[k]) && ns[k] > 0) {
			fprintf(f, " %s=", ucopy_kernel_at(k)->name);
			put_ns(f, ns[k]);
		}
}

static const char *state_name(unsigned s)
{
	return s == CAL_HOT ? "hot" : s == CAL_COLD ? "cold" : "mixed";
}

static int any(const double *ns)
{
	for (size_t k = 0; k < calibration_kernels(); k++)
		if (!isnan(ns[k]) && ns[k] > 0)
			return 1;
	return 0;
}

/* Over 100 lines: the profile top to bottom, in docs/calibrate.md's order ("The profile"). */
int calibration_write(const struct calibration *cal, FILE *f)
{
	const struct ucopy_cpu *c = ucopy_cpu();
	char date[32], feat[512], text[512];
	time_t now = time(NULL);
	struct tm tm;
	const char *brand = c->brand;

	while (*brand == ' ')
		brand++;
	gmtime_r(&now, &tm);
	strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
	ucopy_features_format(c->features, ",", feat, sizeof feat);
	ucopy_policy_format(&cal->policy, text, sizeof text);

	fprintf(f, UCOPY_PROFILE_MAGIC "\n"
		   "# Written by `ucopy calibrate`; read by libucopy at first use when\n"
		   "# UCOPY_PROFILE names this file or it is at the default path.\n"
		   "# Format: docs/calibrate.md.  Times are ns per copy, medians of\n"
		   "# interleaved rounds; ratios are ns over ns.\n"
		   "%s %s\n%s %s\n", profile_key[KEY_VERSION], ucopy_version_string(),
		profile_key[KEY_DATE], date);
	fprintf(f, "%s %s\n%s %s\n%s %u\n%s %u\n%s %u\n%s %s\n%s %s\n",
		profile_key[KEY_ARCH], c->arch, profile_key[KEY_VENDOR], c->vendor,
		profile_key[KEY_FAMILY], c->family, profile_key[KEY_MODEL], c->model,
		profile_key[KEY_STEPPING], c->stepping, profile_key[KEY_BRAND], brand,
		profile_key[KEY_FEATURES], feat);
	fprintf(f, "%s %s\n", profile_key[KEY_POLICY], text);

	fputs("\n# crossover LIMIT FROM TO: at SIZE, ns(TO) / ns(FROM)\n", f);
	for (unsigned i = 0; i < cal->ncross; i++) {
		const struct cal_cross *x = &cal->cross[i];
		fprintf(f, "%s ", profile_key[KEY_CROSSOVER]);
		put_size(f, x->limit);
		fprintf(f, " %s %s", x->from->name, x->to->name);
		if (x->inherited || x->nev == 0)
			fputs(" auto", f);
		for (unsigned e = 0; !x->inherited && e < x->nev; e++) {
			fputc(' ', f);
			put_size(f, x->ev_size[e]);
			fputc('=', f);
			put_ratio(f, x->ev_ratio[e]);
		}
		fputc('\n', f);
	}
	/* Format 1 knows the states hot and cold only: what was measured on
	 * mixed sizes is written as comments. */
	for (unsigned r = 0; r < CAL_NREFS; r++)
		for (unsigned s = 0; s < CAL_NSTATES; s++)
			if (isfinite(cal->gain[r][s]) && cal->gain[r][s] > 0) {
				fprintf(f, "%s%s %s %s ", s == CAL_MIXED ? "# " : "",
					profile_key[KEY_GAIN], r == CAL_REF_AUTO ? "auto" : "libc", state_name(s));
				put_ratio(f, cal->gain[r][s]);
				fputc('\n', f);
			}
	if (!cal->accepted && cal->derived.nrules) {
		ucopy_policy_format(&cal->derived, text, sizeof text);
		fprintf(f, "# derived %s (not saved: see the note)\n", text);
	}
	for (unsigned i = 0; i < cal->nnotes; i++)
		fprintf(f, "%s %s\n", profile_key[KEY_NOTE], cal->notes[i]);

	fputs("\n# cliff KERNEL SIZE RATIO SRC/DST: a distance cell against its control\n", f);
	for (size_t i = 0; i < cal->ncliffs; i++) {
		const struct cal_cliff *x = &cal->cliff[i];
		fprintf(f, "%s %s ", profile_key[KEY_CLIFF], x->kernel->name);
		put_size(f, x->size);
		fputc(' ', f);
		put_ratio(f, x->ratio);
		fprintf(f, " %u/%u\n", x->src, x->dst);
	}
	for (size_t i = 0; i < cal->neffects; i++) {
		const struct cal_effect *x = &cal->effect[i];
		fprintf(f, "%s %s ", profile_key[KEY_EFFECT], x->kernel->name);
		put_size(f, x->size);
		fputs(" distance=", f);
		put_ratio(f, x->distance);
		fputs(" align=", f);
		put_ratio(f, x->align);
		fputc('\n', f);
	}

	fputs("\n# measure STATE SIZE KERNEL=NS...: the size sweep (mixed: sizes\n"
	      "# drawn uniformly from SIZE/2 to 2*SIZE)\n", f);
	for (unsigned s = 0; s < CAL_NSTATES; s++)
		for (size_t i = 0; i < cal->npoints; i++) {
			const struct cal_point *pt = &cal->point[i];
			if (!any(pt->ns[s]))
				continue;
			fprintf(f, "%s%s %s ", s == CAL_MIXED ? "# " : "", profile_key[KEY_MEASURE],
				state_name(s));
			put_size(f, pt->size);
			put_times(f, pt->ns[s]);
			fputc('\n', f);
		}
	if (cal->nchecks)
		fputs("\n# verify STATE WORKLOAD derived=NS auto=NS libc=NS: the verify phase\n", f);
	for (size_t i = 0; i < cal->nchecks; i++) {
		const struct cal_check *v = &cal->check[i];
		if (!check_valid(v))
			continue;
		fprintf(f, "# verify %s %s derived=", state_name(v->state), v->name);
		put_ns(f, v->ns);
		fputs(" auto=", f);
		put_ns(f, v->ref[CAL_REF_AUTO]);
		fputs(" libc=", f);
		put_ns(f, v->ref[CAL_REF_LIBC]);
		fputc('\n', f);
	}
	fputs("\n# distance SIZE SRC/DST KERNEL=NS...: the distance and alignment probes\n", f);
	for (size_t i = 0; i < cal->nprobes; i++) {
		const struct cal_probe *p = &cal->probe[i];
		if (!any(p->ns))
			continue;
		fprintf(f, "%s ", profile_key[KEY_DISTANCE]);
		put_size(f, p->size);
		fprintf(f, " %u/%u", p->src, p->dst);
		put_times(f, p->ns);
		fputc('\n', f);
	}
	fprintf(f, "%s\n", profile_key[KEY_END]);
	return ferror(f) ? -1 : 0;
}
