/*
 * derive.c - `ucopy derive`: the policy the derivation (calibration.h)
 * gives a machine from its saved reports, without the machine at hand.
 */
#include "cli.h"
#include "corpus.h"
#include "derive_cmd.h"
#include "json.h"
#include "output.h"
#include "ucopy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CMD "derive"

void help_derive(FILE *f)
{
	fputs("usage: ucopy derive [--json] [--allow-missing] REPORT...\n\n"
	      "Derives the policy for the machine that REPORT (a `ucopy report --json`\n"
	      "file, gzipped or not) measured, with the rules `ucopy calibrate` and the\n"
	      "report's recommendation use (docs/calibrate.md, \"How a policy is\n"
	      "derived\"), starting from the policy auto's default row gives that CPU.\n"
	      "Several reports of one CPU are judged together: a kernel's win must hold\n"
	      "in each of them.  The reports' own kernels are the ones judged: they must\n"
	      "be of this ucopy's architecture.\n\n"
	      "  --json           one JSON object: cpu {vendor, family, model, brand},\n"
	      "                   reports [paths], default (the default row's policy),\n"
	      "                   policy, thresholds [{limit, from, to, inherited,\n"
	      "                   below, at}], skipped [{path, reason}]\n"
	      "  --allow-missing  skip a report that cannot be read (named on stderr,\n"
	      "                   with the reason) instead of stopping with exit 2\n\n"
	      "A report that is truncated, not JSON, of a schema this ucopy does not\n"
	      "know, with a number out of its range, of another architecture, of\n"
	      "another CPU than the first one, or given twice (its date and seed) is\n"
	      "named with the reason (exit 2).\n\n"
	      "usage: ucopy derive --rows CORPUS [-o FILE] [--allow-missing]\n\n"
	      "Derives every machine folder of CORPUS (data/machines: each folder's\n"
	      "report-N.json.gz files) and writes the C table of auto's derived rows,\n"
	      "each keyed by the vendor, family and model ranges CORPUS/families.txt\n"
	      "gives its CPU (`make rows` writes lib/x86_64/rows.c).\n\n"
	      "  -o, --output FILE  the table (default: standard output), written whole\n"
	      "                     or not at all\n", f);
}

static void print_text(const struct loaded *l, const char *def, const struct calibration *cal)
{
	const struct ucopy_cpu *c = &l->r[0].cpu;
	char l2[16], l3[16], text[512];
	ucopy_size_format(c->l2, l2, sizeof l2);
	ucopy_size_format(c->l3, l3, sizeof l3);
	ucopy_policy_format(&cal->policy, text, sizeof text);
	printf("cpu       %s (%s %u/%u), L2 %s L3 %s\n", l->r[0].brand, c->vendor, c->family,
	       c->model, l2, l3);
	printf("reports   %zu:", l->n);
	for (size_t i = 0; i < l->n; i++)
		printf(" %s", l->r[i].path);
	printf("\ndefault   %s (auto's default row for this CPU: where the derivation starts)\n",
	       def);
	printf("derived   %s\n", text);
	for (unsigned i = 0; i < cal->ncross; i++) {
		const struct cal_cross *x = &cal->cross[i];
		char lim[16], below[16], at[16];
		ucopy_size_format(x->limit, lim, sizeof lim);
		ucopy_size_format(x->below, below, sizeof below);
		ucopy_size_format(x->at, at, sizeof at);
		if (x->inherited) {
			printf("  %-8s %s -> %s: the default's, above the largest size measured\n",
			       lim, x->from->name, x->to->name);
			continue;
		}
		printf("  %-8s %s -> %s, between %s and %s; %s/%s hot:", lim, x->from->name,
		       x->to->name, below, at, x->to->name, x->from->name);
		for (unsigned e = 0; e < x->nev; e++) {
			char s[16];
			ucopy_size_format(x->ev_size[e], s, sizeof s);
			printf(" %s %.2f", s, x->ev_ratio[e]);
		}
		printf("\n");
	}
}

