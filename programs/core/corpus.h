/*
 * corpus.h - measured machines read back: a `ucopy report --json` file
 * (gzipped or not; data/machines/README.md) as the machine it describes
 * and as the measurements the derivation (calibration.h) takes, so that a
 * policy can be derived for a CPU that is not at hand, and the same rules
 * serve `ucopy calibrate`, the report and `ucopy derive`.
 */
#ifndef UCOPY_CORPUS_H
#define UCOPY_CORPUS_H

#include <stddef.h>

#include "calibration.h"
#include "json_read.h"
#include "ucopy.h"

/* The report schemas this reader knows (docs/report.md, "The JSON's
 * schema"): a file without the key is schema 1. */
#define CORPUS_SCHEMA_MIN 1
#define CORPUS_SCHEMA_MAX 5
/* The most reports of one machine derived together. */
#define CORPUS_MAX_REPORTS 32
/* The most distributions a report's tables hold (DATA_MAX_DISTS). */
#define CORPUS_MAX_DISTS 64

struct corpus_report {
	char path[4096];
	struct jr_value *root;
	unsigned schema;
	struct ucopy_cpu cpu;     /* arch, vendor, family, model, features,
				     l2, l3 as the report gives them */
	char brand[64];
};

/* Reads and checks one report: a JSON object of a known schema, with the
 * machine, the sweeps and the probes, measured on the architecture this
 * ucopy is built for (kernels are the port's, by name).
 * @return : 0, or -1 with the reason in err (the path is the caller's to
 *           name). */
int corpus_read(const char *path, struct corpus_report *r, char *err, size_t errlen);
/* corpus_read() in two steps, for a reader that shows a report of any
 * architecture.  corpus_open() : a JSON object of a known schema with a
 * machine and a sweep; r->cpu holds the arch, vendor, family, model and
 * stepping, r->brand the brand, and nothing else yet.  corpus_check() : the
 * rest of corpus_read() (this architecture, its features and caches, every
 * number the derivation reads); r is released when it fails.
 * @return : 0, or -1 with the reason in err. */
int corpus_open(const char *path, struct corpus_report *r, char *err, size_t errlen);
int corpus_check(struct corpus_report *r, char *err, size_t errlen);
void corpus_release(struct corpus_report *r);

/* 1 when a and b are one run: the same date and seed. */
int corpus_same_run(const struct corpus_report *a, const struct corpus_report *b);
/* 1 when a and b are the same CPU (vendor, family, model). */
int corpus_cpu_equal(const struct ucopy_cpu *a, const struct ucopy_cpu *b);
/* 1 when a and b were measured on the same CPU (vendor, family, model). */
int corpus_same_cpu(const struct corpus_report *a, const struct corpus_report *b);

/* A corpus folder's machines (its subfolders) or a machine folder's
 * reports (report-*.json.gz), by name, sorted: not an order that depends on
 * the file system.  @return : the names (corpus_free_list() them), or NULL
 * with errno (EMFILE: more than max). */
enum corpus_entries { CORPUS_MACHINES, CORPUS_REPORTS };
char **corpus_list(const char *dir, enum corpus_entries what, size_t max, size_t *n);
void corpus_free_list(char **l, size_t n);

/* r's sweep for `cache` ("hot", "cold"), or NULL; and the point of one of
 * its series at `size`, or NULL.  Their numbers were checked on reading. */
const struct jr_value *corpus_sweep(const struct corpus_report *r, const char *cache);
const struct jr_value *corpus_point(const struct jr_value *series, size_t size);

/* The measurements of n reports of one machine as one calibration: per
 * size, state and kernel the median of the reports' medians, and as its
 * interval against the size's fastest kernel the envelope of every
 * report's interval (each report's ratio, with its paired interval against
 * the fastest kernel, or before schema 3 against libc, as a share of it),
 * so a win must hold in every report to hold here.  Probes: a
 * kernel's cell is a cliff when any report confirmed one (CAL_CLIFF).
 * cal->l2 is the machine's; cal->inherit is left for the caller.
 * @return : 0, or -1 with the reason in err (more than CORPUS_MAX_REPORTS
 *           reports, or more sizes or cliffs than a calibration holds). */
int corpus_calibration(const struct corpus_report *r, size_t n, struct calibration *cal,
		       char *err, size_t errlen);

/* The policy the default row of auto gives r's CPU (its features and
 * caches, under a family no row is keyed by): where a derivation for a CPU
 * starts.  @return : 0, or -1 when this library cannot describe the CPU. */
int corpus_default_policy(const struct corpus_report *r, struct ucopy_policy *p,
			  char *err, size_t errlen);

/* The policy auto gives r's CPU (its row, features and caches), as
 * `ucopy features --cpu` prints it, as text and parsed, and its row's name
 * in row.  @return : 0, or -1 when this library cannot describe the CPU
 * (another architecture's). */
int corpus_auto_policy(const struct corpus_report *r, struct ucopy_policy *p, char *text,
		       size_t textlen, char *row, size_t rowlen);

#endif
