/*
 * derive_cmd.h - what `ucopy derive`'s files and `ucopy regret` share:
 * reports loaded and derived (derive_load.c), and the corpus's machines and
 * row table (derive_rows.c).
 */
#ifndef UCOPY_DERIVE_CMD_H
#define UCOPY_DERIVE_CMD_H

#include <stddef.h>

#include "corpus.h"

struct loaded {
	struct corpus_report *r;
	size_t n;
	char (*skipped)[512];     /* "PATH\tREASON" */
	size_t nskipped;
};

struct derived {
	struct loaded reports;
	struct calibration *cal;  /* ->policy: the derived policy */
	struct ucopy_policy def;  /* where it started: the default row's */
	char deftext[512];
};

/* Reads the n reports of one CPU (allow_missing: a bad one is named on
 * stderr and skipped).  @return : 0, or an exit status after a message;
 * loaded_release() l either way. */
int loaded_read(struct loaded *l, char **paths, size_t n, int allow_missing);
void loaded_release(struct loaded *l);

/* Reads the n reports of one CPU and derives their policy from the
 * default row's.  @return : 0, or an exit status after a message;
 * derived_free() d either way. */
int derive_reports(char **paths, size_t n, int allow_missing, struct derived *d);
/* Derives d->reports' policy from `start` (NULL: the policy the library's
 * default row gives their CPU). */
int derive_loaded(struct derived *d, const struct ucopy_policy *start);
void derived_free(struct derived *d);

/* One machine folder of a corpus: its reports read (none: `files` is ""). 
 * @return : 0, or an exit status after a message. */
int machine_read(const char *corpus, const char *name, int allow_missing, struct loaded *l,
		 char *files, size_t fileslen);

/* Writes the row table of every machine in `corpus` to `output` (NULL or
 * "-": standard output).  @return : an exit status. */
int derive_rows(const char *corpus, const char *output, int allow_missing);

#endif
