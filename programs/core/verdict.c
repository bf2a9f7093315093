/*
 * verdict.c - the verdict of `ucopy compare` and its margin (verdict.h).
 */
#include "verdict.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define CMD "compare"

const char *verdict_name(enum verdict_kind k)
{
	switch (k) {
	case VERDICT_EQUIVALENT: return "equivalent";
	case VERDICT_REGRESSION: return "regression";
	case VERDICT_IMPROVEMENT: return "improvement";
	case VERDICT_SLOWER: return "slower";
	case VERDICT_FASTER: return "faster";
	default: return "inconclusive";
	}
}

void compare_verdict(const struct stats_interval *r, double m, struct verdict *v)
{
	double mp = m * 100;
	v->change = r->est - 1;
	if (!isfinite(r->est) || !isfinite(r->lo) || !isfinite(r->hi)) {
		v->kind = VERDICT_INCONCLUSIVE;
		v->change = NAN;
		snprintf(v->text, sizeof v->text,
			 "inconclusive: too few rounds for an interval");
		return;
	}
	double pct = fabs(v->change) * 100;
	/* Equivalence first: an interval inside the margin settles it whether
	 * or not it also excludes 1 (a 0.3% difference may be real, but it is
	 * no larger than what code placement alone does). */
	if (r->lo >= 1 - m && r->hi <= 1 + m) {
		v->kind = VERDICT_EQUIVALENT;
		snprintf(v->text, sizeof v->text,
			 "no significant difference (within ±%.3g%%)", mp);
	} else if (r->lo > 1 + m) {
		v->kind = VERDICT_REGRESSION;
		snprintf(v->text, sizeof v->text,
			 "B is %.1f%% slower than A (regression)", pct);
	} else if (r->hi < 1 - m) {
		v->kind = VERDICT_IMPROVEMENT;
		snprintf(v->text, sizeof v->text,
			 "B is %.1f%% faster than A (improvement)", pct);
	} else if (r->lo > 1 || r->hi < 1) {
		int slower = r->lo > 1;
		v->kind = slower ? VERDICT_SLOWER : VERDICT_FASTER;
		snprintf(v->text, sizeof v->text,
			 "B is %.1f%% %s than A (significant, but %s the ±%.3g%% margin)",
			 pct, slower ? "slower" : "faster",
			 fabs(v->change) <= m ? "within" : "perhaps within", mp);
	} else {
		v->kind = VERDICT_INCONCLUSIVE;
		snprintf(v->text, sizeof v->text,
			 "inconclusive: B/A lies between %.3f and %.3f, which neither "
			 "excludes 1 nor fits within ±%.3g%% (measure longer, or on a "
			 "quieter machine)", r->lo, r->hi, mp);
	}
}

int compare_samples(const double *a, const double *b, size_t n, double margin,
		    struct stats_interval *ratio, struct verdict *v)
{
	int rc = stats_paired_ratio(a, b, n, COMPARE_LEVEL, ratio);
	compare_verdict(ratio, margin, v);
	return rc;
}

/*=====   The margin   =====*/

int compare_number_parse(const char *arg, double lo, double hi, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(arg, &end);
	/* strtod reads "nan", "inf" and hex; none is a budget or a margin. */
	if (end == arg || *end || errno || !isfinite(v) || v < lo || v > hi ||
	    strpbrk(arg, "xXnNiI"))
		return -1;
	*out = v;
	return 0;
}

int compare_margin_parse(const char *arg, double *out)
{
	/* Below 0.1% the margin is inside the timer's own error, and "no
	 * significant difference" would need an interval of no width; above
	 * 50% it would call a 2x slowdown "no difference". */
	double d;
	if (compare_number_parse(arg, 0.1, 50, &d))
		return cli_usage_error(CMD, "bad --margin '%s' (expected a percentage, "
				       "0.1..50)", arg);
	*out = d / 100;
	return 0;
}
