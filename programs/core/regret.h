/*
 * regret.h - what a policy costs on a measured machine: per size of its
 * reports' sweeps, hot and cold, the time of the kernel the policy runs
 * over the time of the fastest kernel (docs/performance.md, "auto's regret
 * on the corpus").  The fastest is chosen on one report and both are timed
 * on another, so the noise that made a kernel look fastest once is not
 * counted as its speed: every ordered pair of reports, the median over the
 * pairs, and 1 where that is below 1 (the policy's kernel ahead of one that
 * only looked fastest).  It serves `ucopy regret` and the derivation of
 * auto's default row (`ucopy derive --rows`).
 */
#ifndef UCOPY_REGRET_H
#define UCOPY_REGRET_H

#include <stddef.h>

#include "corpus.h"

#define REGRET_MAX_SIZES 128
/* What auto must meet on every corpus machine: each band's geomean and
 * each size (docs/performance.md, "auto's regret on the corpus"). */
#define REGRET_BAND_BOUND 1.05
#define REGRET_SIZE_BOUND 1.15

enum { REGRET_HOT, REGRET_COLD, REGRET_STATES };

/* One machine's sweeps, read once: each report's median per state, size
 * and kernel (NAN: not timed), and per ordered pair of reports the kernel
 * fastest on the first that the second timed too. */
struct regret_data {
	size_t nreports;
	struct {
		size_t n;
		size_t size[REGRET_MAX_SIZES];
		double ns[CORPUS_MAX_REPORTS][REGRET_MAX_SIZES][CAL_MAX_KERNELS];
		signed char best[CORPUS_MAX_REPORTS][CORPUS_MAX_REPORTS][REGRET_MAX_SIZES];
	} st[2];
};

struct regret_state {
	size_t n;                         /* sizes the reports all swept */
	size_t size[REGRET_MAX_SIZES];
	double r[REGRET_MAX_SIZES];       /* NAN: not judged */
	/* A size the policy sends to a kernel a report did not time: the
	 * first such, or none (missing_size 0). */
	size_t missing_size;
	const char *missing_kernel;
};

struct regret {
	struct regret_state st[REGRET_STATES];
};

extern const char *const regret_state_name[REGRET_STATES];   /* "hot", "cold" */

/* Reads the n reports of one machine (2 <= n <= CORPUS_MAX_REPORTS).
 * @return : the data (free() it), or NULL: too few or too many reports
 *           (errno EINVAL), or no memory. */
struct regret_data *regret_read(const struct corpus_report *r, size_t n);

/* p's regret on a machine's data. */
void regret_of(const struct regret_data *d, const struct ucopy_policy *p, struct regret *out);

/* On the production distributions (schema 4 reports time ucopy_memcpy
 * against each vector kernel alone on each): ucopy's time over the fastest
 * of them, chosen on one report and timed on another, as for the sizes.
 * It judges the policy the reports' ucopy_memcpy ran, so only reports whose
 * policy.active is `policy` count; two are needed. */
#define REGRET_MAX_DISTS CORPUS_MAX_DISTS
enum { REGRET_UNLEARNABLE, REGRET_REPEATED, REGRET_REGIMES };
struct regret_dists {
	size_t nreports;                 /* the reports that count */
	size_t n;                        /* distributions judged */
	char name[REGRET_MAX_DISTS][64];
	double r[REGRET_MAX_DISTS];
};
extern const char *const regret_regime_key[REGRET_REGIMES];   /* the JSON's keys */
void regret_dists(const struct corpus_report *r, size_t n, const char *policy,
		  struct regret_dists out[REGRET_REGIMES]);

/* The geometric mean of d's files (NAN when none), and the index of the
 * one with the most regret in *worst (0 when none). */
double regret_dists_geomean(const struct regret_dists *d, size_t *worst);

/* The geometric mean of the judged sizes in [lo, hi) of one state, and
 * their count in *count (0: NAN).  0, SIZE_MAX: every size. */
double regret_geomean(const struct regret_state *s, size_t lo, size_t hi, size_t *count);

/* The judged size with the most regret, its index; -1 when none. */
long regret_worst(const struct regret_state *s);

#endif
