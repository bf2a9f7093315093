/*
 * bench_bars.c - issue 6's speed bars: ucopy_memcpy against glibc's memcpy,
 * measured side by side, each bar printed with its measured value.
 *
 * A benchmark, not a test: `make bench` runs it and it exits 0 whether the
 * bars pass or not (non-zero only when it could not measure).  Each bar ends
 * in one line:
 *   BAR N [arm] what: the measured value ... (needs ...): VERDICT
 * VERDICT is PASS, FAIL (a miss the 95% interval confirms), or MARGINAL (the
 * point estimate misses, but every miss is inside its 95% interval: noise
 * cannot be told from a real loss; rerun longer).  Bar 1's interval is the
 * family-wise one over its 86 cells (family_level()), bar 5's the one over
 * all of its cells.
 *
 * Two arms, each a process of its own (this program re-executes itself):
 *  - default: no profile and no UCOPY_POLICY, so ucopy_memcpy runs "auto";
 *  - calibrated: UCOPY_PROFILE names a profile from `ucopy calibrate --quick`
 *    (run first, in a child process, or given with --profile).
 * ucopy_memcpy fixes its policy at first use in a process, and the bars are
 * about ucopy_memcpy and ucopy_try as programs call them (the entry's
 * first-rule test, the fault-tolerant entry), which ucopy_policy_copy() does
 * not reproduce: so each arm is its own process in which ucopy_memcpy,
 * ucopy_try and glibc's memcpy (and, for bar 4, every kernel) are
 * interleaved in the same rounds.
 *
 * The bars, stated so that each means the same on every CPU (issue 13; this
 * machine is whatever the header line says), against glibc measured in the
 * same rounds:
 *  1. fixed sizes 1 B..64 MiB, hot, equally and differently aligned: ucopy
 *     within 10% of glibc up to 256 B (the branch-free short class trades a
 *     little on one repeated size for much on unpredictable ones), not
 *     slower beyond it; and where the CPU has AVX-512 with free 512-bit
 *     stores (AVX-VNNI), a geomean of at most 1/1.3 of glibc's time over
 *     4-16 KiB;
 *  2. fleetbench size distributions, random offsets, in both regimes
 *     (dist.h): in an order no predictor learns (65536 copies), ratio <= 0.95
 *     each; as a repeated sequence of 8192 copies, which a predictor learns
 *     (glibc's branches then cost it little), ratio <= 1.03 each and a
 *     geomean <= 1.0 (issue 15's bound: ucopy does not lose where sizes are
 *     predictable).  The two sequences are drawn with one seed;
 *  3. no cliff: per size, slowest cell <= max(1.3, glibc's own slowest
 *     over median at that size: a slowdown every kernel shares, such as Zen
 *     5's relative misalignment, is not ucopy's) x the median cell over source
 *     align x destination align x distance.  A distance d puts the source at
 *     page offset SA and the destination at d + DA: d is the distance the
 *     copy would have with both sides aligned, and each alignment then moves
 *     its side, so (dst - src) mod 4096 is d + DA - SA (the grid fixes the
 *     alignments and the distance independently, which exact distances
 *     cannot: (dst - src) mod 64 = DA - SA).  With SA = DA = 0 the cells are
 *     calibrate's probes 0/1, 0/8, 0/31, 0/63, 0/2048.  All cells of a size
 *     are one measurement, called through a wrapper that adds the offsets
 *     (the same extra call in every cell), so every cell runs in the same
 *     rounds and drift cannot make a cliff;
 *  4. cold copies of 64 MiB and 256 MiB: ucopy >= 95% of the bandwidth of
 *     the best single kernel (libc included; the best of ucopy's own is
 *     printed too), every kernel but byte and word timed in the same rounds;
 *     the best is chosen on one half of the rounds and ucopy held to it on
 *     the other: the fastest of twelve noisy medians is faster than its kernel
 *     (a 64 MiB run named unrolled best at 15.9 GB/s, and ucopy 91.5% of
 *     it, where the next arm measured unrolled at 14.2 and rep movsb at
 *     16.1 GB/s: Zen 5 guest, family 26 model 2);
 *  5. ucopy_try within 2% of ucopy_memcpy (1 ns below 64 B) in every cell of
 *     1-4.  While every variant was timed through one call site, the two
 *     entries (the same instructions at the same place in a line) read a
 *     cycle (10%) apart at 96-128 B in 21 of 30 processes with ucopy_try
 *     timed after ucopy_memcpy, and in 0 of 12 the other way round; with a
 *     site per variant bar 1's cells read try/ucopy 1.001-1.005 by geomean
 *     (Zen 5 guest, family 26 model 2; docs/performance-zen5.md, "One call
 *     site per variant").  And while the two were timed by loops compiled
 *     apart (one function, a loop per kind of callee), bar 2's cells read
 *     try/ucopy 1.03-1.04 by geomean, the loop's cost; with the same loop
 *     for both, 0.997-1.002 (the same CPU; "Session 27").
 *
 * Several processes.  On a Zen 5 guest (family 26 model 2) one process's
 * small cells differ from the next one's by more than bar 1's 10%, whatever
 * their intervals say: ucopy_memcpy ran a flat 2.82 ns at 8-128 B in one arm
 * and glibc's 2.48 in the other, the same code (docs/bench.md, "What the
 * interval does not cover").  So each arm runs as --processes separate
 * processes, each printing its own BAR lines, and the summary gives, per bar,
 * every process's verdict and the median process's (the worse of the two
 * middle ones for an even count).  What differs between processes is
 * mostly the host's state of the core, which changes within seconds: each
 * bar ends with a host line (host_probe() before every cell, and
 * measure_slow_rounds() within cells); a verdict from a process whose
 * cells ran slowed is the host's as much as ucopy's.
 *
 * Usage: bench_bars [--seconds S] [--processes N] [--profile FILE]
 *                   [--bars LIST] [--arms LIST] [--seed N]
 *        bench_bars --summarize < LINES
 *   --seconds S   measuring budget of each process of an arm (default 60, or
 *                 UCOPY_BARS_SECONDS); setup comes on top
 *   --processes N processes per arm, 1..9 (default 3, or
 *                 UCOPY_BARS_PROCESSES)
 *   --profile F   use this profile for the calibrated arm (or
 *                 UCOPY_BARS_PROFILE) instead of calibrating first
 *   --bars LIST   e.g. 1,3 (bar 5 is always derived from the others)
 *   --arms LIST   default,calibrated (default both)
 *   --summarize   read BAR lines (of any number of processes) on stdin and
 *                 print only the summary over processes
 * Bar 2's distributions are the *.csv files that ship with ucopy, found as
 * the command finds them (programs/core/datadir.h): UCOPY_DATA_DIR names another
 * directory.
 */
#include "cli.h"
#include "datadir.h"
#include "dist.h"
#include "machine.h"
#include "measure.h"
#include "output.h"
#include "stats.h"
#include "ucopy.h"

#include <errno.h>
#include <gnu/libc-version.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define LEVEL 0.95

/*=====   What is measured   =====*/

