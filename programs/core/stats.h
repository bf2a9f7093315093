/*
 * stats.h - the statistics the lab's verdicts rest on: order statistics,
 * the median of paired ratios with its distribution-free interval,
 * Mann-Whitney U, and the seeded generator every random choice in the lab
 * comes from.
 *
 * Timings are skewed and heavy-tailed (an interrupt, a page walk, a neighbour
 * on the same core), so everything here is built on medians and ranks, never
 * on means and standard deviations.
 */
#ifndef UCOPY_STATS_H
#define UCOPY_STATS_H

#include <stddef.h>
#include <stdint.h>

/*=====   Random numbers   =====
 * xoshiro256** seeded through splitmix64: fast, good enough for resampling
 * and for drawing sizes, and replayable from one printed 64-bit seed. */
struct rng {
	uint64_t s[4];
};

void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, n) without modulo bias; 0 when n == 0. */
uint64_t rng_below(struct rng *r, uint64_t n);
/* Uniform in [0, 1). */
double rng_unit(struct rng *r);
/* A seed from the clock and the process, for runs that were not given one. */
uint64_t rng_fresh_seed(void);

/*=====   Order statistics   =====
 * NaN samples are not allowed (callers never produce them).  All functions
 * leave x untouched unless their name says "inplace". */

/* The q-quantile (0 <= q <= 1) with linear interpolation between order
 * statistics (Hyndman-Fan type 7, the default of R and NumPy).
 * @return : NaN when n == 0. */
double stats_quantile(const double *x, size_t n, double q);
double stats_median(const double *x, size_t n);
/* As above, but reorders x (no allocation). */
double stats_quantile_inplace(double *x, size_t n, double q);

/* The usual summary of one variant's samples. */
struct stats_summary {
	size_t n;
	double median, p10, p90, min, max;
};
/* @return : 0, or -1 when out of memory (s is then all NaN). */
int stats_summarize(const double *x, size_t n, struct stats_summary *s);

/*=====   Comparing two variants   =====*/

struct stats_interval {
	double est;  /* the point estimate */
	double lo, hi;
};

/* Ratio of b to a over paired rounds (a[i] and b[i] were measured in the
 * same round): the median of the per-round ratios b[i] / a[i], and the
 * order statistics of those ratios that cover their true median with
 * probability >= level (e.g. 0.95) whatever their distribution: the sign
 * test inverted, exact as long as rounds are independent.  Drift that hits
 * both variants of a round (clock frequency, a neighbour) divides out of
 * that round's ratio.  The interval's ends are sample ratios, so
 * lo <= est <= hi always holds when they exist.
 * @return : 0, or -1 when n == 0, a sample of a is not positive or one of b
 *           is negative, level is not in (0, 1), out of memory (all NaN), or
 *           n < stats_paired_ratio_min_n(level) (est is then set, lo and hi
 *           are NaN). */
int stats_paired_ratio(const double *a, const double *b, size_t n, double level,
		       struct stats_interval *out);
/* The fewest rounds for which stats_paired_ratio() gives an interval at
 * `level`: even [min, max] covers the median with probability
 * 1 - 2^(1-n) only, so 6 at 0.95 and 8 at 0.99.
 * @return : that n, or 0 when level is not in (0, 1). */
size_t stats_paired_ratio_min_n(double level);

/* Mann-Whitney U test of a against b (independent samples; ties get mid
 * ranks and the variance its tie correction).  *u receives U for a (the
 * number of pairs with a < b, ties counting half) when u is not NULL.
 * @return : the two-sided p-value from the normal approximation with
 *           continuity correction (fine from about 8 samples each), or NaN
 *           when either sample is empty or out of memory. */
double stats_mann_whitney(const double *a, size_t na, const double *b,
			  size_t nb, double *u);

#endif
