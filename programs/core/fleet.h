/*
 * fleet.h - many machines' reports side by side (`ucopy fleet`): report
 * files read (of any architecture), grouped into machines, each machine's
 * auto judged on its own reports (regret.h), and what differs between the
 * machines, in sentences computed from the numbers.  The writers
 * (fleet_page.c, fleet_json.c) read each machine's newest report through
 * it; nothing here measures.
 */
#ifndef UCOPY_FLEET_H
#define UCOPY_FLEET_H

#include <stddef.h>

#include "corpus.h"
#include "regret.h"

/* The most files and machines one page holds (the page is meant for 2 to
 * 20 machines; past 64 columns no table reads). */
#define FLEET_MAX_FILES 256
#define FLEET_MAX_MACHINES 64
/* A policy is behind on a workload when the lower end of its interval
 * against the fastest is above this (the report's red cell). */
#define FLEET_BEHIND 1.05
/* A cliff cell: this much slower than its size's median (report_fmt.h). */
#define FLEET_CLIFF 1.5

struct fleet_file {
	struct corpus_report r;     /* r.root NULL: not read */
	char bad[512];              /* why it was not read; "" when it was */
	int machine;                /* its machine; -1 when not read */
	int same_date;              /* another file of its machine with the
				       same date (both kept): its index, or -1 */
	int checked;                /* corpus_check() passed: this build's
				       architecture, every number sound */
};

/* auto's regret on a machine's own reports, as `ucopy regret` has it. */
struct fleet_regret {
	int judged;                 /* 0: why says why not */
	char why[192];
	char policy[512], row[128]; /* auto's policy for the CPU, and its row */
	struct {
		size_t n;               /* sizes judged */
		double geomean, worst;
		size_t worst_size;
		size_t missing_size;    /* a size sent to a kernel not timed */
		const char *missing_kernel;
	} st[REGRET_STATES];
	struct {
		size_t files, reports;  /* files judged; reports that count */
		double geomean, worst;
		char worst_name[64];
	} dist[REGRET_REGIMES];
};

struct fleet_machine {
	char name[160];             /* brand, or vendor, family and model, then
				       ", assuming LIST"; unique */
	const char *emulator;       /* machine.emulator; NULL: a CPU */
	const char *assume;         /* workloads.assumed_features.list; NULL:
				       its policies resolved for its own features */
	size_t nfiles;
	size_t file[CORPUS_MAX_REPORTS];   /* oldest first */
	size_t shown;               /* the file whose numbers the page shows:
				       the newest */
	struct fleet_regret regret;
};

struct fleet {
	struct fleet_file *file;
	size_t nfile;
	struct fleet_machine *m;
	size_t nm;
	size_t ncpu;                /* machines told apart by CPU and emulator:
				       nm less the columns that assumed another
				       feature set on one of them */
	char **diff;                /* what differs, one sentence each */
	size_t ndiff;
};

/* Reads one file into f, good or bad (a bad one is kept with its reason,
 * for --skip-bad to name).  @return : 0; -1 with the reason in err when the
 * file is not a report this ucopy reads; -2 when out of memory or past
 * FLEET_MAX_FILES. */
int fleet_add(struct fleet *f, const char *path, char *err, size_t errlen);

/* Groups the files read into machines (the same CPU: architecture, vendor,
 * family, model, stepping and brand, the same emulator, and the same
 * feature set assumed for the historic policies, or none), judges auto
 * on each and writes what differs.  @return : 0, or -1 with the reason in
 * err (no memory; more machines or reports of one machine than a page
 * holds). */
int fleet_build(struct fleet *f, char *err, size_t errlen);
void fleet_free(struct fleet *f);

/* The newest report of machine i (its tree). */
const struct jr_value *fleet_root(const struct fleet *f, size_t i);
/* 1 when machine i's timings are compared: not measured under an emulator. */
int fleet_compared(const struct fleet *f, size_t i);
/* 1 when machine i's reports resolved the historic policies for their own
 * features.  A column of an assumed set is its machine again in every
 * other section (the sweeps, the distributions, auto's regret): it counts
 * in the historic policies alone. */
int fleet_own_features(const struct fleet *f, size_t i);

/* The fastest kernel at `size` in a report's segments for cache ("hot",
 * "cold"): the segment holding it, or between two segments the nearer
 * on a log scale.  @return : its name, or NULL outside every segment. */
const char *fleet_winner(const struct jr_value *root, const char *cache, double size);

/* The cliff matrix's worst cell of `variant` ("ucopy", "libc") at `size`
 * over the size's median cell; NAN when the report has none. */
double fleet_cliff_worst(const struct jr_value *root, const char *variant, double size);

#endif
