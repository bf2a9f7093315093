/*
 * report_fmt.h - what the report's findings (commands/report_findings.c)
 * and its page (report_page.c) both write: numbers, intervals, verdicts,
 * and a cliff cell in words.
 */
#ifndef UCOPY_REPORT_FMT_H
#define UCOPY_REPORT_FMT_H

#include "report_model.h"
#include "stats.h"

#include <stddef.h>

/* Below this a difference between two medians of one sweep is within what
 * the same kernel measures twice on this guest; a crossover or a segment
 * change needs more. */
#define SAME 1.05
/* A cell this much slower than its size's median is a cliff. */
#define CLIFF 1.5

/* "1.23×", "12×", or "-" */
void report_fmt_x(double v, char *buf, size_t len);
void report_fmt_ns(double v, char *buf, size_t len);
/* "0.950–1.010", or "-" */
void report_fmt_ci(const struct stats_interval *s, char *buf, size_t len);
/* "12.3% faster" / "4.0% slower" for a time ratio. */
void report_fmt_change(double ratio, char *buf, size_t len);

enum report_verdict { RV_SAME, RV_FASTER, RV_SLOWER, RV_NONE };
/* The interval against 1: a claim only when it excludes no difference. */
enum report_verdict report_verdict_of(const struct stats_interval *s);
const char *report_verdict_text(enum report_verdict v);
/* The cell's class on the page: "good", "bad" or NULL. */
const char *report_verdict_class(enum report_verdict v);

/* The probes' distances in words: "1, 31, 63 or 192". */
void report_fmt_distances(const struct report_probes *p, char *buf, size_t len);

/* A cell of the cliff grid in words. */
void report_describe_cell(const struct report_cliff *c, size_t cell, char *buf, size_t len);

#endif