/* 1 B..1 MiB: powers of two and the point half-way up (3 * 2^k). */
static const size_t fixed_sizes[] = {
	1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512,
	768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384, 24576,
	32768, 49152, 65536, 98304, 131072, 196608, 262144, 393216, 524288,
	786432, 1048576, (size_t)4 << 20, (size_t)16 << 20, (size_t)64 << 20,
};
#define NFIXED (sizeof fixed_sizes / sizeof fixed_sizes[0])

/* Page offsets of source and destination: 2 KiB apart, far from any small
 * distance either way (bar 3 is about those). */
static const struct placement {
	const char *name;
	uint32_t src, dst;
} placements[] = {
	{ "equal", 0, 2048 },
	{ "different", 1, 2048 + 33 },
};
#define NPLACE (sizeof placements / sizeof placements[0])

static const size_t cliff_sizes[] = { 64, 256, 2048, 4352, 32768, 262144 };
static const uint32_t cliff_align[] = { 0, 1, 15, 32 };
static const uint32_t cliff_dist[] = { 1, 8, 31, 63, 2048 };
#define NCLIFF_SIZES (sizeof cliff_sizes / sizeof cliff_sizes[0])
#define NALIGN (sizeof cliff_align / sizeof cliff_align[0])
#define NDIST (sizeof cliff_dist / sizeof cliff_dist[0])
#define MAX_CLIFF_CELLS (NALIGN * NALIGN * NDIST)

static const size_t cold_sizes[] = { (size_t)64 << 20, (size_t)256 << 20 };
#define NCOLD (sizeof cold_sizes / sizeof cold_sizes[0])

/* The entry points every cell times, in this order: glibc is the baseline. */
enum { E_GLIBC, E_UCOPY, E_TRY, NENTRIES };
static const char *const entry_names[NENTRIES] = { "glibc", "ucopy", "try" };

static void entry_variant(struct variant *v, int e)
{
	if (e == E_GLIBC)
		variant_memcpy(v, "memcpy", memcpy);
	else if (e == E_UCOPY)
		variant_memcpy(v, "ucopy_memcpy", ucopy_memcpy);
	else
		variant_try(v, "ucopy_try", ucopy_try);
}

/* Share of an arm's budget per bar. */
static const double bar_share[5] = { 0, 0.35, 0.20, 0.30, 0.15 };

/*=====   Verdicts   =====*/

enum verdict { V_PASS, V_MARGINAL, V_FAIL };
static const char *const verdict_names[] = { "PASS", "MARGINAL", "FAIL" };

/* Misses of an upper bound on a ratio: by point estimate, and confirmed by
 * the interval's lower end. */
struct tally {
	unsigned cells, misses, significant;
	double worst;          /* largest est / bound seen */
	double worst_est, worst_bound;
	char worst_at[96];
	double log_sum;        /* of est, for a geometric mean */
};

static void tally_add(struct tally *t, const struct stats_interval *ci,
		      double bound, const char *where)
{
	t->cells++;
	t->log_sum += log(ci->est);
	if (ci->est > bound)
		t->misses++;
	if (ci->lo > bound)
		t->significant++;
	if (t->cells == 1 || ci->est / bound > t->worst) {
		t->worst = ci->est / bound;
		t->worst_est = ci->est;
		t->worst_bound = bound;
		snprintf(t->worst_at, sizeof t->worst_at, "%s", where);
	}
}

static enum verdict tally_verdict(const struct tally *t)
{
	return t->significant ? V_FAIL : t->misses ? V_MARGINAL : V_PASS;
}

static enum verdict worse(enum verdict a, enum verdict b)
{
	return a > b ? a : b;
}

/*=====   One arm   =====*/

/* One of bar 5's cells: ucopy_memcpy's and ucopy_try's ns per round. */
struct try_cell {
	size_t rounds;
	double *u, *t;
	double bound;
};

struct arm {
	const char *name;
	double seconds;
	uint64_t seed;
	int bars[6];
	struct measure *m;
	/* Bar 5, per bar 1..4: ucopy_try against ucopy_memcpy, and every
	 * cell's rounds, to be judged once the family's size is known. */
	struct tally try_[5];
	struct try_cell *try_cells;
	size_t ntry_cells, try_cap;
	/* Since the bar began: rounds measured, and slow ones (measure.h);
	 * the host probe before each cell. */
	size_t rounds, slow_rounds;
	double probe[512];
	unsigned nprobe;
	char lines[8][512];    /* BAR lines, printed at the end */
	unsigned nlines;
};

