/*
 * test_stats.c - the lab's statistics on data whose answers are known.
 */
#include "check.h"
#include "stats.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

static int near(double a, double b, double tol)
{
	return fabs(a - b) <= tol;
}

static void test_quantiles(void)
{
	double x[] = { 9, 1, 8, 2, 7, 3, 6, 4, 5, 10 };
	size_t n = sizeof x / sizeof x[0];
	CHECK(near(stats_median(x, n), 5.5, 1e-12), "median %g", stats_median(x, n));
	/* Type 7: h = (n-1)q; for q=0.1, h=0.9 -> 1 + 0.9*(2-1) = 1.9. */
	CHECK(near(stats_quantile(x, n, 0.1), 1.9, 1e-12), "p10 %g", stats_quantile(x, n, 0.1));
	CHECK(near(stats_quantile(x, n, 0.9), 9.1, 1e-12), "p90 %g", stats_quantile(x, n, 0.9));
	CHECK(stats_quantile(x, n, 0) == 1 && stats_quantile(x, n, 1) == 10, "ends");
	CHECK(x[0] == 9 && x[9] == 10, "input reordered");
	double one = 42;
	CHECK(stats_median(&one, 1) == 42, "single sample");
	CHECK(isnan(stats_median(x, 0)), "empty is NaN");
	double odd[] = { 3, 1, 2 };
	CHECK(stats_median(odd, 3) == 2, "odd median");
	double same[] = { 4, 4, 4, 4, 4, 4, 4 };
	CHECK(stats_quantile(same, 7, 0.37) == 4, "ties");

	/* Against sorting, on many random arrays with many ties. */
	struct rng r;
	rng_seed(&r, 1);
	for (int t = 0; t < 300; t++) {
		size_t m = 1 + rng_below(&r, 200);
		double *a = malloc(m * sizeof *a), *s = malloc(m * sizeof *s);
		for (size_t i = 0; i < m; i++)
			a[i] = s[i] = (double)rng_below(&r, 20);
		for (size_t i = 1; i < m; i++)  /* insertion sort: obviously right */
			for (size_t j = i; j > 0 && s[j - 1] > s[j]; j--) {
				double k = s[j];
				s[j] = s[j - 1];
				s[j - 1] = k;
			}
		double q = rng_unit(&r);
		double h = (double)(m - 1) * q;
		size_t lo = (size_t)h;
		double want = lo + 1 < m ? s[lo] + (h - (double)lo) * (s[lo + 1] - s[lo]) : s[lo];
		double got = stats_quantile(a, m, q);
		CHECK(near(got, want, 1e-9), "n=%zu q=%g: %g, want %g", m, q, got, want);
		free(a);
		free(s);
	}

	struct stats_summary sm;
	CHECK(stats_summarize(x, n, &sm) == 0 && sm.n == n && sm.min == 1 && sm.max == 10 &&
	      near(sm.median, 5.5, 1e-12) && near(sm.p10, 1.9, 1e-12), "summary");
	check_group("stats quantiles");
}

static void test_rng(void)
{
	struct rng a, b;
	rng_seed(&a, 12345);
	rng_seed(&b, 12345);
	int same = 1;
	for (int i = 0; i < 100; i++)
		same &= rng_next(&a) == rng_next(&b);
	CHECK(same, "a seed replays");
	unsigned hist[10] = { 0 };
	for (int i = 0; i < 100000; i++)
		hist[rng_below(&a, 10)]++;
	for (int i = 0; i < 10; i++)
		CHECK(hist[i] > 9400 && hist[i] < 10600, "bucket %d: %u", i, hist[i]);
	CHECK(rng_below(&a, 0) == 0 && rng_below(&a, 1) == 0, "degenerate ranges");
	double u = rng_unit(&a);
	CHECK(u >= 0 && u < 1, "unit");
	check_group("stats rng");
}

/* Samples like timings: a level, multiplicative noise, a drift shared by
 * both variants of a round, and an occasional large outlier.  Each round's
 * ratio b/a is `ratio` times nb/na, whose median is 1 (na and nb are
 * independent and alike), except in outlier rounds: the true median of the
 * per-round ratios is a little below `ratio`, so coverage is checked on
 * data without outliers and the outliers only for robustness. */
