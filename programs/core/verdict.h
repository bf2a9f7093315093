/*
 * verdict.h - the verdict of `ucopy compare`, on workloads (compare.c) and on
 * whole programs (compare_prog.c) alike: from the paired samples of A and B
 * to "B is 43.1% slower than A (regression)".
 *
 * The estimate is the median over interleaved rounds of B's time per copy
 * divided by A's in the same round: whatever drifts between rounds (clock
 * frequency, a neighbour's load) divides out of each round's ratio.  Its
 * 95% interval is the distribution-free one for a median (order statistics
 * chosen from the binomial distribution: the sign test inverted), exact for
 * any shape of noise as long as rounds are independent.  The verdict is an
 * equivalence test as well as a difference test, with a margin m (default
 * COMPARE_MARGIN) below which a difference does not count:
 *
 *   interval inside [1-m, 1+m]           equivalent   "no significant
 *                                                      difference (within ±m)"
 *   interval above 1+m (below 1-m)       regression (improvement)
 *   interval above 1 (below 1), reaching slower (faster): real, but perhaps
 *     into the margin                    or surely within the margin
 *   interval holds 1 and reaches past m  inconclusive (measure longer)
 *
 * A regression must clear the margin with the whole interval, as criterion's
 * noise threshold does: a change that is significant but may be smaller than
 * the margin is reported as such, not as a regression.
 *
 * So a verdict never rests on one pair of means, identical inputs cannot be
 * called a regression unless their medians differ by more than m, and "no
 * difference" is only said when the data rule out a difference of m.
 */
#ifndef UCOPY_VERDICT_H
#define UCOPY_VERDICT_H

#include <stddef.h>

#include "stats.h"

/* The default equivalence margin.  Differences this small come from where
 * code and data happen to sit, not from the copy strategy: Mytkowicz et al.
 * ("Producing wrong data without doing anything obviously wrong", ASPLOS
 * 2009) moved whole-program times by several percent with the link order and
 * the environment's size alone; a short copy loop crossing a 32-byte fetch
 * boundary does the same to a copy.  Such a bias is the same in every round,
 * so no interval can remove it.  1.5% is above the bias two dispatches of
 * one kernel measured and above a policy's spread against itself, and far
 * below every effect the three reports describe (docs/reproducing.md, "How
 * the verdict is reached"). */
#define COMPARE_MARGIN 0.015
#define COMPARE_LEVEL 0.95

/* --margin PCT, in both modes: 0.1..50 percent.
 * @return : 0 with the fraction in out, or EXIT_USAGE after the message. */
int compare_margin_parse(const char *arg, double *out);
/* A number that is all of arg, finite, in [lo, hi] (--margin, --runs).
 * @return : 0 with it in out, or -1. */
int compare_number_parse(const char *arg, double lo, double hi, double *out);

enum verdict_kind {
	VERDICT_EQUIVALENT,
	VERDICT_REGRESSION,
	VERDICT_IMPROVEMENT,
	VERDICT_SLOWER,       /* significant, but within the margin */
	VERDICT_FASTER,
	VERDICT_INCONCLUSIVE
};

struct verdict {
	enum verdict_kind kind;
	double change;        /* B's time relative to A's, minus 1 (0.431: 43.1%
				 slower); NaN when there is no estimate */
	char text[192];       /* the sentence the command prints */
};

/* "equivalent", "regression", "improvement", "slower", "faster",
 * "inconclusive". */
const char *verdict_name(enum verdict_kind k);

/* The verdict for ratio B/A (est, lo, hi) with margin m (0.015 for 1.5%).
 * A NaN interval is inconclusive. */
void compare_verdict(const struct stats_interval *ratio, double margin,
		     struct verdict *v);

/* The whole test on paired samples: stats_paired_ratio() at COMPARE_LEVEL
 * (fewer than 6 rounds give no interval), then compare_verdict().
 * @return : 0, or -1 when no interval could be formed (v is then
 *           inconclusive). */
int compare_samples(const double *a, const double *b, size_t n, double margin,
		    struct stats_interval *ratio, struct verdict *v);

#endif