static void bar_line(struct arm *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void bar_line(struct arm *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (a->nlines < sizeof a->lines / sizeof a->lines[0])
		vsnprintf(a->lines[a->nlines++], sizeof a->lines[0], fmt, ap);
	va_end(ap);
}

static void die(const char *what, const char *err)
{
	fprintf(stderr, "bench_bars: %s: %s\n", what, err);
	exit(1);
}

static double median_of(const struct cell_result *r, size_t i)
{
	return stats_median(r->v[i].ns, r->rounds);
}

/* b's time over a's: the median of the per-round ratios, with its 95%
 * interval (NaN with fewer than 6 rounds). */
static struct stats_interval paired_at(const struct cell_result *r, size_t a, size_t b,
				      double level)
{
	struct stats_interval ci;
	stats_paired_ratio(r->v[a].ns, r->v[b].ns, r->rounds, level, &ci);
	return ci;
}

static struct stats_interval paired(const struct cell_result *r, size_t a, size_t b)
{
	return paired_at(r, a, b, LEVEL);
}

/* The level at which m cells' intervals all cover their ratios with
 * probability LEVEL (Bonferroni).  Each cell's own 95% interval misses one
 * time in 40 on its side: of bar 1's 54 cells above 256 bytes, bound 1.00,
 * an ucopy exactly as fast as glibc would have about 1.4 read "worse
 * significantly" in every process by chance alone. */
static double family_level(unsigned m)
{
	return 1 - (1 - LEVEL) / m;
}

/* One half of variant i's rounds into buf: half 0 is rounds 0, 1, 4, 5,
 * 8, 9..., half 1 the others.  Bar 4's cells are single sizes, whose rounds
 * keep one order of the variants for four rounds while they go over the
 * timed loop's four placements (docs/bench.md, "The orders"): each half
 * gets two rounds of every order that a whole block of four holds, half 0
 * at placements 0-1 and half 1 at 2-3 (placement does not move a copy of
 * 64 MiB or more). */
static size_t half_of(const struct cell_result *r, size_t i, int half, double *buf)
{
	size_t n = 0;
	for (size_t k = 0; k < r->rounds; k++)
		if ((int)(k / 2 % 2) == half)
			buf[n++] = r->v[i].ns[k];
	return n;
}

/* The host's state of this core now: glibc's 8-byte copy in a loop, ns per
 * copy, the median of 15 batches of 2048 (about 0.1 ms).  A core the host
 * slows in spells (docs/bench.md, "The host, second by second") shows in it
 * across cells and processes, where measure_slow_rounds() sees only the
 * spells that begin or end inside one cell. */
static double host_probe(void)
{
	static unsigned char from[64], to[64];
	void *(*volatile copy)(void *, const void *, size_t) = memcpy;
	volatile size_t n = 8;
	double t[15];
	for (int k = 0; k < 15; k++) {
		uint64_t t0 = timer_now();
		for (int i = 0; i < 2048; i++)
			copy(to, from, n);
		t[k] = timer_ns(timer_now() - t0) / 2048;
	}
	return stats_median(t, 15);
}

static void measure(struct arm *a, const struct variant *v, size_t nv,
		    const struct cell *c, double seconds, unsigned min_rounds,
		    struct cell_result *r)
{
	struct measure_opts o = { .seconds = seconds, .min_rounds = min_rounds };
	char err[256];
	if (a->nprobe < sizeof a->probe / sizeof a->probe[0])
		a->probe[a->nprobe++] = host_probe();
	if (measure_cell(a->m, v, nv, c, &o, r, err, sizeof err))
		die("measuring", err);
	a->rounds += r->rounds;
	a->slow_rounds += measure_slow_rounds(r);
}

/* Bar 5's check of one cell: ucopy_try (variant t) against ucopy_memcpy
 * (variant u), within 2%, or 1 ns below 64 bytes.  The cell's rounds are
 * kept: bar_try() judges every cell at the family-wise level of all of
 * them. */
static void try_check(struct arm *a, int bar, const struct cell_result *r,
		      size_t u, size_t t, size_t n, const char *where)
{
	struct stats_interval ci = paired(r, u, t);
	double un = median_of(r, u);
	double bound = 1.02;
	if (n < 64)
		bound = fmax(bound, (un + 1.0) / un);
	tally_add(&a->try_[bar], &ci, bound, where);
	if (a->ntry_cells == a->try_cap) {
		size_t cap = a->try_cap ? 2 * a->try_cap : 1024;
		struct try_cell *p = realloc(a->try_cells, cap * sizeof *p);
		if (!p)
			die("bar 5", "out of memory");
		a->try_cells = p;
		a->try_cap = cap;
	}
	struct try_cell *c = &a->try_cells[a->ntry_cells++];
	c->rounds = r->rounds;
	c->u = malloc(r->rounds * sizeof *c->u);
	c->t = malloc(r->rounds * sizeof *c->t);
	if (!c->u || !c->t)
		die("bar 5", "out of memory");
	memcpy(c->u, r->v[u].ns, r->rounds * sizeof *c->u);
	memcpy(c->t, r->v[t].ns, r->rounds * sizeof *c->t);
	c->bound = bound;
}

/*-----   Bar 1: fixed sizes, hot   -----*/

static void bar_fixed(struct arm *a)
{
	struct variant v[NENTRIES];
	for (int e = 0; e < NENTRIES; e++)
		entry_variant(&v[e], e);
	double per_cell = a->seconds * bar_share[1] / (NFIXED * NPLACE);
	struct tally le = { 0 };   /* ucopy / glibc <= 1.10 up to 256 B, else 1 */
	unsigned family = 0;       /* misses beyond the family-wise interval */
	double family_at = family_level(NFIXED * NPLACE);
	double gm_log = 0;
	unsigned gm_n = 0;
	uint64_t f = ucopy_cpu()->features;
	int zmm = (f & UCOPY_F(AVX512F)) && (f & UCOPY_F(AVX512BW)) &&
		  (f & UCOPY_F(AVX512VL)) && (f & UCOPY_F(AVX_VNNI));

	printf("\n-- bar 1: fixed sizes, hot; ns per copy (median of rounds), "
	       "ratio = ucopy/glibc [95%% CI], try = ucopy_try/ucopy_memcpy\n");
	printf("%-9s", "size");
	for (size_t p = 0; p < NPLACE; p++)
		printf(" | %-9s %u/%-4u %8s %8s %20s %5s", placements[p].name,
		       placements[p].src, placements[p].dst, "glibc", "ucopy",
		       "ratio [CI]", "try");
	printf("\n");
	for (size_t i = 0; i < NFIXED; i++) {
		size_t n = fixed_sizes[i];
		char sz[32];
		fmt_size_iec(sz, sizeof sz, n);
		printf("%-9s", sz);
		for (size_t p = 0; p < NPLACE; p++) {
			struct copy_seq seq;
			struct cell c;
			struct cell_result r;
			if (copy_seq_fixed(&seq, n, 0, 0))
				die("bar 1", "out of memory");
			cell_init(&c, &seq, CACHE_HOT, placements[p].src, placements[p].dst);
			measure(a, v, NENTRIES, &c, per_cell, 0, &r);
			struct stats_interval ci = paired(&r, E_GLIBC, E_UCOPY);
			struct stats_interval fw = paired_at(&r, E_GLIBC, E_UCOPY, family_at);
			double bound = n <= 256 ? 1.10 : 1.0;
			char where[96];
			snprintf(where, sizeof where, "%s (%s align)", sz, placements[p].name);
			tally_add(&le, &ci, bound, where);
			family += fw.lo > bound;
			if (n >= 4096 && n <= 16384) {
				gm_log += log(ci.est);
				gm_n++;
			}
			try_check(a, 1, &r, E_UCOPY, E_TRY, n, where);
			char cis[40];
			snprintf(cis, sizeof cis, "%.2f [%.2f,%.2f]", ci.est, ci.lo, ci.hi);
			printf(" | %-19s %8.2f %8.2f %20s %5.2f", "", median_of(&r, E_GLIBC),
			       median_of(&r, E_UCOPY), cis, paired(&r, E_UCOPY, E_TRY).est);
			cell_result_free(&r);
			copy_seq_free(&seq);
		}
		printf("\n");
		fflush(stdout);
	}
	double gm = exp(gm_log / gm_n);
	/* "Beyond noise" over 86 cells is the family's (family_level()); a
	 * miss only its own cell's interval confirms is MARGINAL, and counted
	 * on the line. */
	enum verdict cells = family ? V_FAIL : le.misses ? V_MARGINAL : V_PASS;
	enum verdict vd = worse(cells, !zmm || gm <= 1 / 1.3 ? V_PASS : V_FAIL);
	bar_line(a, "BAR 1 [%s] fixed sizes: within 10%% of glibc to 256 B, not slower beyond, in %u/%u "
		    "cells (%zu sizes x %zu alignments), %u worse significantly at the %u cells' "
		    "family-wise 95%% (%u by each cell's own); worst %.2fx its bound at %s; "
		    "4-16 KiB geomean %.2fx (%s): %s",
		 a->name, le.cells - le.misses, le.cells, NFIXED, NPLACE, family, le.cells,
		 le.significant, le.worst, le.worst_at, gm,
		 zmm ? "needs <= 0.77 with free 512-bit stores" : "no bound without free 512-bit stores",
		 verdict_names[vd]);
}

/*-----   Bar 2: production size distributions   -----*/

static void bar_dist(struct arm *a)
{
	struct data_dir dd;
	char why[4200];
	char **files = NULL;
	size_t nfiles = 0;
	int found = data_dir_find(NULL, NULL, &dd, why, sizeof why);
	if (found < 0)
		die("bar 2", why);
	if (found) {
		long n = data_list_checked(dd.path, &files, DATA_MAX_DISTS, why, sizeof why);
		if (n < 0)
			die("bar 2", why);
		nfiles = (size_t)n;
	}
	printf("\n-- bar 2: fleetbench size distributions (%s/*.csv, %s) in both regimes, hot, "
	       "random offsets 0..63 from each file's alignment line on page offsets 0/2048; "
	       "ratio = ucopy/glibc\n",
	       found ? dd.path : "none", found ? dd.from : why);
	if (!nfiles) {
		bar_line(a, "BAR 2 [%s] distributions: SKIPPED (no distribution files; set "
			    "UCOPY_DATA_DIR)", a->name);
		return;
	}
	struct variant v[NENTRIES];
	for (int e = 0; e < NENTRIES; e++)
		entry_variant(&v[e], e);
	double per_cell = a->seconds * bar_share[2] / (double)(2 * nfiles);
	for (int g = REGIME_UNLEARNABLE; g <= REGIME_REPEATED; g++) {
		size_t len = g == REGIME_REPEATED ? DIST_SEQ_REPEAT_DEFAULT : DIST_SEQ_UNLEARNABLE;
		double bound = g == REGIME_REPEATED ? 1.03 : 0.95;
		char cond[128];
		dist_regime_condition((enum dist_regime)g, len, 0, cond, sizeof cond);
		printf("\n%s:\n%-18s %9s %8s %8s %20s %5s\n", cond, "file", "mean size", "glibc",
		       "ucopy", "ratio [CI]", "try");
		struct tally t = { 0 };
		for (size_t i = 0; i < nfiles; i++) {
			const char *base = path_base(files[i]);
			struct dist d;
			struct copy_seq seq;
			struct cell c;
			struct cell_result r;
			char err[512];
			if (dist_read_file(files[i], &d, err, sizeof err))
				die("bar 2", err);
			if (dist_regime_sample(&d, (enum dist_regime)g, len, a->seed, &seq))
				die("bar 2", "out of memory");
			cell_init_drawn(&c, &seq, CACHE_HOT);
			measure(a, v, NENTRIES, &c, per_cell, 0, &r);
			struct stats_interval ci = paired(&r, E_GLIBC, E_UCOPY);
			tally_add(&t, &ci, bound, base);
			try_check(a, 2, &r, E_UCOPY, E_TRY, (size_t)seq.mean_n, base);
			char cis[40];
			snprintf(cis, sizeof cis, "%.2f [%.2f,%.2f]", ci.est, ci.lo, ci.hi);
			printf("%-18s %9.2f %8.2f %8.2f %20s %5.2f\n", base, seq.mean_n,
			       median_of(&r, E_GLIBC), median_of(&r, E_UCOPY), cis,
			       paired(&r, E_UCOPY, E_TRY).est);
			fflush(stdout);
			cell_result_free(&r);
			copy_seq_free(&seq);
			dist_free(&d);
		}
		double gm = t.cells ? exp(t.log_sum / t.cells) : NAN;
		if (g == REGIME_UNLEARNABLE)
			bar_line(a, "BAR 2 [%s] distributions, %s: ucopy <= 0.95x glibc on %u/%u "
				    "files, geomean %.2fx; worst %.2fx on %s (needs <= 0.95): %s",
				 a->name, cond, t.cells - t.misses, t.cells, gm, t.worst_est,
				 t.worst_at, verdict_names[tally_verdict(&t)]);
		else
			bar_line(a, "BAR 2 [%s] distributions, %s: ucopy <= 1.03x glibc on %u/%u "
				    "files, geomean %.2fx (needs <= 1.00); worst %.2fx on %s "
				    "(needs <= 1.03): %s",
				 a->name, cond, t.cells - t.misses, t.cells, gm, t.worst_est,
				 t.worst_at,
				 verdict_names[worse(tally_verdict(&t), gm <= 1.0 ? V_PASS : V_FAIL)]);
	}
	data_list_free(files, nfiles);
}

/*-----   Bar 3: no cliff   -----*/

struct at {
	void *(*copy)(void *, const void *, size_t);
	size_t (*try_)(void *, const void *, size_t);
	uint32_t src, dst;
};

/* One wrapper per kind of entry, each a single call, so that ucopy_try's
 * calls differ from ucopy_memcpy's in the entry alone.  (One wrapper that
 * branched to two call sites was the suspect for bar 5's worst cell, 64 B
 * at 1/9, where ucopy_try reads 1.08-2.3x ucopy_memcpy's time on a Zen 5
 * guest, family 26 model 2; it is not: the cell stayed as it was.) */
static void copy_at(void *ctx, void *dst, const void *src, size_t n)
{
	const struct at *p = ctx;
	p->copy((char *)dst + p->dst, (const char *)src + p->src, n);
}

static void try_at(void *ctx, void *dst, const void *src, size_t n)
{
	const struct at *p = ctx;
	p->try_((char *)dst + p->dst, (const char *)src + p->src, n);
}

static const double *sort_key;
static int cmp_key(const void *x, const void *y)
{
	double a = sort_key[*(const size_t *)x], b = sort_key[*(const size_t *)y];
	return (a > b) - (a < b);
}

static void bar_cliff(struct arm *a)
{
	static struct at ctx[MAX_CLIFF_CELLS * NENTRIES];
	static struct variant v[MAX_CLIFF_CELLS * NENTRIES];
	uint32_t cs[MAX_CLIFF_CELLS], cd[MAX_CLIFF_CELLS];
	size_t nc = 0;

	/* The grid, without cells that land on the same page offsets. */
	for (size_t s = 0; s < NALIGN; s++)
		for (size_t d = 0; d < NALIGN; d++)
			for (size_t k = 0; k < NDIST; k++) {
				uint32_t src = cliff_align[s];
				uint32_t dst = (cliff_dist[k] + cliff_align[d]) % 4096;
				size_t j;
				for (j = 0; j < nc; j++)
					if (cs[j] == src && cd[j] == dst)
						break;
				if (j < nc)
					continue;
				cs[nc] = src;
				cd[nc++] = dst;
			}
	size_t nv = nc * NENTRIES;
	for (size_t j = 0; j < nc; j++)
		for (int e = 0; e < NENTRIES; e++) {
			struct at *p = &ctx[j * NENTRIES + e];
			*p = (struct at){ NULL, NULL, cs[j], cd[j] };
			if (e == E_GLIBC)
				p->copy = memcpy;
			else if (e == E_UCOPY)
				p->copy = ucopy_memcpy;
			else
				p->try_ = ucopy_try;
			char name[64];
			snprintf(name, sizeof name, "%s %u/%u", entry_names[e], cs[j], cd[j]);
			variant_call(&v[j * NENTRIES + e], name, p->copy ? copy_at : try_at, p);
		}

	printf("\n-- bar 3: no cliff, hot; %zu cells per size (source align %u,%u,%u,%u x "
	       "destination align x distance 1,8,31,63,2048; cell SRC/DST = page offsets, "
	       "(dst-src) mod 4096 = DST-SRC); slowest cell / median cell [95%% CI]\n",
	       nc, cliff_align[0], cliff_align[1], cliff_align[2], cliff_align[3]);
	printf("%-9s %-12s %9s %26s %26s %26s\n", "size", "", "median ns", "ucopy",
	       "try", "glibc");
	struct tally t = { 0 }, tg = { 0 };
	double per_size = a->seconds * bar_share[3] / NCLIFF_SIZES;
	for (size_t si = 0; si < NCLIFF_SIZES; si++) {
		size_t n = cliff_sizes[si];
		struct copy_seq seq;
		struct cell c;
		struct cell_result r;
		char sz[32];
		fmt_size_iec(sz, sizeof sz, n);
		if (copy_seq_fixed(&seq, n, 0, 0))
			die("bar 3", "out of memory");
		seq.max_off = 4096 + 64;   /* room for every cell's offsets */
		cell_init(&c, &seq, CACHE_HOT, 0, 0);
		measure(a, v, nv, &c, per_size, 0, &r);

		char col[NENTRIES][48];
		double med_ns[NENTRIES], cliff_worst[NENTRIES], glibc_cliff = 1.3;
		for (int e = 0; e < NENTRIES; e++) {
			double ns[MAX_CLIFF_CELLS];
			size_t idx[MAX_CLIFF_CELLS];
			for (size_t j = 0; j < nc; j++) {
				ns[j] = median_of(&r, j * NENTRIES + e);
				idx[j] = j;
			}
			sort_key = ns;
			qsort(idx, nc, sizeof idx[0], cmp_key);
			size_t mid = idx[(nc - 1) / 2], slow = idx[nc - 1];
			struct stats_interval ci = paired(&r, mid * NENTRIES + e, slow * NENTRIES + e);
			char where[96];
			snprintf(where, sizeof where, "%s cell %u/%u (distance %d)", sz, cs[slow],
				 cd[slow], (int)cd[slow] - (int)cs[slow]);
			/* glibc's comes first (E_GLIBC is 0): ucopy's bound is
			 * the larger of 1.3 and what every copy pays here. */
			if (e == E_GLIBC) {
				tally_add(&tg, &ci, 1.3, where);
				glibc_cliff = fmax(1.3, ci.est);
			} else if (e == E_UCOPY) {
				tally_add(&t, &ci, glibc_cliff, where);
			}
			med_ns[e] = ns[mid];
			cliff_worst[e] = ci.est;
			snprintf(col[e], sizeof col[e], "%.2f [%.2f,%.2f] %u/%u", ci.est, ci.lo,
				 ci.hi, cs[slow], cd[slow]);
		}
		printf("%-9s %-12s %9.2f %26s %26s %26s\n", sz, "", med_ns[E_UCOPY],
		       col[E_UCOPY], col[E_TRY], col[E_GLIBC]);
		if (cliff_worst[E_UCOPY] > 1.3) {
			double ns[MAX_CLIFF_CELLS];
			size_t idx[MAX_CLIFF_CELLS];
			for (size_t j = 0; j < nc; j++) {
				ns[j] = median_of(&r, j * NENTRIES + E_UCOPY);
				idx[j] = j;
			}
			sort_key = ns;
			qsort(idx, nc, sizeof idx[0], cmp_key);
			printf("  %s: ucopy's slowest cells (ns, x median; glibc's ns):", sz);
			for (size_t x = nc; x-- > 0 && x + 8 >= nc;) {
				size_t j = idx[x];
				printf(" %u/%u %.1f %.2fx (%.1f)", cs[j], cd[j], ns[j],
				       ns[j] / med_ns[E_UCOPY], median_of(&r, j * NENTRIES + E_GLIBC));
			}
			printf("\n");
		}
		for (size_t j = 0; j < nc; j++) {
			char where[96];
			snprintf(where, sizeof where, "%s cell %u/%u", sz, cs[j], cd[j]);
			try_check(a, 3, &r, j * NENTRIES + E_UCOPY, j * NENTRIES + E_TRY, n, where);
		}
		fflush(stdout);
		cell_result_free(&r);
		copy_seq_free(&seq);
	}
	bar_line(a, "BAR 3 [%s] no cliff: slowest/median cell <= max(1.3, glibc's) at %u/%u sizes; "
		    "worst %.2fx at %s, against a bound of %.2f (glibc: worst %.2fx at %s): %s",
		 a->name, t.cells - t.misses, t.cells, t.worst_est, t.worst_at, t.worst_bound,
		 tg.worst * 1.3, tg.worst_at, verdict_names[tally_verdict(&t)]);
}

/*-----   Bar 4: large cold copies   -----*/

static void bar_cold(struct arm *a)
{
	struct variant v[NENTRIES + 32];
	size_t nv = 0, first_kernel;
	uint64_t have = ucopy_cpu()->features;
	for (int e = 0; e < NENTRIES; e++)
		entry_variant(&v[nv++], e);
	first_kernel = nv;
	for (size_t i = 0; i < ucopy_kernel_count() && nv < sizeof v / sizeof v[0]; i++) {
		const struct ucopy_kernel *k = ucopy_kernel_at(i);
		/* byte and word move 1 and 8 bytes an iteration: they are never
		 * the best at these sizes, and byte alone would take most of
		 * the budget. */
		if (ucopy_kernel_supported(k, have) && strcmp(k->name, "byte") &&
		    strcmp(k->name, "word"))
			variant_kernel(&v[nv++], k);
	}
	printf("\n-- bar 4: cold copies (each side walks 2-4x the LLC in scattered order); "
	       "GB/s (median of all rounds); ucopy / best kernel [95%% CI], the best chosen on "
	       "half the rounds, the ratio from the other half\n");
	printf("%-8s %7s %7s %7s", "size", "glibc", "ucopy", "try");
	for (size_t i = first_kernel; i < nv; i++)
		printf(" %10s", v[i].name);
	printf(" %9s %22s\n", "best", "ucopy % of best [CI]");
	struct tally t = { 0 }, t_own = { 0 };
	double per_size = a->seconds * bar_share[4] / NCOLD;
	for (size_t si = 0; si < NCOLD; si++) {
		size_t n = cold_sizes[si];
		struct copy_seq seq;
		struct cell c;
		struct cell_result r;
		char sz[32];
		fmt_size_iec(sz, sizeof sz, n);
		if (copy_seq_fixed(&seq, n, 0, 0))
			die("bar 4", "out of memory");
		cell_init(&c, &seq, CACHE_COLD, 0, 2048);
		/* Multi-millisecond copies on a shared host catch a
		 * neighbour's burst now and then, and the second half alone
		 * need an interval: at least 13 rounds; and as many as bar 5
		 * needs to judge the cell at its family's level (15 for 564
		 * cells), where the budget gives the 256 MiB cell no more. */
		size_t family = a->ntry_cells - si + NCOLD;
		size_t min = stats_paired_ratio_min_n(family_level((unsigned)family));
		measure(a, v, nv, &c, per_size, (unsigned)(min > 13 ? min : 13), &r);
		double *sel_ns = malloc(r.rounds * sizeof *sel_ns);
		double *held_best = malloc(r.rounds * sizeof *held_best);
		double *held_ucopy = malloc(r.rounds * sizeof *held_ucopy);
		double sel[NENTRIES + 32];
		if (!sel_ns || !held_best || !held_ucopy)
			die("bar 4", "out of memory");
		size_t best = first_kernel, own = first_kernel;
		for (size_t i = first_kernel; i < nv; i++) {
			sel[i] = stats_median(sel_ns, half_of(&r, i, 0, sel_ns));
			if (sel[i] < sel[best])
				best = i;
			if (strcmp(v[i].name, "libc") &&
			    (!strcmp(v[own].name, "libc") || sel[i] < sel[own]))
				own = i;
		}
		printf("%-8s", sz);
		for (size_t i = 0; i < nv; i++)
			printf(i < first_kernel ? " %7.2f" : " %10.2f", (double)n / median_of(&r, i));
		/* ucopy's time over the best's: bandwidth >= 95% is a ratio
		 * <= 1/0.95. */
		struct stats_interval ci, co;
		size_t nheld = half_of(&r, E_UCOPY, 1, held_ucopy);
		stats_paired_ratio(held_best, held_ucopy, half_of(&r, best, 1, held_best), LEVEL, &ci);
		tally_add(&t, &ci, 1 / 0.95, sz);
		try_check(a, 4, &r, E_UCOPY, E_TRY, n, sz);
		stats_paired_ratio(held_best, held_ucopy, half_of(&r, own, 1, held_best), LEVEL, &co);
		tally_add(&t_own, &co, 1 / 0.95, sz);
		free(sel_ns);
		free(held_best);
		free(held_ucopy);
		printf(" %9s %8.1f%% [%.1f,%.1f]; of the best but libc (%s) %.1f%% [%.1f,%.1f]; "
		       "%zu rounds (%zu held to the best)\n",
		       v[best].name, 100 / ci.est, 100 / ci.hi, 100 / ci.lo, v[own].name,
		       100 / co.est, 100 / co.hi, 100 / co.lo, r.rounds, nheld);
		fflush(stdout);
		cell_result_free(&r);
		copy_seq_free(&seq);
	}
	bar_line(a, "BAR 4 [%s] cold >= 64 MiB: ucopy >= 95%% of the best kernel (libc included) at "
		    "%u/%u sizes; lowest %.1f%% at %s (of ucopy's own best: lowest %.1f%% at %s): %s",
		 a->name, t.cells - t.misses, t.cells, 100 / t.worst_est, t.worst_at,
		 100 / t_own.worst_est, t_own.worst_at, verdict_names[tally_verdict(&t)]);
}

/* After a bar: the host probe's range, how many cells began on a slowed
 * core (the probe at SLOW_ROUND_FACTOR times the bar's fastest or more),
 * and the slow rounds within cells.  A bar that ran slowed in large part
 * measured the host as much as ucopy; the probe's ns compare processes. */
static unsigned host_line(const struct arm *a)
{
	if (!a->nprobe)
		return 0;
	double lo = a->probe[0], hi = a->probe[0];
	for (unsigned i = 1; i < a->nprobe; i++) {
		lo = fmin(lo, a->probe[i]);
		hi = fmax(hi, a->probe[i]);
	}
	unsigned slowed = 0;
	for (unsigned i = 0; i < a->nprobe; i++)
		slowed += a->probe[i] >= SLOW_ROUND_FACTOR * lo;
	printf("(host: an 8-byte glibc copy took %.2f-%.2f ns before the cells, %u of %u cells "
	       "began on a slowed core; %zu of %zu rounds slowed within a cell)\n",
	       lo, hi, slowed, a->nprobe, a->slow_rounds, a->rounds);
	return slowed;
}

/* What host_note() writes into a BAR line and summarize() reads back. */
#define HOST_NOTE "(host: %u of %u cells began on a slowed core)"

/* A BAR line's last ": ", before its verdict; NULL if none. */
static const char *last_colon(const char *line)
{
	const char *v = NULL;
	for (const char *c = line; (c = strstr(c, ": ")); c++)
		v = c;
	return v;
}

/* Puts HOST_NOTE before a BAR line's verdict, so that each process's
 * verdict in the summary says how much of it the host measured. */
static void host_note(char *line, size_t cap, unsigned slowed, unsigned cells)
{
	const char *v = last_colon(line);
	if (!v || !cells || strlen(line) + 64 > cap)
		return;
	size_t at = (size_t)(v - line);
	char tail[512];
	snprintf(tail, sizeof tail, "%s", v);
	snprintf(line + at, cap - at, " " HOST_NOTE "%s", slowed, cells, tail);
}

/*-----   Bar 5, from the others' cells   -----*/

/* Bar 5's verdict.  Its cells are judged as bar 1's are (family_level()),
 * at the level of all of them, bars 1-4 together: a miss only a cell's own
 * interval confirms is MARGINAL.  Judged by each cell's own 95% interval,
 * bar 5 read FAIL in 1-3 of its 564 cells in nearly every process, a different
 * cell each time (64 B cells of bar 3 at 1.06-1.07x on a Zen 3, family 25
 * model 1; 64 B, 256 B and 2 KiB at 1.04-1.09x on a Zen 5 guest, family 26
 * model 2, where those cells timed alone read try/ucopy 0.99-1.02): the
 * intervals of bar 3's short cells miss the spells of a shared core more
 * often than one time in 40 (docs/performance.md, "How it measures"). */
static void bar_try(struct arm *a)
{
	struct tally all = { 0 };
	unsigned family = 0, unjudged = 0;
	double level = family_level((unsigned)(a->ntry_cells ? a->ntry_cells : 1));
	for (size_t i = 0; i < a->ntry_cells; i++) {
		const struct try_cell *c = &a->try_cells[i];
		struct stats_interval ci;
		if (stats_paired_ratio(c->u, c->t, c->rounds, level, &ci))
			unjudged++;
		else if (ci.lo > c->bound)
			family++;
		free(c->u);
		free(c->t);
	}
	free(a->try_cells);
	a->try_cells = NULL;
	a->ntry_cells = a->try_cap = 0;
	char per[256] = "";
	size_t off = 0;
	const struct tally *worst = NULL;
	for (int b = 1; b <= 4; b++) {
		const struct tally *t = &a->try_[b];
		if (!t->cells)
			continue;
		all.cells += t->cells;
		all.misses += t->misses;
		all.significant += t->significant;
		if (!worst || t->worst > worst->worst)
			worst = t;
		off += (size_t)snprintf(per + off, sizeof per - off, "%sbar %d %.3f (%u)",
					off ? ", " : "", b, exp(t->log_sum / t->cells),
					t->significant);
	}
	if (!worst) {
		bar_line(a, "BAR 5 [%s] ucopy_try: SKIPPED (no other bar ran)", a->name);
		return;
	}
	enum verdict vd = family ? V_FAIL : all.misses ? V_MARGINAL : V_PASS;
	bar_line(a, "BAR 5 [%s] ucopy_try vs ucopy_memcpy: within 2%% (1 ns below 64 B) in %u/%u "
		    "cells, %u beyond significantly at the %u cells' family-wise 95%% (%u by "
		    "each cell's own; %u with too few rounds for the family's); worst %.3fx (bound %.3f) at %s; geomean try/ucopy "
		    "(cells beyond by their own) %s: %s",
		 a->name, all.cells - all.misses, all.cells, family, all.cells, all.significant,
		 unjudged, worst->worst_est, worst->worst_bound, worst->worst_at, per, verdict_names[vd]);
}

static int run_arm(struct arm *a)
{
	const struct ucopy_active *act = ucopy_active();
	char pol[256];
	ucopy_policy_format(act->policy, pol, sizeof pol);
	printf("\n== arm %s: ucopy_memcpy runs %s (source %s%s%s%s%s)\n", a->name, pol,
	       ucopy_source_name(act->source), act->profile[0] ? ", profile " : "",
	       act->profile, act->reason[0] ? "; " : "", act->reason);
	if (!strcmp(a->name, "calibrated") && act->source != UCOPY_SOURCE_PROFILE) {
		printf("BAR * [%s]: SKIPPED (the profile was not loaded: %s)\n", a->name,
		       act->reason[0] ? act->reason : "no profile");
		return 0;
	}
	a->m = measure_new();
	if (!a->m)
		die("setup", "out of memory");
	static void (*const bar_fn[5])(struct arm *) = { NULL, bar_fixed, bar_dist,
							  bar_cliff, bar_cold };
	/* The first cell of a fresh process ran slow for every variant on
	 * the project's machine (frequency, page tables): a throwaway one. */
	{
		struct variant v[NENTRIES];
		struct copy_seq seq;
		struct cell c;
		struct cell_result r;
		for (int e = 0; e < NENTRIES; e++)
			entry_variant(&v[e], e);
		if (copy_seq_fixed(&seq, 4096, 0, 0))
			die("warm-up", "out of memory");
		cell_init(&c, &seq, CACHE_HOT, 0, 2048);
		measure(a, v, NENTRIES, &c, 0.3, 0, &r);
		cell_result_free(&r);
		copy_seq_free(&seq);
	}
	double t0 = clock_seconds();
	for (int b = 1; b <= 4; b++)
		if (a->bars[b]) {
			double tb = clock_seconds();
			fprintf(stderr, "bench_bars: arm %s, bar %d...\n", a->name, b);
			a->rounds = a->slow_rounds = 0;
			a->nprobe = 0;
			unsigned first = a->nlines;
			bar_fn[b](a);
			printf("(bar %d: %.0f s)\n", b, clock_seconds() - tb);
			unsigned slowed = host_line(a);
			for (unsigned i = first; i < a->nlines; i++)
				host_note(a->lines[i], sizeof a->lines[i], slowed, a->nprobe);
		}
	bar_try(a);
	measure_free(a->m);
	printf("\n");
	for (unsigned i = 0; i < a->nlines; i++)
		printf("%s\n", a->lines[i]);
	printf("(arm %s: %.0f s)\n", a->name, clock_seconds() - t0);
	return 0;
}

/*=====   The driver   =====*/

static void self_path(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	if (n <= 0)
		die("readlink /proc/self/exe", strerror(errno));
	buf[n] = '\0';
}

/* Runs `ucopy calibrate --quick -o path` in a child, its output on stderr. */
static int calibrate_profile(const char *path)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(2, 1);
		char *argv[] = { "calibrate", "--quick", "-o", (char *)path, NULL };
		_exit(cmd_calibrate(4, argv));
	}
	int st;
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return -1;
	return 0;
}

