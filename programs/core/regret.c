/*
 * regret.c - what a policy costs on a measured machine (regret.h).
 */
#include "regret.h"
#include "stats.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const regret_state_name[REGRET_STATES] = { "hot", "cold" };

/* 1 when every one of the n reports' sweeps for the state lists size. */
static int swept_by_all(const struct corpus_report *r, size_t n, const char *cache, size_t size)
{
	for (size_t i = 0; i < n; i++) {
		const struct jr_value *sizes = jr_get(corpus_sweep(&r[i], cache), "sizes");
		int found = 0;
		for (size_t j = 0; j < jr_len(sizes) && !found; j++)
			found = (size_t)jr_number(jr_at(sizes, j), 0) == size;
		if (!found)
			return 0;
	}
	return 1;
}

struct regret_data *regret_read(const struct corpus_report *r, size_t n)
{
	if (n < 2 || n > CORPUS_MAX_REPORTS) {
		errno = EINVAL;
		return NULL;
	}
	struct regret_data *d = calloc(1, sizeof *d);
	size_t nk = calibration_kernels();
	if (!d)
		return NULL;
	d->nreports = n;
	for (int s = 0; s < REGRET_STATES; s++) {
		const char *cache = regret_state_name[s];
		const struct jr_value *sizes = jr_get(corpus_sweep(&r[0], cache), "sizes");
		for (size_t j = 0; j < jr_len(sizes) && d->st[s].n < REGRET_MAX_SIZES; j++) {
			size_t size = (size_t)jr_number(jr_at(sizes, j), 0), z = d->st[s].n;
			if (!size || !swept_by_all(r, n, cache, size))
				continue;
			d->st[s].size[z] = size;
			for (size_t i = 0; i < n; i++) {
				for (size_t k = 0; k < nk; k++)
					d->st[s].ns[i][z][k] = NAN;
				const struct jr_value *series = jr_get(corpus_sweep(&r[i], cache), "series");
				for (size_t e = 0; e < jr_len(series); e++) {
					const struct jr_value *se = jr_at(series, e);
					const char *name = jr_string(jr_get(se, "name"));
					/* Only kernels a policy may pick: those that
					 * recover from faults (the policy serves
					 * ucopy_try() too), not libc's memcpy. */
					const struct ucopy_kernel *kk = name ? ucopy_kernel_find(name) : NULL;
					int ki = kk && (kk->flags & UCOPY_KERNEL_FAULT_CAPABLE)
						 ? calibration_kernel_index(kk) : -1;
					double t = jr_number(jr_get(corpus_point(se, size), "ns_median"), NAN);
					if (ki >= 0 && t > 0)
						d->st[s].ns[i][z][ki] = t;
				}
			}
			for (size_t a = 0; a < n; a++)
				for (size_t b = 0; b < n; b++) {
					int best = -1;
					for (size_t k = 0; k < nk; k++)
						if (!isnan(d->st[s].ns[a][z][k]) && !isnan(d->st[s].ns[b][z][k]) &&
						    (best < 0 || d->st[s].ns[a][z][k] < d->st[s].ns[a][z][best]))
							best = (int)k;
					d->st[s].best[a][b][z] = (signed char)best;
				}
			d->st[s].n++;
		}
	}
	return d;
}

void regret_of(const struct regret_data *d, const struct ucopy_policy *p, struct regret *out)
{
	double vals[CORPUS_MAX_REPORTS * CORPUS_MAX_REPORTS];
	for (int s = 0; s < REGRET_STATES; s++) {
		struct regret_state *st = &out->st[s];
		memset(st, 0, sizeof *st);
		for (size_t z = 0; z < d->st[s].n; z++) {
			const struct ucopy_kernel *mk = ucopy_policy_kernel(p, d->st[s].size[z]);
			int mine = calibration_kernel_index(mk);
			size_t m = 0;
			for (size_t a = 0; a < d->nreports; a++)
				for (size_t b = 0; b < d->nreports; b++) {
					int best = d->st[s].best[a][b][z];
					if (a == b || best < 0)
						continue;
					double t = mine >= 0 ? d->st[s].ns[b][z][mine] : NAN;
					if (isnan(t)) {
						if (!st->missing_size) {
							st->missing_size = d->st[s].size[z];
							st->missing_kernel = mk->name;
						}
						continue;
					}
					vals[m++] = t / d->st[s].ns[b][z][best];
				}
			st->size[st->n] = d->st[s].size[z];
			st->r[st->n] = NAN;
			if (m) {
				double med = stats_quantile_inplace(vals, m, 0.5);
				/* Below 1 the kernel that looked fastest on one
				 * report was slower on the other: no regret, and no
				 * credit that would hide a loss elsewhere in a band. */
				st->r[st->n] = med < 1 ? 1 : med;
			}
			st->n++;
		}
	}
}

