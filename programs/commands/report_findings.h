/*
 * report_findings.h - what `ucopy report` makes of its measurements.
 */
#ifndef UCOPY_REPORT_FINDINGS_H
#define UCOPY_REPORT_FINDINGS_H

#include "report_model.h"

/* Derives crossovers, segments, the recommended policy and the findings
 * from the measurements, into r (report_findings.c). */
void report_analyse(struct report *r);

#endif
