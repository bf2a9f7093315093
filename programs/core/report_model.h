/*
 * report_model.h - what `ucopy report` measured: filled by the measuring
 * (commands/report_measure.c), read by the findings
 * (commands/report_findings.c) and written by the page (writers/report_page.c:
 * HTML and charts) and the JSON (writers/report_json.c).
 *
 * Every number the page shows lives here, so --json can write all of them
 * and the page cannot show one the JSON lacks.  Missing measurements are NaN
 * (JSON null); a section that did not run has n == 0 and a reason.
 */
#ifndef UCOPY_REPORT_MODEL_H
#define UCOPY_REPORT_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "stats.h"
#include "workload.h"

#define REPORT_NAME 64

/* One timed variant: a kernel, libc's memcpy or ucopy_memcpy. */

struct report_variant {
	char name[REPORT_NAME];   /* "avx2", "libc", "ucopy" */
	char label[REPORT_NAME];  /* legend text: "ucopy (auto)" */
};

/* A sweep over sizes in one cache state; arrays are [variant * nsize + i]. */
struct report_sweep {
	const char *cache;        /* "hot", "cold" */
	size_t nsize, nvar;
	size_t *size;
	double *ns, *p10, *p90, *gbps;
	struct stats_interval *vs_libc;  /* time / libc's time, paired */
	struct stats_interval *vs_best;  /* time / the fastest kernel's */
	size_t *rounds;           /* per size */
};

/* The cliff matrix, measured for ucopy_memcpy and libc.  Two planes per
 * size and source alignment: the destination's alignment with the two far
 * apart (dst - src = 2048 + dst_align - src_align), and the distance
 * dst - src with the destination placed exactly that far after the source.
 * Columns are the nda alignments, then the nd distances. */
struct report_cliff {
	size_t nsize, nsa, nda, nd;
	size_t *size;
	uint32_t *sa, *da, *d;
	size_t nvar;              /* 2: ucopy, libc */
	/* [((v * nsize + s) * nsa + a) * ncol + c] */
	double *ns;
	double *slowdown;         /* ns / the median of (v, s) */
	/* [v * nsize + s] */
	double *median, *worst;
	size_t *worst_cell;       /* (a * ncol + c) of the worst */
	int sampled;              /* axes cut down to fit the budget */
};

static inline size_t report_cliff_ncol(const struct report_cliff *c)
{
	return c->nda + c->nd;
}

/* The page offsets a cliff cell copies between: part of the data, so that
 * the measuring, the JSON and the page read it alike. */
static inline void report_cliff_offsets(const struct report_cliff *c, size_t a,
					size_t col, uint32_t *src_off,
					uint32_t *dst_off)
{
	uint32_t sa = c->sa[a];
	*src_off = sa;
	if (col < c->nda)
		/* Half a page apart: far from any aliasing distance either way,
		 * so only the alignments differ between these cells. */
		*dst_off = 2048 + c->da[col];
	else
		/* As `bench --distance`: the destination that far after the
		 * source, modulo the page. */
		*dst_off = (sa + c->d[col - c->nda]) % 4096;
}

/* Each kernel's time at a few distances dst - src (mod 4096) against its
 * time half a page apart: the kernel-level cliffs the calibration avoids.
 * ns [(k * nsize + s) * nd + j], control [k * nsize + s]. */
struct report_probes {
	size_t nsize, nk, nd;
	size_t *size;
	uint32_t *d;
	double *ns, *control;
	double *worst;            /* [k * nsize + s]: max over j of ns / control,
				     or the ratio re-timed when that is less */
};

/* The probes' control distance: half a page apart. */
#define PROBE_CONTROL 2048u

/* Named policies on the built-in workloads. [p * nwork + w] */
struct report_workloads {
	size_t npol, nwork;
	char (*pol_name)[REPORT_NAME];
	char (*pol_text)[256];
	char (*work_name)[REPORT_NAME];
	char (*work_what)[WORKLOAD_WHAT_LEN];
	double *ns;               /* median ns per copy */
	struct stats_interval *vs_best;  /* time / the best policy's, paired */
	size_t *best;             /* per workload: the best policy */
	char reason[256];         /* why it did not run, or "" */
	/* What the policies were resolved for: this CPU's features, or with
	 * --assume-features (assume: the list as given, else NULL) the set
	 * the list made of them.  Either way they ran fitted to this CPU. */
	const char *assume;
	uint64_t features;
};

