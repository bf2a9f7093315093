/*
 * stats.c - order statistics, paired-ratio intervals and rank tests (stats.h).
 */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t out = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return out;
}

uint64_t rng_below(struct rng *r, uint64_t n)
{
	if (n == 0)
		return 0;
	/* Rejecting the short last block keeps every value equally likely. */
	uint64_t limit = UINT64_MAX - UINT64_MAX % n;
	uint64_t x;
	do
		x = rng_next(r);
	while (x >= limit);
	return x % n;
}

double rng_unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

uint64_t rng_fresh_seed(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t x = (uint64_t)ts.tv_sec * 1000000007u ^ (uint64_t)ts.tv_nsec ^
		     ((uint64_t)getpid() << 32);
	return splitmix64(&x);
}

/* Wirth's selection: afterwards x[k] holds the k-th smallest, with nothing
 * larger before it and nothing smaller after it. */
static void select_k(double *x, size_t n, size_t k)
{
	ptrdiff_t lo = 0, hi = (ptrdiff_t)n - 1, kk = (ptrdiff_t)k;
	while (lo < hi) {
		/* Median of three keeps sorted input (rounds often are nearly
		 * sorted) from going quadratic. */
		ptrdiff_t mid = lo + (hi - lo) / 2;
		double a = x[lo], b = x[mid], c = x[hi];
		double pivot = a < b ? (b < c ? b : (a < c ? c : a))
				     : (a < c ? a : (b < c ? c : b));
		ptrdiff_t i = lo, j = hi;
		do {
			while (x[i] < pivot)
				i++;
			while (pivot < x[j])
				j--;
			if (i <= j) {
				double t = x[i];
				x[i] = x[j];
				x[j] = t;
				i++;
				j--;
			}
		} while (i <= j);
		if (j < kk)
			lo = i;
		if (kk < i)
			hi = j;
	}
}

double stats_quantile_inplace(double *x, size_t n, double q)
{
	if (n == 0)
		return NAN;
	if (q < 0)
		q = 0;
	if (q > 1)
		q = 1;
	double h = (double)(n - 1) * q;
	size_t k = (size_t)h;
	if (k >= n - 1) {
		select_k(x, n, n - 1);
		return x[n - 1];
	}
	select_k(x, n, k);
	double v = x[k], next = x[k + 1];
	for (size_t i = k + 2; i < n; i++)
		if (x[i] < next)
			next = x[i];
	return v + (h - (double)k) * (next - v);
}

double stats_quantile(const double *x, size_t n, double q)
{
	if (n == 0)
		return NAN;
	double *t = malloc(n * sizeof *t);
	if (!t)
		return NAN;
	memcpy(t, x, n * sizeof *t);
	double v = stats_quantile_inplace(t, n, q);
	free(t);
	return v;
}

double stats_median(const double *x, size_t n)
{
	return stats_quantile(x, n, 0.5);
}

int stats_summarize(const double *x, size_t n, struct stats_summary *s)
{
	s->n = n;
	s->median = s->p10 = s->p90 = s->min = s->max = NAN;
	if (n == 0)
		return 0;
	double *t = malloc(n * sizeof *t);
	if (!t)
		return -1;
	memcpy(t, x, n * sizeof *t);
	s->median = stats_quantile_inplace(t, n, 0.5);
	s->p10 = stats_quantile_inplace(t, n, 0.1);
	s->p90 = stats_quantile_inplace(t, n, 0.9);
	s->min = s->max = x[0];
	for (size_t i = 1; i < n; i++) {
		if (x[i] < s->min)
			s->min = x[i];
		if (x[i] > s->max)
			s->max = x[i];
	}
	free(t);
	return 0;
}

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;
	return (a > b) - (a < b);
}

/* The largest j (1-based) such that the order statistics j and n+1-j cover
 * the median with probability >= level: 2 P(Bin(n, 1/2) <= j-1) <= 1-level.
 * 0 when even the extremes do not (n too small).  The binomial terms are
 * summed in logs, so any n works without underflow. */
static size_t median_rank(size_t n, double level)
{
	double tail = (1 - level) / 2, cdf = 0;
	double lp = -(double)n * log(2.0);   /* log P(Bin = 0) */
	size_t j = 0;
	for (size_t i = 0; i < n / 2 + 1; i++) {
		cdf += exp(lp);
		if (cdf > tail)
			break;
		j = i + 1;
		lp += log((double)(n - i)) - log((double)(i + 1));
	}
	return j;
}

size_t stats_paired_ratio_min_n(double level)
{
	if (!(level > 0 && level < 1))
		return 0;
	size_t n = 1;
	while (median_rank(n, level) == 0)
		n++;
	return n;
}

int stats_paired_ratio(const double *a, const double *b, size_t n, double level,
		       struct stats_interval *out)
{
	out->est = out->lo = out->hi = NAN;
	if (n == 0 || !(level > 0 && level < 1))
		return -1;
	double *q = malloc(n * sizeof *q);
	if (!q)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!(a[i] > 0) || !(b[i] >= 0)) {
			free(q);
			return -1;
		}
		q[i] = b[i] / a[i];
	}
	/* Three order statistics, each by selection: O(n), no sort. */
	out->est = stats_quantile_inplace(q, n, 0.5);
	size_t j = median_rank(n, level);
	if (j > 0) {
		select_k(q, n, j - 1);
		out->lo = q[j - 1];
		select_k(q, n, n - j);
		out->hi = q[n - j];
	}
	free(q);
	return j > 0 ? 0 : -1;
}

struct ranked {
	double v;
	int from_a;
};

static int cmp_ranked(const void *pa, const void *pb)
{
	return cmp_double(&((const struct ranked *)pa)->v,
			  &((const struct ranked *)pb)->v);
}

double stats_mann_whitney(const double *a, size_t na, const double *b,
			  size_t nb, double *u)
{
	if (u)
		*u = NAN;
	if (na == 0 || nb == 0)
		return NAN;
	size_t n = na + nb;
	struct ranked *all = malloc(n * sizeof *all);
	if (!all)
		return NAN;
	for (size_t i = 0; i < na; i++)
		all[i] = (struct ranked){ a[i], 1 };
	for (size_t i = 0; i < nb; i++)
		all[na + i] = (struct ranked){ b[i], 0 };
	qsort(all, n, sizeof *all, cmp_ranked);

	double rank_sum_a = 0, tie_term = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j + 1 < n && all[j + 1].v == all[i].v)
			j++;
		double mid = (double)(i + j) / 2 + 1;
		double t = (double)(j - i + 1);
		tie_term += t * t * t - t;
		for (size_t k = i; k <= j; k++)
			if (all[k].from_a)
				rank_sum_a += mid;
		i = j + 1;
	}
	free(all);

	double fa = (double)na, fb = (double)nb, fn = (double)n;
	/* U for a counts the pairs where a is larger; report the pairs where a
	 * is smaller (faster, for timings), which is the complement. */
	double u_larger = rank_sum_a - fa * (fa + 1) / 2;
	double u_a = fa * fb - u_larger;
	if (u)
		*u = u_a;
	double mean = fa * fb / 2;
	double var = fa * fb / 12 * ((fn + 1) - tie_term / (fn * (fn - 1)));
	if (!(var > 0))
		return 1.0;
	double z = (fabs(u_a - mean) - 0.5) / sqrt(var);
	if (z < 0)
		z = 0;
	return erfc(z / sqrt(2.0));
}