static void print_json(const struct loaded *l, const char *def, const struct calibration *cal)
{
	const struct ucopy_cpu *c = &l->r[0].cpu;
	char text[512];
	struct json j;
	ucopy_policy_format(&cal->policy, text, sizeof text);
	json_init(&j, stdout, 1);
	json_begin_object(&j);
	json_key(&j, "cpu");
	json_begin_object(&j);
	json_key(&j, "vendor"); json_string(&j, c->vendor);
	json_key(&j, "family"); json_uint(&j, c->family);
	json_key(&j, "model"); json_uint(&j, c->model);
	json_key(&j, "brand"); json_string(&j, l->r[0].brand);
	json_end_object(&j);
	json_key(&j, "reports");
	json_begin_array(&j);
	for (size_t i = 0; i < l->n; i++)
		json_string(&j, l->r[i].path);
	json_end_array(&j);
	json_key(&j, "default"); json_string(&j, def);
	json_key(&j, "policy"); json_string(&j, text);
	json_key(&j, "thresholds");
	json_begin_array(&j);
	for (unsigned i = 0; i < cal->ncross; i++) {
		const struct cal_cross *x = &cal->cross[i];
		json_begin_object(&j);
		json_key(&j, "limit"); json_uint(&j, x->limit);
		json_key(&j, "from"); json_string(&j, x->from->name);
		json_key(&j, "to"); json_string(&j, x->to->name);
		json_key(&j, "inherited"); json_bool(&j, x->inherited);
		json_key(&j, "below"); json_uint(&j, x->below);
		json_key(&j, "at"); json_uint(&j, x->at);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_key(&j, "skipped");
	json_begin_array(&j);
	for (size_t i = 0; i < l->nskipped; i++) {
		char *tab = strchr(l->skipped[i], '\t');
		json_begin_object(&j);
		if (tab)
			*tab = 0;
		json_key(&j, "path"); json_string(&j, l->skipped[i]);
		json_key(&j, "reason"); json_string(&j, tab ? tab + 1 : "");
		json_end_object(&j);
	}
	json_end_array(&j);
	json_end_object(&j);
	json_finish(&j);
}

int cmd_derive(int argc, char **argv)
{
	int json = 0, allow = 0, rc = 0;
	const char *rows = NULL, *output = NULL, *v;
	char **paths = calloc((size_t)argc, sizeof *paths);
	size_t n = 0;
	if (!paths) {
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	for (int i = 1; i < argc && !rc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = 1;
		else if (!strcmp(argv[i], "--allow-missing"))
			allow = 1;
		else if ((v = cli_opt_value(CMD, argc, argv, &i, "--rows", 0, &rc)))
			rows = v;
		else if ((v = cli_opt_value2(CMD, argc, argv, &i, "-o", "--output", 0, &rc)))
			output = v;
		else if (rc)
			break;
		else if (!strcmp(argv[i], "--"))
			while (++i < argc)
				paths[n++] = argv[i];
		else if (argv[i][0] == '-' && argv[i][1])
			rc = cli_usage_error(CMD, "unknown option '%s'", argv[i]);
		else
			paths[n++] = argv[i];
	}
	if (!rc && rows && (n || json))
		rc = cli_usage_error(CMD, "--rows reads the corpus folder itself (expected no %s)",
				     n ? "REPORT" : "--json");
	if (!rc && !rows && output)
		rc = cli_usage_error(CMD, "-o writes --rows's table (expected --rows CORPUS)");
	if (!rc && !rows && !n)
		rc = cli_usage_error(CMD, "no report given (expected REPORT... or --rows CORPUS)");
	if (rc || rows) {
		free(paths);
		return rc ? rc : derive_rows(rows, output, allow);
	}
	struct derived d;
	rc = derive_reports(paths, n, allow, &d);
	free(paths);
	if (!rc) {
		if (json)
			print_json(&d.reports, d.deftext, d.cal);
		else
			print_text(&d.reports, d.deftext, d.cal);
	}
	derived_free(&d);
	return rc;
}