/* Runs one arm in a fresh process (the active policy is fixed at first use)
 * and echoes its output, keeping the BAR lines for the summary. */
static int spawn_arm(const char *arm, const char *profile, char **args,
		     char summary[][512], unsigned *nsum, unsigned max)
{
	char self[4096];
	int fd[2];
	self_path(self, sizeof self);
	fflush(stdout);
	if (pipe(fd))
		return -1;
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		unsetenv("UCOPY_POLICY");
		if (profile) {
			setenv("UCOPY_PROFILE", profile, 1);
		} else {
			/* No profile at the default path either. */
			unsetenv("UCOPY_PROFILE");
			setenv("XDG_CACHE_HOME", "/nonexistent/ucopy-bench-bars", 1);
		}
		setenv("UCOPY_BARS_ARM", arm, 1);
		execv(self, args);
		_exit(127);
	}
	close(fd[1]);
	FILE *in = fdopen(fd[0], "r");
	char line[4096];
	while (in && fgets(line, sizeof line, in)) {
		fputs(line, stdout);
		fflush(stdout);
		if ((!strncmp(line, "BAR ", 4)) && *nsum < max) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(summary[(*nsum)++], 512, "%.500s", line);
		}
	}
	if (in)
		fclose(in);
	int st;
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/*-----   Over processes: every verdict and the median one   -----*/

