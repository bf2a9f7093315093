/*
 * report_model.c - freeing what the report's measuring allocated
 * (report_model.h).
 */
#include "report_model.h"

#include <stdlib.h>

static void sweep_free(struct report_sweep *s)
{
	free(s->size);
	free(s->ns);
	free(s->p10);
	free(s->p90);
	free(s->gbps);
	free(s->vs_libc);
	free(s->vs_best);
	free(s->rounds);
}

static void cliff_free(struct report_cliff *c)
{
	free(c->size);
	free(c->sa);
	free(c->da);
	free(c->d);
	free(c->ns);
	free(c->slowdown);
	free(c->median);
	free(c->worst);
	free(c->worst_cell);
}

static void ab_free(struct report_ab *a)
{
	free(a->name);
	free(a->what);
	free(a->lo);
	free(a->hi);
	free(a->mean_size);
	free(a->ns_ucopy);
	free(a->ns_libc);
	free(a->ratio);
	free(a->ker);
	free(a->ns_alone_ucopy);
	free(a->ns_alone);
}

void report_free(struct report *r)
{
	free(r->var);
	sweep_free(&r->hot);
	sweep_free(&r->cold);
	cliff_free(&r->cliff);
	free(r->probes.size);
	free(r->probes.d);
	free(r->probes.ns);
	free(r->probes.control);
	free(r->probes.worst);
	struct report_workloads *w = &r->work;
	free(w->pol_name);
	free(w->pol_text);
	free(w->work_name);
	free(w->work_what);
	free(w->ns);
	free(w->vs_best);
	free(w->best);
	ab_free(&r->classes);
	ab_free(&r->dists);
	ab_free(&r->dists_repeated);
}
