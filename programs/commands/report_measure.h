/*
 * report_measure.h - the measuring half of `ucopy report` (report_measure.c):
 * every section of the page, timed into a struct report within one budget.
 *
 * The command (report.c) parses the options, opens the outputs and stamps
 * the machine; this fills in the numbers; the page and the JSON
 * (report_page.c, report_json.c) only render them.
 */
#ifndef UCOPY_REPORT_MEASURE_H
#define UCOPY_REPORT_MEASURE_H

#include "report_model.h"

/* What the measuring needs beyond the struct report (whose budget, quick
 * and seed are already set). */
struct report_measure_opts {
	int quiet;                /* no progress on stderr */
	int verbose;              /* progress as one line per step */
	const char *dist_dir;     /* the distributions' directory, or NULL */
	const char *dist_why;     /* why there is none, when dist_dir is NULL */
	const char *assume;       /* --assume-features as given, or NULL */
	uint64_t features;        /* with assume: the set it gave */
};

/* Runs every section within r->budget seconds, then derives the recommended
 * policy from the sweep and the probes.
 * @return : 0, or -1 after "out of memory" on stderr. */
int report_measure(struct report *r, const struct report_measure_opts *o);

#endif
