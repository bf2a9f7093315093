/*
 * default_row.c - auto's default row derived from the corpus
 * (default_row.h).
 */
#include "default_row.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KIB ((size_t)1 << 10)
#define MIB ((size_t)1 << 20)

/* lib/x86_64/policies.c before the row was derived: 2 KiB, 4 KiB with
 * free zmm stores, streaming stores from a quarter of the L3. */
const struct default_limits default_row_hand = { 2 * KIB, 4 * KIB, 1 };

/* The candidates, the hand row's value first: sizes the sweeps measure
 * around the vector range, and the L3's quarters glibc and the hand rows
 * used (0: none). */
static const size_t vector_try[] = {
	2 * KIB, 256, 512, 1 * KIB, 4 * KIB, 8 * KIB, 16 * KIB, 32 * KIB, 64 * KIB,
};
static const size_t zmm_try[] = {
	4 * KIB, 256, 512, 1 * KIB, 2 * KIB, 8 * KIB, 16 * KIB, 32 * KIB, 64 * KIB,
};
static const unsigned stream_try[] = { 1, 0, 2, 4, 8 };

#define NVEC (sizeof vector_try / sizeof vector_try[0])
#define NSTREAM (sizeof stream_try / sizeof stream_try[0])

static int runs(const char *name, uint64_t f)
{
	const struct ucopy_kernel *k = ucopy_kernel_find(name);
	return k && ucopy_kernel_supported(k, f);
}

int default_row_policy(const struct corpus_report *r, const struct default_limits *lim,
		       struct ucopy_policy *p, char *err, size_t errlen)
{
	struct ucopy_policy lib;
	char text[256], num[32];
	size_t pos = 0;
	uint64_t f = r->cpu.features;
	if (corpus_default_policy(r, &lib, err, errlen))
		return -1;
	const char *vec = lib.rule[0].kernel->name;
	int zmm = !strcmp(vec, "avx512");
	const char *large = (f & UCOPY_F(ERMS)) && runs("movsb_safe", f) ? "movsb_safe" : vec;
	const char *stream = zmm && runs("nt512", f) ? "nt512" : runs("nt", f) ? "nt" : NULL;

	text[0] = 0;
	if (strcmp(large, vec))
		pos += (size_t)snprintf(text + pos, sizeof text - pos, "%zu:%s,",
					zmm ? lim->zmm : lim->vector, vec);
	if (lim->stream_quarters && stream) {
		/* As the library words it: a quarter of the L3 by default,
		 * on Intel four times the L2 where lower, whole MiB, at least
		 * 1 MiB, 32 MiB for an L3 it does not know. */
		size_t l = 32 * MIB;
		if (r->cpu.l3) {
			l = r->cpu.l3 / 4 * lim->stream_quarters;
			if (!strcmp(r->cpu.vendor, "GenuineIntel") && r->cpu.l2 && r->cpu.l2 * 4 < l)
				l = r->cpu.l2 * 4;
		}
		if (l >= MIB)
			l -= l % MIB;
		else
			l = MIB;
		ucopy_size_format(l, num, sizeof num);
		pos += (size_t)snprintf(text + pos, sizeof text - pos, "%s:%s,", num, large);
		large = stream;
	}
	snprintf(text + pos, sizeof text - pos, "%s", large);
	return ucopy_policy_parse(p, text, err, errlen);
}

/* Descending: the worst first. */
static int cmp_desc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x < y) - (x > y);
}

/* The candidate's scores, worst first.  @return : 0; 1 when a machine's
 * reports did not time a kernel it picks; -1 when the policy cannot be
 * written for a machine (the reason in err, the machine named). */
static int judge(const struct default_machine *m, size_t n, const struct default_limits *lim,
		 double *sc, char *err, size_t errlen)
{
	for (size_t i = 0; i < n; i++) {
		struct ucopy_policy p;
		struct regret g;
		char why[256];
		if (default_row_policy(m[i].first, lim, &p, why, sizeof why)) {
			snprintf(err, errlen, "%.200s: %s", m[i].first->path, why);
			return -1;
		}
		regret_of(m[i].data, &p, &g);
		for (int s = 0; s < REGRET_STATES; s++) {
			if (g.st[s].missing_size)
				return 1;
			double v = regret_geomean(&g.st[s], 0, SIZE_MAX, NULL);
			sc[2 * i + (size_t)s] = isnan(v) ? 1 : v;
		}
	}
	qsort(sc, 2 * n, sizeof sc[0], cmp_desc);
	return 0;
}

int default_row_derive(const struct default_machine *m, size_t n, struct default_limits *out,
		       double *scores, char *err, size_t errlen)
{
	double *sc = calloc(2 * n + 1, sizeof *sc);
	int found = 0;
	if (!n || !sc) {
		free(sc);
		snprintf(err, errlen, "%s", n ? "out of memory" : "no machine with two reports");
		return -1;
	}
	for (size_t a = 0; a < NVEC; a++)
		for (size_t b = 0; b < NVEC; b++)
			for (size_t c = 0; c < NSTREAM; c++) {
				struct default_limits lim = { vector_try[a], zmm_try[b],
							      stream_try[c] };
				int j = judge(m, n, &lim, sc, err, errlen);
				if (j < 0) {
					free(sc);
					return -1;
				}
				if (j)
					continue;
				int better = !found;
				for (size_t i = 0; i < 2 * n && !better; i++) {
					if (sc[i] < scores[i])
						better = 1;
					else if (sc[i] > scores[i])
						break;
				}
				if (better) {
					memcpy(scores, sc, 2 * n * sizeof *sc);
					*out = lim;
					found = 1;
				}
			}
	free(sc);
	if (!found)
		snprintf(err, errlen, "no default row the corpus's reports timed on every machine");
	return found ? 0 : -1;
}
