/*
 * report_write.h - the two writers of `ucopy report`'s results
 * (report_model.h): the page and the JSON.
 */
#ifndef UCOPY_REPORT_WRITE_H
#define UCOPY_REPORT_WRITE_H

#include <stdio.h>

#include "report_model.h"

/* The version of the layout report_write_json() writes (docs/report.md,
 * "The JSON's schema").  1: the reports written before the key existed
 * (f98618d's among them, in data/machines/); 2: the key; 3: auto's row and
 * each sweep point's vs_best; 4: the distributions' kernels timed alone;
 * 5: workloads.assumed_features, without which a reader would take an
 * assumed CPU's policies for this one's. */
#define REPORT_JSON_SCHEMA 5

/* Writes the page. */
void report_write_html(FILE *f, const struct report *r);
/* Every number on the page as JSON (report_json.c). */
void report_write_json(FILE *f, const struct report *r);

#endif
