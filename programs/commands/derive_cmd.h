/*
 * derive_cmd.h - what `ucopy derive`'s two files share: reports loaded and
 * derived (derive.c), and the corpus's row table (derive_rows.c).
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

/* Reads the n reports (one CPU's; --allow-missing skips a bad one) and
 * derives their policy.  @return : 0, or an exit status after a message;
 * derived_free() d either way. */
int derive_reports(char **paths, size_t n, int allow_missing, struct derived *d);
void derived_free(struct derived *d);

/* Writes the row table of every machine in `corpus` to `output` (NULL or
 * "-": standard output).  @return : an exit status. */
int derive_rows(const char *corpus, const char *output, int allow_missing);

#endif