static void timings(struct rng *r, double *a, double *b, size_t n, double ratio,
		    int outliers)
{
	for (size_t i = 0; i < n; i++) {
		double drift = 1 + 0.3 * sin((double)i / 7.0 + rng_unit(r));
		double na = exp(0.05 * (rng_unit(r) - 0.5));
		double nb = exp(0.05 * (rng_unit(r) - 0.5));
		a[i] = 100 * drift * na;
		b[i] = 100 * ratio * drift * nb;
		if (outliers && rng_below(r, 20) == 0)
			a[i] *= 5;
	}
}

static void test_paired_ratio(void)
{
	enum { MAXN = 200 };
	double a[MAXN], b[MAXN];
	struct rng r;
	uint64_t seed = 7;
	rng_seed(&r, seed);

	/* Coverage: over many seeds, a 95% interval holds the true median
	 * ratio at least 95% of the time (the order-statistic interval is
	 * conservative: its exact coverage is 96.9% at n=6, 97.9% at n=10,
	 * 95.7% at n=30, 96.7% at n=64).  1000 trials put the count's standard
	 * error at 0.7%: 93.5% is more than 2 of them below 95%. */
	static const size_t ns[] = { 6, 10, 30, 64, 200 };
	for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
		size_t n = ns[t];
		int covered = 0, trials = 1000, ordered = 1;
		for (int k = 0; k < trials; k++) {
			timings(&r, a, b, n, 1.25, 0);
			struct stats_interval ci;
			if (stats_paired_ratio(a, b, n, 0.95, &ci) != 0) {
				ordered = 0;
				continue;
			}
			ordered &= ci.lo <= ci.est && ci.est <= ci.hi;
			covered += ci.lo <= 1.25 && 1.25 <= ci.hi;
		}
		CHECK(ordered, "n=%zu: lo <= est <= hi", n);
		CHECK(covered >= 935 && covered <= 995,
		      "n=%zu: covered the true ratio %d of %d times (seed %" PRIu64 ")", n,
		      covered, trials, seed);
	}

	/* Narrow where the data are: 60 rounds of 5% noise, a shared drift of
	 * +-30% and 1 round in 20 five times slower in a. */
	timings(&r, a, b, 60, 1.25, 1);
	struct stats_interval ci;
	CHECK(stats_paired_ratio(a, b, 60, 0.95, &ci) == 0 && ci.hi - ci.lo < 0.05 &&
	      ci.lo <= 1.25 && 1.25 <= ci.hi * 1.01, "drift and outliers: %g [%g, %g]",
	      ci.est, ci.lo, ci.hi);

	/* Identical inputs: exactly 1. */
	CHECK(stats_paired_ratio(a, a, 60, 0.95, &ci) == 0 && ci.est == 1 && ci.lo == 1 &&
	      ci.hi == 1, "self ratio %g %g %g", ci.est, ci.lo, ci.hi);

	/* The interval's ranks, on ratios 1..n in shuffled order: at n = 6 the
	 * extremes; at n = 20 the 6th and 15th (2 P(Bin(20, 1/2) <= 5) =
	 * 0.041, <= 6 would be 0.115). */
	double one[20], k[20];
	for (int i = 0; i < 20; i++) {
		one[i] = 1;
		k[i] = (double)((i * 7) % 20 + 1);
	}
	CHECK(stats_paired_ratio(one, k, 20, 0.95, &ci) == 0 && ci.est == 10.5 &&
	      ci.lo == 6 && ci.hi == 15, "n=20: %g [%g, %g]", ci.est, ci.lo, ci.hi);

	/* The minimum n: 6 at 95% (2/2^6 = 0.031 <= 0.05; 2/2^5 is not), 8 at
	 * 99%; below it the estimate alone. */
	CHECK(stats_paired_ratio_min_n(0.95) == 6 && stats_paired_ratio_min_n(0.99) == 8 &&
	      stats_paired_ratio_min_n(0.5) == 2 && stats_paired_ratio_min_n(1) == 0,
	      "minimum n: %zu %zu", stats_paired_ratio_min_n(0.95),
	      stats_paired_ratio_min_n(0.99));
	double six[6] = { 3, 1, 6, 2, 5, 4 };
	CHECK(stats_paired_ratio(one, six, 6, 0.95, &ci) == 0 && ci.lo == 1 && ci.hi == 6 &&
	      ci.est == 3.5, "n=6: %g [%g, %g]", ci.est, ci.lo, ci.hi);
	CHECK(stats_paired_ratio(one, six, 5, 0.95, &ci) < 0 && ci.est == 3 && isnan(ci.lo) &&
	      isnan(ci.hi), "n=5: %g [%g, %g]", ci.est, ci.lo, ci.hi);

	CHECK(stats_paired_ratio(a, b, 0, 0.95, &ci) < 0 && isnan(ci.est), "empty");
	double zero[6] = { 0 };
	CHECK(stats_paired_ratio(zero, a, 6, 0.95, &ci) < 0 && isnan(ci.est), "zero baseline");
	CHECK(stats_paired_ratio(a, b, 60, 1.5, &ci) < 0, "bad level");
	/* Large n: the binomial sums stay finite (2^-n underflows at 1075). */
	enum { BIG = 5001 };
	double *x = malloc(BIG * sizeof *x), *y = malloc(BIG * sizeof *y);
	for (size_t i = 0; i < BIG; i++) {
		x[i] = 1;
		y[i] = (double)i;
	}
	CHECK(stats_paired_ratio(x, y, BIG, 0.95, &ci) == 0 && ci.est == 2500 &&
	      ci.lo > 2400 && ci.lo < 2500 && ci.hi == 5000 - ci.lo, "n=%d: %g [%g, %g]",
	      BIG, ci.est, ci.lo, ci.hi);
	free(x);
	free(y);
	check_group("stats paired ratio");
}