/* A BAR line's bar: its text before the first ": " (the arm and, for bar
 * 2, the regime included), and its verdict: the text after the last. */
static size_t bar_key_len(const char *line)
{
	const char *c = strstr(line, ": ");
	return c ? (size_t)(c - line) : strlen(line);
}

/* Whether two BAR lines are the same bar (of the same arm and regime). */
static int same_bar(const char *a, const char *b)
{
	size_t k = bar_key_len(a);
	return bar_key_len(b) == k && !strncmp(a, b, k);
}

static int verdict_rank(const char *v)
{
	for (int i = 0; i < 3; i++)
		if (!strcmp(v, verdict_names[i]))
			return i;
	return -1;
}

/* Its last word after ": " when that is PASS, MARGINAL or FAIL; else all
 * that follows the key (SKIPPED and its reason, which may hold ": "). */
static const char *bar_verdict(const char *line)
{
	const char *c = last_colon(line);
	const char *v = c ? c + 2 : line;
	if (verdict_rank(v) >= 0)
		return v;
	size_t k = bar_key_len(line);
	return line[k] ? line + k + 2 : "";
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* For each bar, in the order first met: the verdicts of the processes in
 * their order, each with its "S/N slowed" where its line has host_note()'s
 * count, and the median process's; a verdict that is none of PASS,
 * MARGINAL, FAIL (SKIPPED) is shown, and then the bar has no median. */
static void summarize(char lines[][512], unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		int seen = 0;
		for (unsigned j = 0; j < i && !seen; j++)
			seen = same_bar(lines[j], lines[i]);
		if (seen)
			continue;
		int rank[64], nr = 0, other = 0;
		char list[512] = "";
		size_t off = 0;
		for (unsigned j = i; j < n && nr < 64; j++) {
			if (!same_bar(lines[j], lines[i]))
				continue;
			const char *v = bar_verdict(lines[j]);
			int r = verdict_rank(v);
			other |= r < 0;
			rank[nr++] = r;
			char host[48] = "";
			const char *h = strstr(lines[j], "(host: ");
			unsigned slowed, cells;
			if (h && sscanf(h, HOST_NOTE, &slowed, &cells) == 2)
				snprintf(host, sizeof host, " (%u/%u slowed)", slowed, cells);
			if (off < sizeof list)
				off += (size_t)snprintf(list + off, sizeof list - off, "%s%s%s",
							off ? ", " : "", v, host);
		}
		qsort(rank, (size_t)nr, sizeof rank[0], cmp_int);
		printf("%.*s: %s in %d process%s", (int)bar_key_len(lines[i]), lines[i], list, nr,
		       nr == 1 ? "" : "es");
		if (other)
			printf("\n");
		else
			printf("; the median process: %s\n", verdict_names[rank[nr / 2]]);
	}
}

