/*
 * derive_load.c - reports read and derived: what `ucopy derive`, its --rows
 * table (derive_rows.c) and `ucopy regret` share, below all three.
 */
#include "cli.h"
#include "corpus.h"
#include "derive_cmd.h"
#include "ucopy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void loaded_release(struct loaded *l)
{
	for (size_t i = 0; i < l->n; i++)
		corpus_release(&l->r[i]);
	free(l->r);
	free(l->skipped);
}

int loaded_read(struct loaded *l, char **paths, size_t n, int allow_missing)
{
	l->r = calloc(n ? n : 1, sizeof *l->r);
	l->skipped = calloc(n ? n : 1, sizeof *l->skipped);
	if (!l->r || !l->skipped) {
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	for (size_t i = 0; i < n; i++) {
		char err[384];
		struct corpus_report *r = &l->r[l->n];
		int bad = corpus_read(paths[i], r, err, sizeof err);
		/* The same report twice would count its noise as agreement. */
		for (size_t j = 0; !bad && j < l->n; j++)
			if (corpus_same_run(&l->r[j], r)) {
				snprintf(err, sizeof err, "the same report as %.200s (its date and seed)",
					 l->r[j].path);
				corpus_release(r);
				bad = 1;
			}
		if (!bad && l->n == CORPUS_MAX_REPORTS) {
			snprintf(err, sizeof err, "more than %d reports of one machine",
				 CORPUS_MAX_REPORTS);
			corpus_release(r);
			bad = 1;
		}
		if (!bad && l->n && !corpus_same_cpu(&l->r[0], r)) {
			snprintf(err, sizeof err, "measured on %s %u/%u, not %s %u/%u as %.200s",
				 r->cpu.vendor, r->cpu.family, r->cpu.model, l->r[0].cpu.vendor,
				 l->r[0].cpu.family, l->r[0].cpu.model, l->r[0].path);
			corpus_release(r);
			bad = 1;
		}
		if (!bad) {
			l->n++;
			continue;
		}
		if (!allow_missing) {
			cli_error("%s: %s", paths[i], err);
			return EXIT_USAGE;
		}
		fprintf(stderr, "ucopy: %s: %s (skipped: --allow-missing)\n", paths[i], err);
		snprintf(l->skipped[l->nskipped++], sizeof l->skipped[0], "%s\t%s", paths[i], err);
	}
	if (!l->n) {
		cli_error("no report left to derive from");
		return EXIT_USAGE;
	}
	return 0;
}

int derive_reports(char **paths, size_t n, int allow, struct derived *d)
{
	memset(d, 0, sizeof *d);
	int rc = loaded_read(&d->reports, paths, n, allow);
	return rc ? rc : derive_loaded(d, NULL);
}

int derive_loaded(struct derived *d, const struct ucopy_policy *start)
{
	char err[256];
	const struct corpus_report *first = &d->reports.r[0];
	d->cal = calloc(1, sizeof *d->cal);
	if (!d->cal) {
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	calibration_init(d->cal);
	if (start)
		d->def = *start;
	else if (corpus_default_policy(first, &d->def, err, sizeof err)) {
		cli_error("%s: %s", first->path, err);
		return EXIT_USAGE;
	}
	ucopy_policy_format(&d->def, d->deftext, sizeof d->deftext);
	if (corpus_calibration(d->reports.r, d->reports.n, d->cal, err, sizeof err)) {
		cli_error("%s: %s", first->path, err);
		return EXIT_USAGE;
	}
	d->cal->inherit = &d->def;
	calibration_derive(d->cal);
	if (!d->cal->policy.nrules) {
		cli_error("%s: no kernel the reports timed can be used at every size", first->path);
		return EXIT_USAGE;
	}
	return 0;
}

void derived_free(struct derived *d)
{
	if (d->cal)
		calibration_free(d->cal);
	free(d->cal);
	d->cal = NULL;
	loaded_release(&d->reports);
	memset(&d->reports, 0, sizeof d->reports);
}
