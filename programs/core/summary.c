/*
 * summary.c - what a cell's rounds say: each variant's times and ratio, and
 * the rounds a slowed core ran (measure.h).
 */
#include "measure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void measure_summarize(const struct cell_result *r, size_t baseline,
		       double level, struct variant_summary *out)
{
	for (size_t i = 0; i < r->nvariants; i++) {
		const struct variant_result *v = &r->v[i];
		struct variant_summary *s = &out[i];
		stats_summarize(v->ns, r->rounds, &s->ns);
		s->bytes_per_copy = v->copies ? v->bytes / (double)v->copies : NAN;
		s->gbps = s->ns.median > 0 ? s->bytes_per_copy / s->ns.median : NAN;
		s->ratio.est = s->ratio.lo = s->ratio.hi = NAN;
		if (i == baseline && r->rounds > 0)
			s->ratio.est = s->ratio.lo = s->ratio.hi = 1;
		else if (baseline < r->nvariants)
			stats_paired_ratio(r->v[baseline].ns, v->ns, r->rounds, level,
					   &s->ratio);
		for (int e = 0; e < CTR_SLOTS; e++)
			s->per_copy[e] = v->copies ? v->ctr[e] / (double)v->copies : NAN;
	}
}

size_t measure_slow_rounds(const struct cell_result *r)
{
	if (r->rounds < 10 || r->nvariants < 2)
		return 0;
	double *fast = malloc(r->nvariants * sizeof *fast);
	if (!fast)
		return 0;
	for (size_t i = 0; i < r->nvariants; i++)
		fast[i] = stats_quantile(r->v[i].ns, r->rounds, 0.10);
	size_t slow = 0;
	for (size_t k = 0; k < r->rounds; k++) {
		size_t i = 0;
		while (i < r->nvariants && r->v[i].ns[k] >= SLOW_ROUND_FACTOR * fast[i])
			i++;
		slow += i == r->nvariants;
	}
	free(fast);
	return slow;
}

void measure_slow_note(char *buf, size_t len, size_t slow, size_t rounds)
{
	if (!rounds || slow * 4 < rounds) {
		if (len)
			buf[0] = '\0';
		return;
	}
	snprintf(buf, len, "%zu of %zu rounds (%.0f%%) ran on a slowed core (every variant at "
		 ">= %.2fx its fastest tenth): a host that shares the core does that, and a "
		 "ratio can differ between the two states; rerun, or pin (docs/bench.md, "
		 "\"The host, second by second\")",
		 slow, rounds, 100.0 * (double)slow / (double)rounds, SLOW_ROUND_FACTOR);
}