double regret_geomean(const struct regret_state *s, size_t lo, size_t hi, size_t *count)
{
	double sum = 0;
	size_t c = 0;
	for (size_t i = 0; i < s->n; i++)
		if (s->size[i] >= lo && s->size[i] < hi && !isnan(s->r[i])) {
			sum += log(s->r[i]);
			c++;
		}
	if (count)
		*count = c;
	return c ? exp(sum / (double)c) : NAN;
}

long regret_worst(const struct regret_state *s)
{
	long w = -1;
	for (size_t i = 0; i < s->n; i++)
		if (!isnan(s->r[i]) && (w < 0 || s->r[i] > s->r[w]))
			w = (long)i;
	return w;
}

const char *const regret_regime_key[REGRET_REGIMES] = {
	"distributions", "distributions_repeated",
};

/* A row's time for `who` ("ucopy", or a kernel's name) timed alone. */
static double alone_ns(const struct jr_value *row, const char *who)
{
	const struct jr_value *al = jr_get(row, "alone"), *ks = jr_get(al, "kernels");
	if (!strcmp(who, "ucopy"))
		return jr_number(jr_get(al, "ns_ucopy"), NAN);
	for (size_t k = 0; k < jr_len(ks); k++)
		if (!strcmp(jr_string(jr_get(jr_at(ks, k), "name")), who))   /* checked */
			return jr_number(jr_get(jr_at(ks, k), "ns"), NAN);
	return NAN;
}

static const struct jr_value *dist_row(const struct corpus_report *r, int g, const char *name)
{
	const struct jr_value *rows = jr_get(jr_get(r->root, regret_regime_key[g]), "rows");
	for (size_t i = 0; i < jr_len(rows); i++)
		if (!strcmp(jr_string(jr_get(jr_at(rows, i), "name")), name))   /* checked */
			return jr_at(rows, i);
	return NULL;
}

/* The fastest of ucopy and the kernels alone in row a that row b timed. */
static const char *dist_fastest(const struct jr_value *a, const struct jr_value *b)
{
	const struct jr_value *ks = jr_get(jr_get(a, "alone"), "kernels");
	const char *best = NULL;
	double bt = INFINITY;
	for (size_t k = 0; k <= jr_len(ks); k++) {
		const char *who = k ? jr_string(jr_get(jr_at(ks, k - 1), "name")) : "ucopy";
		double t = alone_ns(a, who);
		if (t > 0 && t < bt && alone_ns(b, who) > 0) {
			bt = t;
			best = who;
		}
	}
	return best;
}

void regret_dists(const struct corpus_report *r, size_t n, const char *policy,
		  struct regret_dists out[REGRET_REGIMES])
{
	double vals[CORPUS_MAX_REPORTS * CORPUS_MAX_REPORTS];
	for (int g = 0; g < REGRET_REGIMES; g++) {
		struct regret_dists *d = &out[g];
		const struct corpus_report *use[CORPUS_MAX_REPORTS];
		size_t nu = 0;
		for (size_t i = 0; i < n && nu < CORPUS_MAX_REPORTS; i++) {
			const char *active = jr_string(jr_get(jr_get(r[i].root, "policy"), "active"));
			const struct jr_value *rows = jr_get(jr_get(r[i].root, regret_regime_key[g]),
							     "rows");
			if (active && !strcmp(active, policy) && jr_get(jr_at(rows, 0), "alone"))
				use[nu++] = &r[i];
		}
		memset(d, 0, sizeof *d);
		d->nreports = nu;
		if (nu < 2)
			continue;
		const struct jr_value *rows = jr_get(jr_get(use[0]->root, regret_regime_key[g]), "rows");
		for (size_t i = 0; i < jr_len(rows) && d->n < REGRET_MAX_DISTS; i++) {
			const char *name = jr_string(jr_get(jr_at(rows, i), "name"));
			size_t m = 0;
			for (size_t a = 0; a < nu; a++)
				for (size_t b = 0; b < nu; b++) {
					const struct jr_value *ra = dist_row(use[a], g, name);
					const struct jr_value *rb = dist_row(use[b], g, name);
					const char *best = a == b || !ra || !rb ? NULL : dist_fastest(ra, rb);
					if (best && alone_ns(rb, "ucopy") > 0)
						vals[m++] = alone_ns(rb, "ucopy") / alone_ns(rb, best);
				}
			if (!m)
				continue;
			double med = stats_quantile_inplace(vals, m, 0.5);
			snprintf(d->name[d->n], sizeof d->name[0], "%s", name);
			d->r[d->n++] = med < 1 ? 1 : med;
		}
	}
}

double regret_dists_geomean(const struct regret_dists *d, size_t *worst)
{
	double sum = 0;
	*worst = 0;
	for (size_t i = 0; i < d->n; i++) {
		sum += log(d->r[i]);
		if (d->r[i] > d->r[*worst])
			*worst = i;
	}
	return d->n ? exp(sum / (double)d->n) : NAN;
}