/* 1..9 from a whole decimal string, else 0. */
static long parse_processes(const char *s)
{
	char *end;
	errno = 0;
	long n = strtol(s, &end, 10);
	return !errno && end != s && !*end && n >= 1 && n <= 9 ? n : 0;
}

static int parse_list(const char *s, int *bars)
{
	memset(bars, 0, 6 * sizeof *bars);
	for (const char *p = s; *p; p++) {
		if (*p >= '1' && *p <= '5')
			bars[*p - '0'] = 1;
		else if (*p != ',')
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	double seconds = 60;
	const char *env = getenv("UCOPY_BARS_SECONDS");
	const char *profile = getenv("UCOPY_BARS_PROFILE");
	const char *arms = "default,calibrated";
	int bars[6] = { 0, 1, 1, 1, 1, 1 };
	uint64_t seed = 1;
	data_exe_depth = 2;   /* build/tests/bench_bars */
	const char *penv = getenv("UCOPY_BARS_PROCESSES");
	long processes = 3;
	if (env && env[0])
		seconds = atof(env);
	if (argc == 2 && !strcmp(argv[1], "--summarize")) {
		static char lines[1024][512];
		unsigned n = 0;
		char line[4096];
		while (n < 1024 && fgets(line, sizeof line, stdin))
			if (!strncmp(line, "BAR ", 4)) {
				line[strcspn(line, "\n")] = '\0';
				snprintf(lines[n++], 512, "%.500s", line);
			}
		summarize(lines, n);
		return 0;
	}
	if (penv && penv[0] && (processes = parse_processes(penv)) == 0) {
		fprintf(stderr, "bench_bars: bad UCOPY_BARS_PROCESSES '%s' (expected 1..9)\n", penv);
		return 2;
	}
	for (int i = 1; i < argc; i += 2) {
		const char *o = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		char *end = NULL;
		if (!strcmp(o, "--seconds") && val) {
			seconds = strtod(val, &end);
			if (*end)
				seconds = 0;   /* refused below */
		} else if (!strcmp(o, "--profile") && val) {
			profile = val;
		} else if (!strcmp(o, "--bars") && val) {
			if (parse_list(val, bars)) {
				fprintf(stderr, "bench_bars: bad --bars '%s' (expected e.g. 1,3)\n", val);
				return 2;
			}
		} else if (!strcmp(o, "--processes") && val) {
			if ((processes = parse_processes(val)) == 0) {
				fprintf(stderr, "bench_bars: bad --processes '%s' (expected 1..9)\n", val);
				return 2;
			}
		} else if (!strcmp(o, "--arms") && val) {
			arms = val;
		} else if (!strcmp(o, "--seed") && val) {
			seed = strtoull(val, &end, 10);
			if (*end || !*val) {
				fprintf(stderr, "bench_bars: bad --seed '%s' (expected a decimal number)\n", val);
				return 2;
			}
		} else {
			fprintf(stderr, "usage: bench_bars [--seconds S] [--processes N] [--profile FILE] "
					"[--bars 1,2,3,4] [--arms default,calibrated] [--seed N]\n"
					"       bench_bars --summarize < LINES\n");
			return 2;
		}
	}
	if (!(seconds > 0)) {
		fprintf(stderr, "bench_bars: bad budget (expected seconds above 0)\n");
		return 2;
	}

	const char *arm = getenv("UCOPY_BARS_ARM");
	if (arm && arm[0]) {
		struct arm a = { .name = arm, .seconds = seconds, .seed = seed };
		memcpy(a.bars, bars, sizeof bars);
		return run_arm(&a);
	}

	char cpu[256], feats[512];
	machine_cpu_line(cpu, sizeof cpu);
	ucopy_features_format(ucopy_cpu()->features, ",", feats, sizeof feats);
	printf("machine   %s\n", cpu);
	printf("features  %s\n", feats);
	printf("system    Linux %s, glibc %s, timer %s (%.3f GHz)\n", machine_kernel(),
	       gnu_get_libc_version(), timer_name(), timer_tsc_ghz());
	printf("compiler  %s, flags %s\n", machine_compiler(), machine_cflags());
	printf("budget    %.0f s of measuring per process, %ld process%s per arm (--seconds or "
	       "UCOPY_BARS_SECONDS, --processes or UCOPY_BARS_PROCESSES), seed %llu\n",
	       seconds, processes, processes == 1 ? "" : "es", (unsigned long long)seed);
	if (getenv("UCOPY_POLICY"))
		printf("note      UCOPY_POLICY is set and ignored: the arms are the default setup and a profile\n");

	char path[4096];
	if (strstr(arms, "calibrated")) {
		if (profile && profile[0]) {
			snprintf(path, sizeof path, "%s", profile);
		} else {
			self_path(path, sizeof path - 32);
			char *slash = strrchr(path, '/');
			snprintf(slash ? slash + 1 : path, 32, "bench_bars.profile");
			double t0 = clock_seconds();
			fprintf(stderr, "bench_bars: ucopy calibrate --quick -o %s\n", path);
			if (calibrate_profile(path))
				printf("profile   calibration failed (the calibrated arm is skipped)\n");
			else
				printf("profile   %s from `ucopy calibrate --quick` (%.1f s)\n", path,
				       clock_seconds() - t0);
		}
		struct ucopy_policy p;
		char why[512], text[256];
		if (ucopy_profile_load(path, &p, why, sizeof why) == 0) {
			ucopy_policy_format(&p, text, sizeof text);
			printf("profile   %s: policy %s\n", path, text);
		} else {
			printf("profile   rejected: %s\n", why);
		}
	}

	/* At most 7 BAR lines (bar 2 has two) per process of each arm. */
	unsigned maxsum = 8 * 2 * (unsigned)processes;
	char (*summary)[512] = calloc(maxsum, sizeof *summary);
	unsigned nsum = 0;
	if (!summary) {
		fprintf(stderr, "bench_bars: out of memory\n");
		return 1;
	}
	char secs[32], seeds[32], blist[16] = "";
	snprintf(secs, sizeof secs, "%g", seconds);
	snprintf(seeds, sizeof seeds, "%llu", (unsigned long long)seed);
	for (int b = 1; b <= 5; b++)
		if (bars[b])
			snprintf(blist + strlen(blist), sizeof blist - strlen(blist), "%s%d",
				 blist[0] ? "," : "", b);
	char *args[] = { argv[0], "--seconds", secs, "--seed", seeds, "--bars", blist, NULL };
	static const char *const arm_names[] = { "default", "calibrated" };
	for (long p = 0; p < processes; p++) {
		for (int i = 0; i < 2; i++) {
			if (!strstr(arms, arm_names[i]))
				continue;
			printf("\n== process %ld of %ld of arm %s\n", p + 1, processes, arm_names[i]);
			int rc = spawn_arm(arm_names[i], i ? path : NULL, args, summary, &nsum,
					   maxsum);
			if (rc != 0) {
				fprintf(stderr, "bench_bars: arm %s failed (status %d)\n",
					arm_names[i], rc);
				free(summary);
				return 1;
			}
		}
	}
	printf("\n== summary (PASS; FAIL: a miss the 95%% interval confirms, for bars 1 and 5 "
	       "the family-wise one; MARGINAL: misses by the point estimate only), process by "
	       "process\n");
	for (unsigned i = 0; i < nsum; i++)
		printf("%s\n", summary[i]);
	printf("\n== over %ld process%s per arm: each process's verdict, and the median "
	       "process's\n", processes, processes == 1 ? "" : "es");
	summarize(summary, nsum);
	free(summary);
	return 0;
}