static void test_mann_whitney(void)
{
	/* Complete separation, 5 vs 5: exact two-sided p = 2/252 = 0.0079; the
	 * normal approximation with continuity correction gives 0.012. */
	double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 };
	double u;
	double p = stats_mann_whitney(a, 5, b, 5, &u);
	CHECK(u == 25, "U %g", u);
	CHECK(near(p, 0.0122, 0.001), "p %g", p);
	p = stats_mann_whitney(b, 5, a, 5, &u);
	CHECK(u == 0 && near(p, 0.0122, 0.001), "reversed U %g p %g", u, p);
	/* Identical samples: no evidence at all. */
	p = stats_mann_whitney(a, 5, a, 5, &u);
	CHECK(u == 12.5 && p == 1.0, "same: U %g p %g", u, p);
	double c[] = { 3, 3, 3 };
	p = stats_mann_whitney(c, 3, c, 3, &u);
	CHECK(p == 1.0, "all tied: p %g", p);
	CHECK(isnan(stats_mann_whitney(a, 0, b, 5, NULL)), "empty");

	/* No false alarms on identical distributions across seeds: at the 1%
	 * level, at most a handful of 200. */
	struct rng r;
	rng_seed(&r, 3);
	int alarms = 0;
	double x[40], y[40];
	for (int t = 0; t < 200; t++) {
		for (int i = 0; i < 40; i++) {
			x[i] = 100 + rng_unit(&r);
			y[i] = 100 + rng_unit(&r);
		}
		alarms += stats_mann_whitney(x, 40, y, 40, NULL) < 0.01;
	}
	CHECK(alarms <= 8, "%d false alarms in 200", alarms);
	/* And a real 2% shift is found. */
	for (int i = 0; i < 40; i++) {
		x[i] = 100 + rng_unit(&r);
		y[i] = 102 + rng_unit(&r);
	}
	CHECK(stats_mann_whitney(x, 40, y, 40, NULL) < 1e-6, "shift missed");
	check_group("stats mann-whitney");
}

int main(void)
{
	test_quantiles();
	test_rng();
	test_paired_ratio();
	test_mann_whitney();
	return check_exit();
}