/* ucopy_memcpy against libc on copy sequences: one row per size class or
 * distribution. */
struct report_ab {
	/* The order of the copies, which decides how much a branch predictor
	 * helps: "unlearnable" or "repeated" (dist.h), and the condition every
	 * claim on these rows holds under, in words. */
	char regime[16];
	char condition[128];
	size_t sequence;          /* copies in the sequence (classes: the most) */
	size_t n;
	char (*name)[REPORT_NAME];
	char (*what)[256];
	size_t *lo, *hi;          /* size classes: the range; else 0 */
	double *mean_size;
	double *ns_ucopy, *ns_libc;
	struct stats_interval *ratio;  /* ucopy / libc */
	/* Distributions only: ucopy_memcpy against each vector kernel alone
	 * (REPORT_DIST_KERNELS the CPU runs), in a cell of their own, so that
	 * a policy's cost on the distribution can be judged (ucopy regret):
	 * ns_alone_ucopy[i] is ucopy's time in that cell, ns_alone[i * nker +
	 * k] kernel k's. */
	size_t nker;
	char (*ker)[REPORT_NAME];
	double *ns_alone_ucopy, *ns_alone;
	char reason[256];
};

/* The kernels a policy's first rule takes (a vector kernel with a fast
 * entry): what the distributions, mostly short copies, are timed alone
 * with. */
#define REPORT_DIST_KERNELS { "sse2", "avx2", "avx512", "neon" }

/* A threshold of the recommended policy and the ratios either side of it
 * (the upper kernel's time over the lower's; NaN when inherited). */
struct report_threshold {
	size_t limit;
	char from[REPORT_NAME], to[REPORT_NAME];
	int inherited;            /* kept from "auto", beyond the sweep */
	size_t below, at;
	double ratio_below, ratio_at;
};

/* The policy the report recommends for this machine: calibrate's derivation
 * (calibration.h) run on the report's sweep and probes. */
struct report_policy {
	char source[64];          /* "calibration" */
	char text[512];           /* policy text */
	char active[512];         /* what ucopy_memcpy uses now */
	char active_source[32];
	char auto_row[768];       /* auto's row and where it came from
				     (ucopy_auto_explain()) */
	double gain_auto, gain_libc;  /* expected speedup, NaN when unknown */
	char note[256];
	size_t nthr;
	struct report_threshold thr[16];
};

/* A crossover: where kernel b starts to beat kernel a as size grows (or the
 * reverse), from the hot sweep, at the geometric middle of the two sizes. */
struct report_crossover {
	char a[REPORT_NAME], b[REPORT_NAME];
	char cache[8];
	double size;              /* bytes */
	size_t below, above;      /* the two measured sizes either side */
	double ratio_below, ratio_above;  /* b / a on either side */
};

/* A run of sizes with one fastest kernel. */
struct report_segment {
	char kernel[REPORT_NAME];
	char cache[8];
	size_t from, to;
	double margin;            /* geometric mean of runner-up / winner */
};

struct report {
	/* What was asked. */
	double budget;
	int quick;
	uint64_t seed;
	char command[512];
	/* The machine. */
	char date[32];
	char cpu_line[256];
	char features[256];
	double elapsed;           /* seconds the measuring took */
	const char *timer;
	/* Where the distributions were read from, and how that directory was
	 * found (struct data_dir's `from`: "--dist-dir", "UCOPY_DATA_DIR",
	 * "source tree", "installed"); empty when none was (dists.reason says
	 * why). */
	char dist_dir[4096];
	char dist_from[32];

	size_t nvar;
	struct report_variant *var;   /* the sweep's variants; libc, ucopy last */
	size_t ilibc, iucopy;         /* kernels are 0 .. ilibc-1 */
	int cold_skipped;             /* --quick: no cold sweep */
	struct report_sweep hot, cold;
	struct report_cliff cliff;
	struct report_probes probes;
	struct report_workloads work;
	/* The distributions in both regimes: the same sizes, drawn with one
	 * seed, in a sequence no predictor learns and in a short one repeated. */
	struct report_ab classes, dists, dists_repeated;
	struct report_policy policy;
	size_t ncross;
	struct report_crossover cross[64];
	size_t nseg;
	struct report_segment seg[64];
	size_t nfind;
	char find[16][512];       /* the "what this means" sentences */
};

/* Frees what the measuring allocated in r (also after it failed). */
void report_free(struct report *r);

#endif
