/*
 * report_json.c - `ucopy report --json`: every number on the page, from the
 * measurements report_measure.c made (report_write_json(),
 * report_write.h).  Writes only what it is given.
 */
#include "json.h"
#include "machine.h"
#include "report_write.h"
#include "ucopy.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void json_interval(struct json *j, const char *key,
			  const struct stats_interval *s)
{
	json_key(j, key);
	json_begin_object(j);
	json_key(j, "est"); json_double(j, s->est);
	json_key(j, "lo"); json_double(j, s->lo);
	json_key(j, "hi"); json_double(j, s->hi);
	json_end_object(j);
}

static void json_sweep(struct json *j, const struct report *r,
		       const struct report_sweep *s)
{
	json_begin_object(j);
	json_key(j, "cache"); json_string(j, s->cache);
	json_key(j, "sizes");
	json_begin_array(j);
	for (size_t i = 0; i < s->nsize; i++)
		json_uint(j, s->size[i]);
	json_end_array(j);
	json_key(j, "rounds");
	json_begin_array(j);
	for (size_t i = 0; i < s->nsize; i++)
		json_uint(j, s->rounds[i]);
	json_end_array(j);
	json_key(j, "series");
	json_begin_array(j);
	for (size_t v = 0; v < s->nvar; v++) {
		json_begin_object(j);
		json_key(j, "name"); json_string(j, r->var[v].name);
		json_key(j, "label"); json_string(j, r->var[v].label);
		json_key(j, "points");
		json_begin_array(j);
		for (size_t i = 0; i < s->nsize; i++) {
			size_t k = v * s->nsize + i;
			json_begin_object(j);
			json_key(j, "size"); json_uint(j, s->size[i]);
			json_key(j, "ns_median"); json_double(j, s->ns[k]);
			json_key(j, "ns_p10"); json_double(j, s->p10[k]);
			json_key(j, "ns_p90"); json_double(j, s->p90[k]);
			json_key(j, "gbps"); json_double(j, s->gbps[k]);
			json_interval(j, "vs_libc", &s->vs_libc[k]);
			json_interval(j, "vs_best", &s->vs_best[k]);
			json_end_object(j);
		}
		json_end_array(j);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

static void json_u32s(struct json *j, const char *key, const uint32_t *v, size_t n)
{
	json_key(j, key);
	json_begin_array(j);
	for (size_t i = 0; i < n; i++)
		json_uint(j, v[i]);
	json_end_array(j);
}

static void json_cliff(struct json *j, const struct report_cliff *c)
{
	static const char *const names[2] = { "ucopy", "libc" };
	size_t ncol = report_cliff_ncol(c), nper = c->nsa * ncol;
	json_begin_object(j);
	json_key(j, "sampled"); json_bool(j, c->sampled);
	json_key(j, "sizes");
	json_begin_array(j);
	for (size_t i = 0; i < c->nsize; i++)
		json_uint(j, c->size[i]);
	json_end_array(j);
	json_u32s(j, "src_align", c->sa, c->nsa);
	json_u32s(j, "dst_align", c->da, c->nda);
	json_u32s(j, "distance", c->d, c->nd);
	json_key(j, "variants");
	json_begin_array(j);
	for (size_t v = 0; v < c->nvar; v++) {
		json_begin_object(j);
		json_key(j, "name"); json_string(j, names[v]);
		json_key(j, "per_size");
		json_begin_array(j);
		for (size_t s = 0; s < c->nsize; s++) {
			size_t k = v * c->nsize + s, wc = c->worst_cell[k];
			uint32_t so, dof;
			report_cliff_offsets(c, wc / ncol, wc % ncol, &so, &dof);
			json_begin_object(j);
			json_key(j, "size"); json_uint(j, c->size[s]);
			json_key(j, "ns_median"); json_double(j, c->median[k]);
			json_key(j, "worst_slowdown"); json_double(j, c->worst[k]);
			json_key(j, "worst_src_offset"); json_uint(j, so);
			json_key(j, "worst_dst_offset"); json_uint(j, dof);
			json_end_object(j);
		}
		json_end_array(j);
		json_key(j, "cells");
		json_begin_array(j);
		for (size_t s = 0; s < c->nsize; s++)
			for (size_t i = 0; i < nper; i++) {
				size_t k = v * c->nsize * nper + s * nper + i;
				uint32_t so, dof;
				report_cliff_offsets(c, i / ncol, i % ncol, &so, &dof);
				json_begin_object(j);
				json_key(j, "size"); json_uint(j, c->size[s]);
				json_key(j, "src_align"); json_uint(j, c->sa[i / ncol]);
				if (i % ncol < c->nda) {
					json_key(j, "dst_align"); json_uint(j, c->da[i % ncol]);
				} else {
					json_key(j, "distance"); json_uint(j, c->d[i % ncol - c->nda]);
				}
				json_key(j, "src_offset"); json_uint(j, so);
				json_key(j, "dst_offset"); json_uint(j, dof);
				json_key(j, "ns_median"); json_double(j, c->ns[k]);
				json_key(j, "slowdown"); json_double(j, c->slowdown[k]);
				json_end_object(j);
			}
		json_end_array(j);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

static void json_probes(struct json *j, const struct report *r)
{
	const struct report_probes *p = &r->probes;
	json_begin_object(j);
	json_key(j, "control_distance"); json_uint(j, PROBE_CONTROL);
	json_key(j, "sizes");
	json_begin_array(j);
	for (size_t s = 0; s < p->nsize; s++)
		json_uint(j, p->size[s]);
	json_end_array(j);
	json_u32s(j, "distances", p->d, p->nd);
	json_key(j, "kernels");
	json_begin_array(j);
	for (size_t k = 0; k < p->nk; k++) {
		json_begin_object(j);
		json_key(j, "name"); json_string(j, r->var[k].name);
		json_key(j, "per_size");
		json_begin_array(j);
		for (size_t s = 0; s < p->nsize; s++) {
			json_begin_object(j);
			json_key(j, "size"); json_uint(j, p->size[s]);
			json_key(j, "ns_control"); json_double(j, p->control[k * p->nsize + s]);
			json_key(j, "ns");
			json_begin_array(j);
			for (size_t d = 0; d < p->nd; d++)
				json_double(j, p->ns[(k * p->nsize + s) * p->nd + d]);
			json_end_array(j);
			json_key(j, "worst_ratio"); json_double(j, p->worst[k * p->nsize + s]);
			json_end_object(j);
		}
		json_end_array(j);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

static void json_ab(struct json *j, const struct report_ab *a, int classes)
{
	json_begin_object(j);
	if (a->reason[0]) {
		json_key(j, "reason"); json_string(j, a->reason);
	}
	json_key(j, "regime"); json_string(j, a->regime);
	json_key(j, "sequence"); json_uint(j, a->sequence);
	json_key(j, "condition"); json_string(j, a->condition);
	json_key(j, "rows");
	json_begin_array(j);
	for (size_t i = 0; i < a->n; i++) {
		json_begin_object(j);
		json_key(j, "name"); json_string(j, a->name[i]);
		json_key(j, "what"); json_string(j, a->what[i]);
		if (classes) {
			json_key(j, "size_lo"); json_uint(j, a->lo[i]);
			json_key(j, "size_hi"); json_uint(j, a->hi[i]);
		}
		json_key(j, "mean_size"); json_double(j, a->mean_size[i]);
		json_key(j, "ns_ucopy"); json_double(j, a->ns_ucopy[i]);
		json_key(j, "ns_libc"); json_double(j, a->ns_libc[i]);
		json_interval(j, "ratio", &a->ratio[i]);
		if (a->nker) {
			json_key(j, "alone");
			json_begin_object(j);
			json_key(j, "ns_ucopy"); json_double(j, a->ns_alone_ucopy[i]);
			json_key(j, "kernels");
			json_begin_array(j);
			for (size_t k = 0; k < a->nker; k++) {
				json_begin_object(j);
				json_key(j, "name"); json_string(j, a->ker[k]);
				json_key(j, "ns"); json_double(j, a->ns_alone[i * a->nker + k]);
				json_end_object(j);
			}
			json_end_array(j);
			json_end_object(j);
		}
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

static void json_workloads(struct json *j, const struct report_workloads *w)
{
	json_begin_object(j);
	if (w->reason[0]) {
		json_key(j, "reason"); json_string(j, w->reason);
	}
	/* Absent: the machine's own features, as in every report before it. */
	if (w->assume) {
		json_key(j, "assumed_features");
		json_begin_object(j);
		json_key(j, "list"); json_string(j, w->assume);
		json_key(j, "features"); machine_json_features(j, w->features);
		json_end_object(j);
	}
	json_key(j, "policies");
	json_begin_array(j);
	for (size_t p = 0; p < w->npol; p++) {
		json_begin_object(j);
		json_key(j, "name"); json_string(j, w->pol_name[p]);
		json_key(j, "policy"); json_string(j, w->pol_text[p]);
		json_end_object(j);
	}
	json_end_array(j);
	json_key(j, "workloads");
	json_begin_array(j);
	for (size_t k = 0; k < w->nwork; k++) {
		json_begin_object(j);
		json_key(j, "name"); json_string(j, w->work_name[k]);
		json_key(j, "what"); json_string(j, w->work_what[k]);
		/* null for a workload that was not measured */
		json_key(j, "best");
		json_string(j, w->npol && isfinite(w->ns[w->best[k] * w->nwork + k])
				       ? w->pol_name[w->best[k]] : NULL);
		json_key(j, "results");
		json_begin_array(j);
		for (size_t p = 0; p < w->npol; p++) {
			json_begin_object(j);
			json_key(j, "policy"); json_string(j, w->pol_name[p]);
			json_key(j, "ns_median"); json_double(j, w->ns[p * w->nwork + k]);
			json_interval(j, "vs_best", &w->vs_best[p * w->nwork + k]);
			json_end_object(j);
		}
		json_end_array(j);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

/* Over 100 lines: the top-level keys in the schema's order (docs/report.md). */
void report_write_json(FILE *f, const struct report *r)
{
	struct json j;
	json_init(&j, f, 1);
	json_begin_object(&j);
	/* docs/report.md, "The JSON's schema": raised whenever a key changes
	 * meaning or goes; a report without it is schema 1. */
	json_key(&j, "schema"); json_uint(&j, REPORT_JSON_SCHEMA);
	json_key(&j, "machine");
	machine_json(&j);
	json_key(&j, "ucopy_version"); json_string(&j, ucopy_version_string());
	json_key(&j, "ucopy_commit"); json_string(&j, machine_commit());
	json_key(&j, "date"); json_string(&j, r->date);
	json_key(&j, "command"); json_string(&j, r->command);
	json_key(&j, "budget_seconds"); json_double(&j, r->budget);
	json_key(&j, "elapsed_seconds"); json_double(&j, r->elapsed);
	json_key(&j, "quick"); json_bool(&j, r->quick);
	json_key(&j, "seed"); json_uint(&j, r->seed);
	json_key(&j, "timer"); json_string(&j, r->timer);
	json_key(&j, "distribution_dir");
	if (r->dist_dir[0]) {
		json_begin_object(&j);
		json_key(&j, "path"); json_string(&j, r->dist_dir);
		json_key(&j, "from"); json_string(&j, r->dist_from);
		json_end_object(&j);
	} else
		json_null(&j);
	json_key(&j, "policy");
	json_begin_object(&j);
	json_key(&j, "active"); json_string(&j, r->policy.active);
	json_key(&j, "active_source"); json_string(&j, r->policy.active_source);
	json_key(&j, "auto_row"); json_string(&j, r->policy.auto_row);
	json_key(&j, "recommended"); json_string(&j, r->policy.text);
	json_key(&j, "recommended_from"); json_string(&j, r->policy.source);
	json_key(&j, "gain_over_auto"); json_double(&j, r->policy.gain_auto);
	json_key(&j, "gain_over_libc"); json_double(&j, r->policy.gain_libc);
	json_key(&j, "note"); json_string(&j, r->policy.note);
	json_key(&j, "thresholds");
	json_begin_array(&j);
	for (size_t i = 0; i < r->policy.nthr; i++) {
		const struct report_threshold *t = &r->policy.thr[i];
		json_begin_object(&j);
		json_key(&j, "limit"); json_uint(&j, t->limit);
		json_key(&j, "from"); json_string(&j, t->from);
		json_key(&j, "to"); json_string(&j, t->to);
		json_key(&j, "inherited"); json_bool(&j, t->inherited);
		json_key(&j, "below"); json_uint(&j, t->below);
		json_key(&j, "at"); json_uint(&j, t->at);
		json_key(&j, "ratio_below"); json_double(&j, t->ratio_below);
		json_key(&j, "ratio_at"); json_double(&j, t->ratio_at);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_end_object(&j);
	json_key(&j, "sweep");
	json_begin_array(&j);
	json_sweep(&j, r, &r->hot);
	if (r->cold.nsize)
		json_sweep(&j, r, &r->cold);
	json_end_array(&j);
	json_key(&j, "segments");
	json_begin_array(&j);
	for (size_t i = 0; i < r->nseg; i++) {
		json_begin_object(&j);
		json_key(&j, "cache"); json_string(&j, r->seg[i].cache);
		json_key(&j, "kernel"); json_string(&j, r->seg[i].kernel);
		json_key(&j, "from"); json_uint(&j, r->seg[i].from);
		json_key(&j, "to"); json_uint(&j, r->seg[i].to);
		json_key(&j, "margin"); json_double(&j, r->seg[i].margin);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_key(&j, "crossovers");
	json_begin_array(&j);
	for (size_t i = 0; i < r->ncross; i++) {
		const struct report_crossover *c = &r->cross[i];
		json_begin_object(&j);
		json_key(&j, "a"); json_string(&j, c->a);
		json_key(&j, "b"); json_string(&j, c->b);
		json_key(&j, "cache"); json_string(&j, c->cache);
		json_key(&j, "size"); json_double(&j, c->size);
		json_key(&j, "below"); json_uint(&j, c->below);
		json_key(&j, "above"); json_uint(&j, c->above);
		json_key(&j, "ratio_below"); json_double(&j, c->ratio_below);
		json_key(&j, "ratio_above"); json_double(&j, c->ratio_above);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_key(&j, "cliff");
	json_cliff(&j, &r->cliff);
	json_key(&j, "probes");
	json_probes(&j, r);
	json_key(&j, "workloads");
	json_workloads(&j, &r->work);
	json_key(&j, "classes");
	json_ab(&j, &r->classes, 1);
	json_key(&j, "distributions");
	json_ab(&j, &r->dists, 0);
	json_key(&j, "distributions_repeated");
	json_ab(&j, &r->dists_repeated, 0);
	json_key(&j, "findings");
	json_begin_array(&j);
	for (size_t i = 0; i < r->nfind; i++)
		json_string(&j, r->find[i]);
	json_end_array(&j);
	json_end_object(&j);
	json_finish(&j);
}

/*=====   The command   =====*/
