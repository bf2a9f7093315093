/*
 * fleet_json.c - every number on `ucopy fleet`'s page as JSON (fleet_write.h;
 * the shape is in docs/fleet.md): the reports' own sections as they wrote
 * them, and what the fleet computed.
 */
#include "fleet_write.h"
#include "json.h"

#include <math.h>

/* A part of a report as the report has it: its keys are docs/report.md's. */
static void copy(struct json *j, const struct jr_value *v)
{
	if (!v) {
		json_null(j);
		return;
	}
	switch (v->type) {
	case JR_NULL: json_null(j); break;
	case JR_BOOL: json_bool(j, v->number != 0); break;
	case JR_NUMBER: json_double(j, v->number); break;
	case JR_STRING: json_string(j, v->string); break;
	case JR_ARRAY:
		json_begin_array(j);
		for (size_t i = 0; i < v->n; i++)
			copy(j, &v->item[i]);
		json_end_array(j);
		break;
	case JR_OBJECT:
		json_begin_object(j);
		for (size_t i = 0; i < v->n; i++) {
			json_key(j, v->key[i]);
			copy(j, &v->item[i]);
		}
		json_end_object(j);
		break;
	}
}

static void reports(struct json *j, const struct fleet *fl, const struct fleet_machine *m)
{
	json_begin_array(j);
	for (size_t k = 0; k < m->nfiles; k++) {
		const struct fleet_file *x = &fl->file[m->file[k]];
		json_begin_object(j);
		json_key(j, "path"); json_string(j, x->r.path);
		json_key(j, "date"); copy(j, jr_get(x->r.root, "date"));
		json_key(j, "schema"); json_uint(j, x->r.schema);
		json_key(j, "ucopy_version"); copy(j, jr_get(x->r.root, "ucopy_version"));
		json_key(j, "ucopy_commit"); copy(j, jr_get(x->r.root, "ucopy_commit"));
		json_key(j, "shown"); json_bool(j, m->file[k] == m->shown);
		json_key(j, "same_date_as");
		json_string(j, x->same_date >= 0 ? fl->file[x->same_date].r.path : NULL);
		json_end_object(j);
	}
	json_end_array(j);
}

static void regret(struct json *j, const struct fleet_regret *g)
{
	json_begin_object(j);
	json_key(j, "judged"); json_bool(j, g->judged);
	json_key(j, "why_not"); json_string(j, g->judged ? NULL : g->why);
	json_key(j, "auto"); json_string(j, g->policy[0] ? g->policy : NULL);
	json_key(j, "row"); json_string(j, g->row[0] ? g->row : NULL);
	for (int s = 0; s < REGRET_STATES; s++) {
		json_key(j, regret_state_name[s]);
		json_begin_object(j);
		json_key(j, "sizes"); json_uint(j, g->st[s].n);
		json_key(j, "geomean"); json_double(j, g->judged && g->st[s].n ? g->st[s].geomean : NAN);
		json_key(j, "worst"); json_double(j, g->judged && g->st[s].n ? g->st[s].worst : NAN);
		json_key(j, "worst_size");
		if (g->judged && g->st[s].n)
			json_uint(j, g->st[s].worst_size);
		else
			json_null(j);
		json_key(j, "missing_size");
		if (g->st[s].missing_size)
			json_uint(j, g->st[s].missing_size);
		else
			json_null(j);
		json_key(j, "missing_kernel"); json_string(j, g->st[s].missing_kernel);
		json_end_object(j);
	}
	json_key(j, "distributions");
	json_begin_object(j);
	static const char *const regime[REGRET_REGIMES] = { "unlearnable", "repeated" };
	for (int k = 0; k < REGRET_REGIMES; k++) {
		json_key(j, regime[k]);
		json_begin_object(j);
		json_key(j, "files"); json_uint(j, g->dist[k].files);
		json_key(j, "reports"); json_uint(j, g->dist[k].reports);
		json_key(j, "geomean"); json_double(j, g->dist[k].files ? g->dist[k].geomean : NAN);
		json_key(j, "worst"); json_double(j, g->dist[k].files ? g->dist[k].worst : NAN);
		json_key(j, "worst_name");
		json_string(j, g->dist[k].files ? g->dist[k].worst_name : NULL);
		json_end_object(j);
	}
	json_end_object(j);
	json_end_object(j);
}

static void machine(struct json *j, const struct fleet *fl, size_t i)
{
	const struct fleet_machine *m = &fl->m[i];
	const struct jr_value *root = fleet_root(fl, i), *mc = jr_get(root, "machine");
	static const char *const from_machine[] = { "cpu", "features", "caches", "kernel",
						    "compiler", "cflags" };
	static const char *const from_report[] = { "date", "ucopy_version", "segments", "classes",
						   "distributions", "distributions_repeated",
						   "workloads", "policy" };
	json_begin_object(j);
	json_key(j, "name"); json_string(j, m->name);
	json_key(j, "compared"); json_bool(j, fleet_compared(fl, i));
	json_key(j, "emulator"); json_string(j, m->emulator);
	/* The report's own key; null: the machine's own features. */
	json_key(j, "assumed_features");
	copy(j, jr_get(jr_get(root, "workloads"), "assumed_features"));
	for (size_t k = 0; k < sizeof from_machine / sizeof *from_machine; k++) {
		json_key(j, from_machine[k]);
		copy(j, jr_get(mc, from_machine[k]));
	}
	/* Null: a report before schema 5, which did not record it. */
	json_key(j, "commit"); copy(j, jr_get(root, "ucopy_commit"));
	json_key(j, "reports"); reports(j, fl, m);
	for (size_t k = 0; k < sizeof from_report / sizeof *from_report; k++) {
		json_key(j, from_report[k]);
		copy(j, jr_get(root, from_report[k]));
	}
	/* The cliff summary, not the matrix's cells: per variant and size. */
	json_key(j, "cliff");
	json_begin_object(j);
	const struct jr_value *vs = jr_get(jr_get(root, "cliff"), "variants");
	for (size_t v = 0; v < jr_len(vs); v++) {
		const char *name = jr_string(jr_get(jr_at(vs, v), "name"));
		json_key(j, name ? name : "?");
		copy(j, jr_get(jr_at(vs, v), "per_size"));
	}
	json_end_object(j);
	json_key(j, "regret"); regret(j, &m->regret);
	json_end_object(j);
}

void fleet_write_json(FILE *f, const struct fleet *fl)
{
	struct json j;
	json_init(&j, f, 1);
	json_begin_object(&j);
	json_key(&j, "schema"); json_uint(&j, FLEET_JSON_SCHEMA);
	json_key(&j, "machines");
	json_begin_array(&j);
	for (size_t i = 0; i < fl->nm; i++)
		machine(&j, fl, i);
	json_end_array(&j);
	json_key(&j, "skipped");
	json_begin_array(&j);
	for (size_t i = 0; i < fl->nfile; i++)
		if (!fl->file[i].r.root) {
			json_begin_object(&j);
			json_key(&j, "path"); json_string(&j, fl->file[i].r.path);
			json_key(&j, "reason"); json_string(&j, fl->file[i].bad);
			json_end_object(&j);
		}
	json_end_array(&j);
	json_key(&j, "differences");
	json_begin_array(&j);
	for (size_t i = 0; i < fl->ndiff; i++)
		json_string(&j, fl->diff[i]);
	json_end_array(&j);
	json_end_object(&j);
	json_finish(&j);
}
