/*
 * compare.h - the verdict of `ucopy compare`: from the paired samples of A
 * and B to "B is 43.1% slower than A (regression)".
 *
 * The estimate is the ratio of B's median time per copy to A's over
 * interleaved rounds, with a 95% paired bootstrap interval (stats.h).  The
 * verdict is an equivalence test as well as a difference test, with a margin
 * m (default COMPARE_MARGIN) below which a difference does not count:
 *
 *   interval inside [1-m, 1+m]             equivalent   "no significant
 *                                                        difference (within ±m)"
 *   interval excludes 1, estimate > 1+m    regression
 *   interval excludes 1, estimate < 1-m    improvement
 *   interval excludes 1, estimate within   slower/faster (real but below
 *     the margin, interval reaching past    the margin: not called a
 *     it                                    regression)
 *   interval holds 1 and reaches past m    inconclusive (measure longer)
 *
 * So a verdict never rests on one pair of means, identical inputs cannot be
 * called a regression unless their medians differ by more than m, and "no
 * difference" is only said when the data rule out a difference of m.
 */
#ifndef UCOPY_COMPARE_H
#define UCOPY_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "stats.h"

/* The default equivalence margin.  Differences this small come from where
 * code and data happen to sit, not from the copy strategy: Mytkowicz et al.
 * ("Producing wrong data without doing anything obviously wrong", ASPLOS
 * 2009) moved whole-program times by several percent with the link order and
 * the environment's size alone; a short copy loop crossing a 32-byte fetch
 * boundary does the same to a copy.  Such a bias is the same in every round,
 * so no interval can remove it.  On the 2-core KVM guest the project
 * develops on (Xeon 6/207), a policy against itself gave interval half-widths
 * of 0.1-0.9% with a 1 s budget (docs/reproducing.md): 1.5% is above that
 * noise floor and below every effect the three reports describe (43%, ~2x,
 * 1.6x). */
#define COMPARE_MARGIN 0.015
#define COMPARE_LEVEL 0.95

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

/* The whole test on paired samples (a[i] and b[i] from round i): the
 * bootstrap interval at COMPARE_LEVEL with `seed`, then compare_verdict().
 * @return : 0, or -1 when no interval could be formed (v is then
 *           inconclusive). */
int compare_samples(const double *a, const double *b, size_t n, double margin,
		    uint64_t seed, struct stats_interval *ratio, struct verdict *v);

#endif
