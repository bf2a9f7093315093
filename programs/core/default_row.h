/*
 * default_row.h - auto's default row, the one a CPU no row knows takes,
 * derived from the corpus: of the row's shape (a vector kernel up to a
 * limit, movsb_safe above it where ERMS makes rep movsb fast, streaming
 * stores from a multiple of the L3), the limits with the least worst-case
 * regret (regret.h) over the corpus machines (docs/calibrate.md, "The
 * default row").  `ucopy derive --rows` writes them into lib/x86_64/rows.c,
 * and the library's default row (lib/x86_64/policies.c) applies them; the
 * shape is the library's, stated twice, and tests/cli/rows.sh checks that
 * both give each corpus machine the same policy.
 */
#ifndef UCOPY_DEFAULT_ROW_H
#define UCOPY_DEFAULT_ROW_H

#include <stddef.h>

#include "corpus.h"
#include "regret.h"

struct default_limits {
	size_t vector;             /* the vector kernel below this (avx2, sse2) */
	size_t zmm;                /* the same where zmm stores are free (avx512) */
	unsigned stream_quarters;  /* streaming stores from this many quarters
				      of the L3; 0: none */
};

/* The limits the default row had when it was written by hand, tried first:
 * another value must do better on the corpus to replace one. */
extern const struct default_limits default_row_hand;

/* The default row's policy for r's CPU (its features and caches) with
 * limits lim.  The vector kernel is the one the library's default row
 * picks for those features (corpus_default_policy()'s first rule).
 * @return : 0, or -1 with the reason in err. */
int default_row_policy(const struct corpus_report *r, const struct default_limits *lim,
		       struct ucopy_policy *p, char *err, size_t errlen);

/* One corpus machine as the choice judges it. */
struct default_machine {
	const struct corpus_report *first;   /* its CPU */
	const struct regret_data *data;      /* its reports */
};

/* The limits with the least worst-case regret over the n machines: per
 * machine and cache state the geometric mean of the regret over every
 * size, the candidates ranked by the worst of these, ties by the next
 * worst and so on, then by the order tried (default_row_hand's values
 * first).  A candidate that sends a size to a kernel a machine's reports
 * did not time is not taken.  scores[] (2n): the winner's, worst first.
 * @return : 0, or -1 with the reason in err (no machine; no candidate
 *           judged on every machine). */
int default_row_derive(const struct default_machine *m, size_t n, struct default_limits *out,
		       double *scores, char *err, size_t errlen);

#endif
