/*
 * calibrate.c - `ucopy calibrate`: measure the kernels on this machine,
 * derive the `calibrated` policy and save it as a profile.
 *
 * The run, each phase with its share of the time budget:
 *  1. sweep (35%): every kernel that could win, and libc for reference, at
 *     sizes from 1 byte to --max-size, hot, copies at mixed offsets (equal and
 *     different alignments, never a small positive distance: that is phase 3's
 *     question); up to MIXED_MAX also on sizes drawn uniformly from n/2 to 2n
 *     (mixed), since real callers mix sizes and a single size trains the
 *     branch predictor.  A kernel that is 1.6x behind at two sizes in a row
 *     is not timed at larger ones.
 *  2. cold (15%): the kernels within 25% of the best at each size up to
 *     1 MiB, with every line of source and destination flushed before each
 *     batch, so copies read and write memory.
 *  3. probes (15%): at 64, 256, 2K, 4352, 32K and 256K bytes (those the
 *     issue's no-cliff bar uses), each kernel still in the running copies at
 *     (dst - src) mod 4096 of 0, 1, 8, 31, 63, 200 and -1, -63, each against a
 *     control cell with the same alignments and a distance of about 2 KiB, and
 *     at misaligned offsets against the aligned cell.  All cells of a size are
 *     interleaved in one measurement, so a cell and its control see the same
 *     machine.  A cell 1.5x slower than its control is re-measured alone with
 *     it, and only a cliff seen twice counts.  This is how the Zen 3 rep movsb
 *     4K-aliasing cliff is found: by distance, not by CPU model.
 *  4. refine (15%): between the two sweep sizes of each crossover the
 *     derivation (calibration.h) finds, every kernel in reach is timed at
 *     four sizes an octave, hot and mixed, and the policy is derived again:
 *     a threshold then lies between two sizes a fifth apart at most.
 *  5. verify (12%): the derived policy against `auto` and libc at the
 *     measured sizes, hot and cold, and on mixed sizes (the fleetbench
 *     distributions that ship with ucopy, datadir.h, else sizes drawn
 *     uniformly from four classes); calibration_judge() keeps it only
 *     when it is ahead of `auto` by a significant margin.  Rejected, it is
 *     not thrown away whole: calibration_merge() keeps its rules where they
 *     never lost and takes auto's where they did, and that combination is
 *     verified again (8%) and judged the same way; else the profile holds
 *     auto's policy.
 */
#include "calibration.h"
#include "cli.h"
#include "datadir.h"
#include "machine.h"
#include "measure.h"
#include "outfile.h"
#include "output.h"
#include "profile_keys.h"
#include "sequence.h"
#include "sizespec.h"
#include "stats.h"
#include "ucopy.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CMD "calibrate"

/* Budgets of the measuring itself: setup (mapping buffers, the timer's
 * 20 ms calibration) and the rounds past a cell's budget needed to reach its
 * minimum come on top (docs/calibrate.md, "Where calibrate's numbers come
 * from"). */
#define DEFAULT_SECONDS 20.0
#define QUICK_SECONDS 2.5
#define DEFAULT_MAX_SIZE ((size_t)64 << 20)
/* Below auto's non-temporal threshold: a hot point there put nt and rep
 * movsb in either order from run to run (each timed with the other's cache
 * footprint), and above the largest measured size the policy is auto's
 * anyway (docs/calibrate.md, "Where calibrate's numbers come from"). */
#define QUICK_MAX_SIZE ((size_t)4 << 20)
/* Cold copies flush every line beforehand, which costs more than the copy
 * (docs/calibrate.md, "Where calibrate's numbers come from"): above this the
 * phase would eat the budget, and copies that size stream from memory hot or
 * cold. */
#define COLD_MAX_SIZE ((size_t)1 << 20)
#define PRUNE_RATIO 1.6
/* From here on a sweep point times only the kernels within FINALIST_RATIO
 * of the best at the point before (and nt and libc), for more rounds. */
#define LARGE ((size_t)1 << 20)
#define FINALIST_RATIO 1.25
#define LEVEL 0.95
/* Mixed-size cells up to here: above, a copy takes 100 ns and more, and a
 * mispredicted branch (a few ns) no longer decides between kernels. */
#define MIXED_MAX ((size_t)8 << 10)
/* Copies in a mixed-size sequence: more than a branch predictor keeps of
 * one call site's history (dist.h). */
#define MIXED_LEN DIST_SEQ_UNLEARNABLE
/* The seed of the distributions' sequences in the verify phase, the
 * default of make bench's bar 2: `ucopy bench --dist FILE --seed 1` times
 * the same cell. */
#define VERIFY_SEED 1
/* Refine points per octave between the sizes of a crossover. */
#define REFINE_PER_OCTAVE 4

void help_calibrate(FILE *f)
{
	fputs("usage: ucopy calibrate [OPTIONS]\n\n"
	      "Measures every copy kernel this CPU runs at sizes from 1 byte up, hot and\n"
	      "cold, and at source/destination distances and alignments; finds where the\n"
	      "fastest kernel changes and which kernels fall off a distance cliff (such as\n"
	      "rep movsb when (dst - src) mod 4096 is 1..63 on AMD Zen 3); derives a\n"
	      "policy (the fastest kernel per size class with no cliff) and verifies it\n"
	      "against `auto` on mixed sizes.  The `calibrated` policy it saves is the\n"
	      "derived one where it wins, auto's rules where it loses, or auto's whole\n"
	      "when nothing wins; with the CPU's identity and the measurements, as a\n"
	      "profile that libucopy loads at first use.  Prints the thresholds and the\n"
	      "expected gain over `auto` and over libc.\n\n"
	      "  -o, --output FILE\n"
	      "                   save the profile to FILE (default: where the library\n"
	      "                   looks: $UCOPY_PROFILE when set, else $XDG_CACHE_HOME/\n"
	      "                   ucopy/profile, or ~/.cache/ucopy/profile); -o=- writes\n"
	      "                   it to stdout, with -q alone\n"
	      "  --quick          a coarser run of about 3 s (sizes up to 4M)\n"
	      "  --seconds S      the measuring budget in seconds (default 20, --quick 2.5;\n"
	      "                   at most 86400)\n"
	      "  --max-size SIZE  largest copy measured (default 64M, --quick 4M; 64..1G)\n"
	      "  --dist-dir DIR   the size distributions (*.csv) the policy is verified\n"
	      "                   on (default: $UCOPY_DATA_DIR, else the fleetbench files\n"
	      "                   that ship with ucopy; without any, sizes drawn from\n"
	      "                   four classes); every *.csv must read as one, at\n"
	      "                   most " DATA_MAX_DISTS_TEXT "\n"
	      "  --replay FILE    a sequence `ucopy trace` recorded ('# ucopy sequence 1'):\n"
	      "                   replayed in the verify phase as one more workload, in\n"
	      "                   order with its alignments and distances, so the policy\n"
	      "                   is kept only if it is not behind auto on it either;\n"
	      "                   its times are printed on the 'replay' line\n"
	      "  -v               progress on stderr even when it is not a terminal, and\n"
	      "                   each phase's findings\n"
	      "  -q               print nothing but errors\n\n"
	      "The library uses the profile when UCOPY_PROFILE names it or it is at the\n"
	      "default path; UCOPY_POLICY wins over it.  `ucopy features` shows which\n"
	      "policy is active and why.  docs/calibrate.md describes the method and the\n"
	      "profile format.\n", f);
}

struct run {
	/* Options. */
	double seconds;
	size_t max_size;
	int quick, verbose, quiet;
	const char *out;
	struct data_dir dists;            /* verify's distributions */
	int have_dists;
	size_t dists_verified;            /* files verify() timed */
	const char *replay_path;          /* --replay */
	struct replay replay;
	int have_replay;
	/* State. */
	struct measure *m;
	struct calibration cal;
	struct ucopy_policy auto_policy;
	int candidate[CAL_MAX_KERNELS];   /* may be chosen */
	int pruned[CAL_MAX_KERNELS];      /* left out of larger sizes */
	size_t nk;
	int progress;                     /* a progress line on stderr */
	double started;
	const char *phase;
	double deadline;                  /* of the phase */
	double cold_byte_s;               /* seconds per byte and variant of a
					     cold round (flush + copy), from
					     the last cold cell */
	char err[256];
};

/* An equal share of what is left of the phase for each of `left` cells:
 * a cell that overran (buffers mapped, minimum rounds) is paid back by the
 * ones after it. */
static double share(const struct run *r, size_t left)
{
	double t = r->deadline - clock_seconds();
	return t > 0 && left ? t / (double)left : 0;
}

/*=====   Progress   =====*/

static void progress(struct run *r, size_t done, size_t total)
{
	if (!r->progress)
		return;
	fprintf(stderr, "\rcalibrate: %-7s %3zu/%-3zu %5.1f s ", r->phase, done, total,
		clock_seconds() - r->started);
	fflush(stderr);
}

static void progress_end(struct run *r)
{
	if (r->progress)
		fputs("\r\033[K", stderr);
}

/* A finding, with -v. */
static void say(struct run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct run *r, const char *fmt, ...)
{
	if (!r->verbose)
		return;
	va_list ap;
	progress_end(r);
	fprintf(stderr, "calibrate: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/*=====   Measuring   =====*/

/* Medians of each variant and, when lo is not NULL, the paired interval of
 * median(i) / median(fastest).  rounds > 0: exactly that many rounds of the
 * shortest batches worth timing, whatever the time (cold cells, whose
 * flushes the measuring core's budget does not see). */
static int time_cell(struct run *r, const struct variant *v, size_t nv,
		     const struct cell *c, double seconds, unsigned rounds,
		     double *med, double *lo, double *hi)
{
	/* Copies of a few MiB and more take milliseconds each, and on a
	 * shared host one round in three may catch a neighbour's burst: nine
	 * rounds keep the median clear of them where five did not
	 * (docs/calibrate.md, "Where calibrate's numbers come from"). */
	struct measure_opts o = { .seconds = seconds,
				  .min_rounds = c->seq->max_n >= LARGE ? 9 : MEASURE_MIN_ROUNDS };
	struct cell_result res;

	if (rounds) {
		o.seconds = 0;
		o.min_rounds = o.max_rounds = rounds;
	}
	if (measure_cell(r->m, v, nv, c, &o, &res, r->err, sizeof r->err) < 0)
		return -1;
	size_t best = 0;
	for (size_t i = 0; i < nv; i++) {
		med[i] = stats_median(res.v[i].ns, res.rounds);
		if (med[i] < med[best])
			best = i;
	}
	if (lo) {
		struct variant_summary *s = calloc(nv, sizeof *s);
		if (!s) {
			cell_result_free(&res);
			snprintf(r->err, sizeof r->err, "out of memory");
			return -1;
		}
		measure_summarize(&res, best, LEVEL, s);
		for (size_t i = 0; i < nv; i++) {
			lo[i] = i == best ? 1 : s[i].ratio.lo;
			hi[i] = i == best ? 1 : s[i].ratio.hi;
		}
		free(s);
	}
	cell_result_free(&res);
	return 0;
}

/* Copies of n bytes at four offset pairs, equally aligned (0/0, 16/16) and
 * not (32/0, 7/3), added to cell_for()'s base offsets 0/2048: the distances
 * (dst - src) mod 4096 are 2016 to 2048, far from the small ones in either
 * direction.  (Phase 3 is about those: at a small negative distance each
 * copy's loads 4K-alias the previous copy's stores, for every kernel;
 * docs/calibrate.md, "Where calibrate's numbers come from".) */
static int seq_mixed(struct copy_seq *s, size_t n)
{
	static const uint32_t off[4][2] = { { 0, 0 }, { 16, 16 }, { 32, 0 }, { 7, 3 } };
	size_t sizes[4] = { n, n, n, n };
	if (copy_seq_sizes(s, sizes, 4))
		return -1;
	for (size_t i = 0; i < 4; i++) {
		s->op[i].src_off = off[i][0];
		s->op[i].dst_off = off[i][1];
	}
	s->max_off = 32;
	return 0;
}

/* MIXED_LEN copies of sizes drawn uniformly from lo to hi with `seed`
 * (fixed, so that two runs time the same thing); offsets cycle as in
 * seq_mixed(). */
static int seq_uniform(struct copy_seq *s, size_t lo, size_t hi, uint64_t seed)
{
	static const uint32_t off[4][2] = { { 0, 0 }, { 16, 16 }, { 32, 0 }, { 7, 3 } };
	size_t *sizes = malloc(MIXED_LEN * sizeof *sizes);
	struct rng g;
	if (!sizes)
		return -1;
	rng_seed(&g, seed);
	for (size_t i = 0; i < MIXED_LEN; i++)
		sizes[i] = lo + (size_t)rng_below(&g, hi - lo + 1);
	int rc = copy_seq_sizes(s, sizes, MIXED_LEN);
	free(sizes);
	if (rc)
		return -1;
	for (size_t i = 0; i < MIXED_LEN; i++) {
		s->op[i].src_off = off[i % 4][0];
		s->op[i].dst_off = off[i % 4][1];
	}
	s->max_off = 32;
	return 0;
}

/* The mixed cell of point n: sizes from n/2 to 2n (1 to 2 below 2). */
static int seq_class(struct copy_seq *s, size_t n)
{
	return seq_uniform(s, n / 2 ? n / 2 : 1, 2 * n, n);
}

/* A cell in `cache`: hot is the measuring core's (one slot each side);
 * cold walks enough slots that a batch never copies the same lines twice and
 * flushes each batch's lines first, which needs far less memory than walking
 * 4x the LLC (docs/calibrate.md, "Where calibrate's numbers come from"). */
static void cell_for(struct cell *c, const struct copy_seq *seq, enum cal_state s)
{
	/* A replay carries its own distance in its offsets (max_off > 64). */
	if (seq->max_off > 64)
		cell_init(c, seq, CACHE_HOT, 0, 0);
	else
		cell_init_drawn(c, seq, CACHE_HOT);
	if (s == CAL_COLD) {
		size_t stride = cell_slot_stride(seq);
		size_t slots = ((size_t)64 << 20) / stride;
		if (slots > 16384)
			slots = 16384;
		if (slots < 16)
			slots = 16;
		c->src.region = c->dst.region = slots * stride;
		c->src.flush = c->dst.flush = 1;
	}
}

static const struct ucopy_kernel *kernel(size_t i)
{
	return ucopy_kernel_at(i);
}

/* Kernels worth timing at n bytes: outside these ranges a kernel is far
 * behind on every CPU (a byte loop past 16 bytes, non-temporal stores for
 * data that fits in L2), and timing it would only take time from the rest. */
static int worth(const struct run *r, size_t k, size_t n)
{
	const char *name = kernel(k)->name;
	if (!r->candidate[k] || r->pruned[k])
		return 0;
	if (!strcmp(name, "byte"))
		return n <= 16;
	if (!strcmp(name, "word"))
		return n <= 512;
	if (!strcmp(name, "unrolled"))
		return n <= ((size_t)64 << 10);
	if (calibration_streams(kernel(k)))
		return n >= ((size_t)64 << 10);
	return 1;
}

static int libc_index(void)
{
	return calibration_kernel_index(ucopy_kernel_find("libc"));
}

/*=====   1 and 2: the sweeps   =====*/

static void sweep_sizes(const struct run *r, size_t *out, size_t *n)
{
	*n = 0;
	for (size_t p = 1; p <= r->max_size && *n < CAL_MAX_POINTS / 2; p *= 2) {
		out[(*n)++] = p;
		/* Between the powers of two, where the crossovers are (64 B to
		 * 64 KiB), the point half-way up. */
		size_t mid = p + p / 2;
		if (!r->quick && p >= 4 && p < ((size_t)64 << 10) && mid <= r->max_size)
			out[(*n)++] = mid;
	}
}

/* Times kernels idx[0..nv) at n bytes hot (one size) or mixed (seq_class())
 * for `seconds` and records them at n's point, medians in med. */
static int time_point(struct run *r, size_t n, const size_t *idx, size_t nv,
		      enum cal_state s, double seconds, double *med)
{
	struct variant v[CAL_MAX_KERNELS];
	double lo[CAL_MAX_KERNELS], hi[CAL_MAX_KERNELS];
	struct copy_seq seq;
	struct cell c;

	for (size_t j = 0; j < nv; j++)
		variant_kernel(&v[j], kernel(idx[j]));
	if (s == CAL_MIXED ? seq_class(&seq, n) : seq_mixed(&seq, n)) {
		snprintf(r->err, sizeof r->err, "out of memory");
		return -1;
	}
	cell_for(&c, &seq, CAL_HOT);
	int rc = time_cell(r, v, nv, &c, seconds, 0, med, lo, hi);
	copy_seq_free(&seq);
	if (rc)
		return -1;
	struct cal_point *pt = calibration_point(&r->cal, n);
	for (size_t j = 0; j < nv; j++)
		calibration_set(&r->cal, pt, s, kernel(idx[j]), med[j], lo[j], hi[j]);
	return 0;
}

static int sweep(struct run *r, const size_t *sizes, size_t nsizes)
{
	size_t idx[CAL_MAX_KERNELS], cells = 0, done = 0;
	double med[CAL_MAX_KERNELS];
	int behind[CAL_MAX_KERNELS] = { 0 };
	int libc = libc_index();

	for (size_t i = 0; i < nsizes; i++)
		cells += 1 + (sizes[i] <= MIXED_MAX);
	r->phase = "sweep";
	for (size_t i = 0; i < nsizes; i++) {
		size_t n = sizes[i], nv = 0;
		progress(r, i, nsizes);
		const struct cal_point *prev = i ? calibration_point(&r->cal, sizes[i - 1]) : NULL;
		double prev_best = INFINITY;
		for (size_t k = 0; prev && k < r->nk; k++)
			if (r->candidate[k] && !isnan(prev->ns[CAL_HOT][k]))
				prev_best = fmin(prev_best, prev->ns[CAL_HOT][k]);
		for (size_t k = 0; k < r->nk; k++) {
			if (!worth(r, k, n) && (int)k != libc)
				continue;
			if (n >= LARGE && prev && (int)k != libc && !calibration_streams(kernel(k)) &&
			    !(prev->ns[CAL_HOT][k] <= FINALIST_RATIO * prev_best))
				continue;
			idx[nv++] = k;
		}
		if (n <= MIXED_MAX &&
		    time_point(r, n, idx, nv, CAL_MIXED, share(r, cells - done++), med))
			return -1;
		if (time_point(r, n, idx, nv, CAL_HOT, share(r, cells - done++), med))
			return -1;
		double best = INFINITY;
		for (size_t j = 0; j < nv; j++)
			if (r->candidate[idx[j]])
				best = fmin(best, med[j]);
		for (size_t j = 0; j < nv; j++) {
			size_t k = idx[j];
			behind[k] = med[j] > PRUNE_RATIO * best ? behind[k] + 1 : 0;
			/* From 4 KiB on: below, startup costs shift the
			 * order from size to size. */
			/* Streaming kernels are kept: they lose until copies
			 * outgrow the caches, which is the point of timing them. */
			if (behind[k] >= 2 && n >= 4096 && r->candidate[k] &&
			    !calibration_streams(kernel(k))) {
				r->pruned[k] = 1;
				say(r, "%s is %.1fx behind at %zu bytes: not timed above",
				    kernel(k)->name, med[j] / best, n);
			}
		}
	}
	return 0;
}

/* Rounds for a cold cell of n bytes and nv variants in `seconds`. */
static unsigned cold_rounds(const struct run *r, size_t n, size_t nv, double seconds)
{
	if (!(r->cold_byte_s > 0))
		return 9;
	double round = r->cold_byte_s * (double)(n > 4096 ? n : 4096) * (double)nv;
	double k = seconds / round;
	return k < MEASURE_MIN_ROUNDS ? MEASURE_MIN_ROUNDS : k > 25 ? 25 : (unsigned)k;
}

static void cold_learn(struct run *r, size_t n, size_t nv, unsigned rounds,
		       double elapsed)
{
	r->cold_byte_s = elapsed / (double)rounds / (double)nv /
			 (double)(n > 4096 ? n : 4096);
}

static int cold(struct run *r)
{
	struct variant v[CAL_MAX_KERNELS];
	size_t idx[CAL_MAX_KERNELS];
	double med[CAL_MAX_KERNELS], lo[CAL_MAX_KERNELS], hi[CAL_MAX_KERNELS];
	int libc = libc_index();
	size_t total = 0, done = 0;

	for (size_t i = 0; i < r->cal.npoints; i++)
		total += r->cal.point[i].size <= COLD_MAX_SIZE;
	r->phase = "cold";
	for (size_t i = 0; i < r->cal.npoints; i++) {
		struct cal_point *pt = &r->cal.point[i];
		size_t n = pt->size, nv = 0;
		double best = INFINITY;
		if (n > COLD_MAX_SIZE)
			continue;
		progress(r, done, total);
		for (size_t k = 0; k < r->nk; k++)
			if (r->candidate[k] && !isnan(pt->ns[CAL_HOT][k]))
				best = fmin(best, pt->ns[CAL_HOT][k]);
		for (size_t k = 0; k < r->nk; k++)
			if ((int)k == libc ||
			    (r->candidate[k] && pt->ns[CAL_HOT][k] <= FINALIST_RATIO * best)) {
				variant_kernel(&v[nv], kernel(k));
				idx[nv++] = k;
			}
		struct copy_seq seq;
		struct cell c;
		if (seq_mixed(&seq, n)) {
			snprintf(r->err, sizeof r->err, "out of memory");
			return -1;
		}
		cell_for(&c, &seq, CAL_COLD);
		unsigned rounds = cold_rounds(r, n, nv, share(r, total - done));
		double t0 = clock_seconds();
		int rc = time_cell(r, v, nv, &c, 0, rounds, med, lo, hi);
		copy_seq_free(&seq);
		if (rc)
			return -1;
		cold_learn(r, n, nv, rounds, clock_seconds() - t0);
		done++;
		for (size_t j = 0; j < nv; j++)
			calibration_set(&r->cal, pt, CAL_COLD, kernel(idx[j]), med[j], lo[j], hi[j]);
	}
	return 0;
}

/*=====   3: distance and alignment probes   =====*/

/* A probe cell: the copy runs at src + src_off to dst + dst_off from
 * page-aligned slots, so (dst - src) mod 4096 is dst_off - src_off.
 * `control` is the cell with the same alignments mod 64 at a distance of
 * about 2 KiB (-1: it is a control, or the aligned base). */
struct probe_cell {
	uint32_t src, dst;
	int control;
	int misaligned;   /* an alignment cell, compared with cell 0 */
	int quick;        /* also in --quick */
};

static const struct probe_cell cells[] = {
	{ 0, 2048, -1, 0, 1 },   /* 0: aligned, far: the base */
	{ 0, 0, 0, 0, 1 },       /* distance 0 (exact 4K alias) */
	{ 0, 1, 3, 0, 1 },       /* 2: distance 1 */
	{ 0, 2049, -1, 1, 1 },
	{ 0, 8, 5, 0, 0 },       /* 4: distance 8 */
	{ 0, 2056, -1, 1, 0 },
	{ 0, 31, 7, 0, 0 },      /* 6: distance 31 */
	{ 0, 2079, -1, 1, 0 },
	{ 0, 63, 9, 0, 1 },      /* 8: distance 63 */
	{ 0, 2111, -1, 1, 1 },
	{ 1, 0, 11, 0, 1 },      /* 10: distance -1 */
	{ 1, 2048, -1, 1, 1 },
	{ 63, 0, 13, 0, 0 },     /* 12: distance -63 */
	{ 63, 2048, -1, 1, 0 },
	{ 15, 2063, -1, 1, 0 },  /* both misaligned, far */
	/* distance 200: where a block loop that stores before it loads
	 * meets its own stores by page offset (docs/performance-zen5.md, "4K
	 * aliasing in avx512's block loop"), beside 0/2056, the same
	 * alignments. */
	{ 0, 200, 5, 0, 0 },
};
#define NCELLS (sizeof cells / sizeof cells[0])

struct probe_ctx {
	ucopy_kernel_fn fn;
	uint32_t src, dst;
};

static void probe_call(void *ctx, void *dst, const void *src, size_t n)
{
	const struct probe_ctx *p = ctx;
	p->fn((char *)dst + p->dst, (const char *)src + p->src, n);
}

/* One cell of n bytes whose slots have room for every probe offset. */
static int probe_seq(struct copy_seq *s, size_t n)
{
	if (copy_seq_sizes(s, &n, 1))
		return -1;
	s->max_off = 4096 + 64;   /* room, not an offset any op uses */
	return 0;
}

/* Kernels to probe at n: the candidates within reach of the best at the
 * sweep point nearest n, libc for the record, and movsb and movsb_safe,
 * whose difference is exactly the cliff. */
static size_t probe_kernels(const struct run *r, size_t n, size_t *idx)
{
	const struct cal_point *pt = NULL;
	size_t nk = 0;
	double best = INFINITY;
	for (size_t i = 0; i < r->cal.npoints; i++) {
		const struct cal_point *p = &r->cal.point[i];
		if (!pt || fabs(log((double)p->size / (double)n)) <
			   fabs(log((double)pt->size / (double)n)))
			pt = p;
	}
	if (!pt)
		return 0;
	for (size_t k = 0; k < r->nk; k++)
		if (r->candidate[k] && !isnan(pt->ns[CAL_HOT][k]))
			best = fmin(best, pt->ns[CAL_HOT][k]);
	for (size_t k = 0; k < r->nk; k++) {
		const char *name = kernel(k)->name;
		double t = pt->ns[CAL_HOT][k];
		int named = !strcmp(name, "movsb") || !strcmp(name, "movsb_safe");
		if ((int)k == libc_index() ||
		    (r->candidate[k] && (t <= FINALIST_RATIO * best ||
					 (named && !isnan(t)))))
			idx[nk++] = k;
	}
	return nk;
}

/* Re-times one cell of kernel k against its control, alone.
 * @return : the ratio, or NaN on failure. */
static double confirm(struct run *r, size_t k, size_t n, size_t cell)
{
	struct probe_ctx ctx[2] = {
		{ kernel(k)->fn, cells[cell].src, cells[cell].dst },
		{ kernel(k)->fn, cells[cells[cell].control].src, cells[cells[cell].control].dst },
	};
	struct variant v[2];
	struct copy_seq seq;
	struct cell c;
	double med[2];

	variant_call(&v[0], "cell", probe_call, &ctx[0]);
	variant_call(&v[1], "control", probe_call, &ctx[1]);
	if (probe_seq(&seq, n))
		return NAN;
	cell_for(&c, &seq, CAL_HOT);
	/* A fixed number of rounds: a 25x cliff at 256 KiB costs 0.2 ms a
	 * copy, and the budget is for the probes themselves. */
	int rc = time_cell(r, v, 2, &c, 0, 15, med, NULL, NULL);
	copy_seq_free(&seq);
	return rc ? NAN : med[0] / med[1];
}

static int probes(struct run *r)
{
	static const size_t want[] = { 64, 256, 2048, 4352, 32768, 262144 };
	size_t sizes[8], ns = 0;
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		if (want[i] <= r->max_size)
			sizes[ns++] = want[i];
	r->phase = "probes";
	for (size_t si = 0; si < ns; si++) {
		size_t n = sizes[si], idx[CAL_MAX_KERNELS];
		size_t nk = probe_kernels(r, n, idx), nv = 0;
		size_t vk[CAL_MAX_KERNELS * NCELLS], vc[CAL_MAX_KERNELS * NCELLS];
		static struct probe_ctx ctx[CAL_MAX_KERNELS * NCELLS];
		static struct variant v[CAL_MAX_KERNELS * NCELLS];
		static double med[CAL_MAX_KERNELS * NCELLS];

		progress(r, si, ns);
		for (size_t j = 0; j < nk; j++)
			for (size_t c = 0; c < NCELLS; c++) {
				if (r->quick && !cells[c].quick)
					continue;
				ctx[nv] = (struct probe_ctx){ kernel(idx[j])->fn, cells[c].src,
							      cells[c].dst };
				variant_call(&v[nv], kernel(idx[j])->name, probe_call, &ctx[nv]);
				vk[nv] = idx[j];
				vc[nv++] = c;
			}
		if (nv == 0)
			continue;
		struct copy_seq seq;
		struct cell cl;
		if (probe_seq(&seq, n)) {
			snprintf(r->err, sizeof r->err, "out of memory");
			return -1;
		}
		cell_for(&cl, &seq, CAL_HOT);
		int rc = time_cell(r, v, nv, &cl, share(r, ns - si), 0, med, NULL, NULL);
		copy_seq_free(&seq);
		if (rc)
			return -1;

		double cell_ns[CAL_MAX_KERNELS][NCELLS];
		for (size_t i = 0; i < nv; i++) {
			cell_ns[vk[i]][vc[i]] = med[i];
			struct cal_probe *p = calibration_probe(&r->cal, n, cells[vc[i]].src,
								cells[vc[i]].dst);
			if (p)
				p->ns[vk[i]] = med[i];
		}
		for (size_t j = 0; j < nk; j++) {
			size_t k = idx[j], worst_cell = 0;
			double dist = 0, align = 0;
			for (size_t c = 0; c < NCELLS; c++) {
				if (r->quick && !cells[c].quick)
					continue;
				if (cells[c].control >= 0) {
					double q = cell_ns[k][c] / cell_ns[k][cells[c].control];
					if (q > dist) {
						dist = q;
						worst_cell = c;
					}
				}
				if (cells[c].misaligned)
					align = fmax(align, cell_ns[k][c] / cell_ns[k][0]);
			}
			calibration_add_effect(&r->cal, kernel(k), n, dist, align);
			if (dist <= CAL_CLIFF)
				continue;
			double again = confirm(r, k, n, worst_cell);
			say(r, "%s at %zu bytes, offsets %u/%u: %.2fx its control, %.2fx again",
			    kernel(k)->name, n, cells[worst_cell].src, cells[worst_cell].dst,
			    dist, again);
			if (again > CAL_CLIFF)
				calibration_add_cliff(&r->cal, kernel(k), n, fmin(dist, again),
						      cells[worst_cell].src, cells[worst_cell].dst);
		}
	}
	return 0;
}

/*=====   4: refining the crossovers   =====*/

static int has_point(const struct calibration *cal, size_t n)
{
	for (size_t i = 0; i < cal->npoints; i++)
		if (cal->point[i].size == n)
			return 1;
	return 0;
}

/* Kernels to time between points a and b: the candidates measured hot at
 * either that are within FINALIST_RATIO of the best there, hot or mixed. */
static size_t refine_kernels(const struct run *r, const struct cal_point *a,
			     const struct cal_point *b, size_t *idx)
{
	const struct cal_point *pts[2] = { a, b };
	size_t nk = 0;
	for (size_t k = 0; k < r->nk; k++) {
		int near = 0;
		if (!r->candidate[k])
			continue;
		for (int p = 0; p < 2; p++)
			for (int s = CAL_HOT; s <= CAL_MIXED; s += CAL_MIXED - CAL_HOT) {
				double best = INFINITY;
				for (size_t j = 0; j < r->nk; j++)
					if (r->candidate[j] && !isnan(pts[p]->ns[s][j]))
						best = fmin(best, pts[p]->ns[s][j]);
				near |= !isnan(pts[p]->ns[CAL_HOT][k]) &&
					pts[p]->ns[s][k] <= FINALIST_RATIO * best;
			}
		if (near)
			idx[nk++] = k;
	}
	return nk;
}

/* Every kernel in reach is timed at REFINE_PER_OCTAVE sizes an octave
 * between the two sizes of each measured crossover, and the policy derived
 * again from all points: a kernel that wins only between two sweep sizes
 * (docs/calibrate.md, "Where calibrate's numbers come from") is found, and
 * no threshold is further than a fifth of an octave from a size where its
 * kernel was measured to win. */
static int refine(struct run *r)
{
	size_t at[CAL_MAX_POINTS], from[CAL_MAX_POINTS], npts = 0, ncells = 0, done = 0;
	size_t room = CAL_MAX_POINTS - r->cal.npoints;

	for (unsigned i = 0; i < r->cal.ncross; i++) {
		const struct cal_cross *x = &r->cal.cross[i];
		if (x->inherited)
			continue;
		double octaves = log2((double)x->at / (double)x->below);
		unsigned m = (unsigned)ceil(REFINE_PER_OCTAVE * octaves - 1e-9);
		for (unsigned j = 1; j < m && npts < room; j++) {
			size_t s = calibration_tidy((size_t)((double)x->below *
				pow(2, octaves * j / m)));
			if (s <= x->below || s >= x->at || has_point(&r->cal, s) ||
			    (npts && at[npts - 1] == s))
				continue;
			from[npts] = i;
			at[npts++] = s;
			ncells += 1 + (s <= MIXED_MAX);
		}
	}
	r->phase = "refine";
	for (size_t p = 0; p < npts; p++) {
		const struct cal_cross *x = &r->cal.cross[from[p]];
		const struct cal_point *a = calibration_point(&r->cal, x->below);
		const struct cal_point *b = calibration_point(&r->cal, x->at);
		size_t idx[CAL_MAX_KERNELS], n = at[p];
		double med[CAL_MAX_KERNELS];
		size_t nv = refine_kernels(r, a, b, idx);
		progress(r, p, npts);
		if (n <= MIXED_MAX &&
		    time_point(r, n, idx, nv, CAL_MIXED, share(r, ncells - done++), med))
			return -1;
		if (time_point(r, n, idx, nv, CAL_HOT, share(r, ncells - done++), med))
			return -1;
	}
	char before[256], after[256];
	ucopy_policy_format(&r->cal.policy, before, sizeof before);
	calibration_derive(&r->cal);
	ucopy_policy_format(&r->cal.policy, after, sizeof after);
	if (strcmp(before, after))
		say(r, "refined %zu sizes: %s -> %s", npts, before, after);
	return 0;
}

/*=====   5: verifying against auto   =====*/

/* The cell `ucopy bench --dist path --seed VERIFY_SEED` times (its
 * unlearnable regime): the same copies, laid out alike.  The files were
 * read once before anything was timed (data_dir_check()): one that fails
 * now changed since.
 * @return : 0, or -1 with the reason in err. */
static int seq_file(struct copy_seq *s, const char *path, char *err, size_t errlen)
{
	struct dist d;
	if (dist_read_file(path, &d, err, errlen))
		return -1;
	int rc = dist_regime_sample(&d, REGIME_UNLEARNABLE, 0, VERIFY_SEED, s);
	dist_free(&d);
	if (rc)
		snprintf(err, errlen, "out of memory");
	return rc ? -1 : 0;
}

/* Times the derived policy, auto and libc (v[0..2]) on c into chk, with
 * the paired interval of derived / auto. */
static int time_check(struct run *r, const struct variant *v, const struct cell *c,
		      double seconds, unsigned rounds, struct cal_check *chk)
{
	struct measure_opts o = { .seconds = seconds,
				  .min_rounds = c->seq->max_n >= LARGE ? 9 : MEASURE_MIN_ROUNDS };
	struct cell_result res;
	struct variant_summary s[3];

	if (rounds) {
		o.seconds = 0;
		o.min_rounds = o.max_rounds = rounds;
	}
	if (measure_cell(r->m, v, 3, c, &o, &res, r->err, sizeof r->err) < 0)
		return -1;
	measure_summarize(&res, 1, LEVEL, s);
	if (chk) {
		chk->ns = stats_median(res.v[0].ns, res.rounds);
		chk->ref[CAL_REF_AUTO] = stats_median(res.v[1].ns, res.rounds);
		chk->ref[CAL_REF_LIBC] = stats_median(res.v[2].ns, res.rounds);
		chk->lo = s[0].ratio.lo;
		chk->hi = s[0].ratio.hi;
	}
	cell_result_free(&res);
	return 0;
}

/* A check that would reject the derived policy (calibration_judge()) is
 * timed again for longer, and the second measurement counts: short cells of
 * two policies that pick the same kernel for nearly every copy came out
 * further apart than the margins (docs/calibrate.md, "Where calibrate's
 * numbers come from"). */
static int suspect(const struct cal_check *c)
{
	return c && (c->state == CAL_MIXED ? c->lo > 1 + CAL_SIGNIFICANT :
		     c->state == CAL_HOT && c->lo > 1 + CAL_MAX_LOSS);
}
#define CONFIRM_FACTOR 4
#define CONFIRM_SECONDS 0.05

/* All three run through ucopy_policy_copy(), libc as the one-rule policy
 * "libc": the ratios are then what the choice of kernels gains, not the
 * difference between that function and a direct call.  (The library's
 * ucopy_memcpy dispatch costs less than ucopy_policy_copy(); both scan the
 * rules past the first.) */
static int verify(struct run *r)
{
	/* Sizes drawn uniformly from each class, when there is no fleetbench
	 * file: small copies, as most of a program's are. */
	static const size_t classes[][2] = { { 1, 16 }, { 16, 128 }, { 128, 1024 }, { 1024, 8192 } };
	struct ucopy_policy libc;
	struct variant v[3];
	char **files = NULL;
	/* Every file was read before anything was timed (data_dir_check()). */
	size_t nfiles = r->have_dists ? data_list(r->dists.path, &files, DATA_MAX_DISTS) : 0;
	size_t nmix, total = 0, done = 0;
	int have_files = nfiles > 0;

	r->dists_verified = 0;   /* a second pass (calibration_merge) counts anew */
	variant_policy(&v[0], "calibrated", &r->cal.policy, 0);
	variant_policy(&v[1], "auto", &r->auto_policy, 0);
	if (ucopy_policy_parse(&libc, "libc", r->err, sizeof r->err)) {
		data_list_free(files, nfiles);
		return -1;
	}
	variant_policy(&v[2], "libc", &libc, 0);
	nmix = have_files ? nfiles : sizeof classes / sizeof classes[0];
	for (size_t i = 0; i < r->cal.npoints; i++)
		total += 1 + (r->cal.point[i].size <= COLD_MAX_SIZE);
	total += nmix + (size_t)r->have_replay;
	r->phase = "verify";
	int rc = 0;
	for (size_t i = 0; !rc && i < nmix + (size_t)r->have_replay; i++) {
		struct copy_seq seq = { 0 };
		struct cell c;
		char name[32];
		int got;
		progress(r, done, total);
		if (i == nmix) {
			snprintf(name, sizeof name, "replay:%.24s", path_base(r->replay_path));
			got = 0;
		} else if (have_files) {
			snprintf(name, sizeof name, "%s", path_base(files[i]));
			got = seq_file(&seq, files[i], r->err, sizeof r->err);
		} else {
			snprintf(name, sizeof name, "uniform-%zu-%zu", classes[i][0], classes[i][1]);
			got = seq_uniform(&seq, classes[i][0], classes[i][1], 1 + i) ? -1 : 0;
			if (got)
				snprintf(r->err, sizeof r->err, "out of memory");
		}
		if (got) {
			rc = -1;
			break;
		}
		/* The replay's offsets are its own: no base offsets added. */
		if (i == nmix)
			replay_cell(&c, &r->replay, CACHE_HOT);
		else
			cell_for(&c, &seq, CAL_HOT);
		struct cal_check *chk = calibration_check(&r->cal, name, CAL_MIXED, 0);
		double t = share(r, total - done);
		rc = time_check(r, v, &c, t, 0, chk);
		if (!rc && suspect(chk))
			rc = time_check(r, v, &c, fmax(CONFIRM_FACTOR * t, CONFIRM_SECONDS), 0, chk);
		copy_seq_free(&seq);
		done++;
		r->dists_verified += have_files && i < nmix && !rc;
		if (!rc && chk)
			say(r, "verify %s: calibrated %.2f ns, auto %.2f, libc %.2f", name,
			    chk->ns, chk->ref[CAL_REF_AUTO], chk->ref[CAL_REF_LIBC]);
	}
	data_list_free(files, nfiles);
	for (size_t i = 0; !rc && i < r->cal.npoints; i++) {
		size_t n = r->cal.point[i].size;
		for (int s = CAL_HOT; !rc && s <= CAL_COLD; s++) {
			struct copy_seq seq;
			struct cell c;
			char name[32];
			if (s == CAL_COLD && n > COLD_MAX_SIZE)
				continue;
			progress(r, done, total);
			if (seq_mixed(&seq, n)) {
				snprintf(r->err, sizeof r->err, "out of memory");
				return -1;
			}
			cell_for(&c, &seq, (enum cal_state)s);
			double t = share(r, total - done), t0 = clock_seconds();
			unsigned rounds = s == CAL_COLD ? cold_rounds(r, n, 3, t) : 0;
			snprintf(name, sizeof name, "%zu", n);
			struct cal_check *chk = calibration_check(&r->cal, name, (enum cal_state)s, n);
			rc = time_check(r, v, &c, t, rounds, chk);
			if (!rc && !rounds && suspect(chk))
				rc = time_check(r, v, &c, fmax(CONFIRM_FACTOR * t, CONFIRM_SECONDS),
						0, chk);
			copy_seq_free(&seq);
			if (rc)
				return -1;
			if (rounds)
				cold_learn(r, n, 3, rounds, clock_seconds() - t0);
			done++;
			if (chk)
				say(r, "verify %zu %s: calibrated %.2f ns, auto %.2f, libc %.2f", n,
				    s == CAL_HOT ? "hot" : "cold", chk->ns,
				    chk->ref[CAL_REF_AUTO], chk->ref[CAL_REF_LIBC]);
		}
	}
	if (rc)
		return -1;
	calibration_judge(&r->cal);
	return 0;
}

/*=====   Saving and printing   =====*/

/* mkdir -p of path's directory. */
static int make_parent(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		int rc = mkdir(path, 0755);
		*p = '/';
		if (rc && errno != EEXIST)
			return -1;
	}
	return 0;
}

static void report(const struct run *r, const char *path)
{
	const struct calibration *cal = &r->cal;
	char text[512], a[32], b[32];

	machine_cpu_line(text, sizeof text);
	printf("machine   %s\n", text);
	ucopy_policy_format(&cal->policy, text, sizeof text);
	printf("policy    %s\n", text);
	char row[768];
	ucopy_auto_explain(row, sizeof row);
	printf("auto      %s\n", row);
	if (!cal->accepted) {
		ucopy_policy_format(&cal->derived, text, sizeof text);
		printf("          auto's: calibration found nothing better (derived %s)\n", text);
	} else {
		ucopy_policy_format(&r->auto_policy, text, sizeof text);
		printf("          (auto is %s)\n", text);
	}
	printf("classes   sizes               kernel       evidence\n");
	for (unsigned i = 0; i < cal->policy.nrules; i++) {
		size_t from = i ? cal->policy.rule[i - 1].limit : 0;
		size_t to = cal->policy.rule[i].limit;
		char range[80];
		ucopy_size_format(from, a, sizeof a);
		ucopy_size_format(to, b, sizeof b);
		if (to == SIZE_MAX)
			snprintf(range, sizeof range, "%s and up", a);
		else
			snprintf(range, sizeof range, "%s .. %s", a, b);
		printf("          %-19s %-12s", range, cal->policy.rule[i].kernel->name);
		if (i < cal->ncross) {
			const struct cal_cross *x = &cal->cross[i];
			if (x->inherited && !cal->accepted) {
				printf(" as auto");
			} else if (x->inherited) {
				ucopy_size_format(x->below, a, sizeof a);
				printf(" as auto (not measured above %s)", a);
			} else {
				printf(" %s/%s:", x->to->name, x->from->name);
				for (unsigned e = 0; e < x->nev; e++) {
					ucopy_size_format(x->ev_size[e], a, sizeof a);
					printf(" %.2f@%s", x->ev_ratio[e], a);
				}
			}
		}
		printf("\n");
	}
	if (cal->ncliffs == 0) {
		const struct cal_effect *worst = NULL;
		for (size_t i = 0; i < cal->neffects; i++)
			if (!worst || cal->effect[i].distance > worst->distance)
				worst = &cal->effect[i];
		if (worst) {
			ucopy_size_format(worst->size, a, sizeof a);
			printf("cliffs    none (worst distance effect %.2fx: %s at %s)\n",
			       worst->distance, worst->kernel->name, a);
		}
	}
	for (size_t i = 0; i < cal->ncliffs; i++) {
		const struct cal_cliff *x = &cal->cliff[i];
		/* The derivation keeps a cliff's kernel away from its size, but
		 * the policy saved may be auto's, or take auto's rule where the
		 * derived one lost, and auto's rules need not. */
		const struct ucopy_kernel *used = ucopy_policy_kernel(&cal->policy, x->size);
		ucopy_size_format(x->size, a, sizeof a);
		printf("%s %s %.1fx slower at %s bytes, (dst - src) mod 4096 = %u: %s\n",
		       i ? "         " : "cliffs   ", x->kernel->name, x->ratio, a,
		       (x->dst - x->src) & 4095,
		       !strcmp(x->kernel->name, "libc") ? "the C library"
		       : used != x->kernel ? "not used there"
		       : cal->accepted ? "used there (auto's rule, where the derived one lost)"
				       : "used there (auto's policy, kept)");
	}
	static const char *const state[CAL_NSTATES] = { "hot  ", "cold ", "mixed" };
	for (int s = 0, first = 1; s < CAL_NSTATES; s++) {
		if (!cal->gain_sizes[s])
			continue;
		printf("%s %s: %.3fx over auto, %.3fx over libc (geometric mean of %u %s)\n",
		       first ? "gain     " : "         ", state[s],
		       cal->gain[CAL_REF_AUTO][s], cal->gain[CAL_REF_LIBC][s],
		       cal->gain_sizes[s], s == CAL_MIXED ? "workloads" : "sizes");
		first = 0;
	}
	if (r->dists_verified)
		printf("verified  on %zu distributions in %s (%s), seed %d, sizes in an "
		       "order no predictor learns\n", r->dists_verified, r->dists.path,
		       r->dists.from, VERIFY_SEED);
	else
		printf("verified  on sizes drawn from 4 classes (no distribution files)\n");
	for (size_t i = 0; r->have_replay && i < cal->nchecks; i++)
		if (!strncmp(cal->check[i].name, "replay:", 7))
			printf("replay    %s (%zu calls): %s %.2f ns a call, auto %.2f, libc %.2f\n",
			       r->replay_path, r->replay.seq.len,
			       cal->accepted ? "calibrated" : "derived (not kept)", cal->check[i].ns,
			       cal->check[i].ref[CAL_REF_AUTO], cal->check[i].ref[CAL_REF_LIBC]);
	for (unsigned i = 0; i < cal->nnotes; i++)
		printf("note      %s\n", cal->notes[i]);
	printf("profile   %s\n", path);
}

static int sweep_all(struct run *r)
{
	size_t sizes[CAL_MAX_POINTS], n;
	sweep_sizes(r, sizes, &n);
	return sweep(r, sizes, n);
}

/* Runs one phase with its part of the budget. */
static int phase(struct run *r, int (*fn)(struct run *), double part)
{
	double t0 = clock_seconds();
	r->deadline = t0 + part * r->seconds;
	int rc = fn(r);
	say(r, "%s took %.2f s of %.2f", r->phase, clock_seconds() - t0, part * r->seconds);
	return rc;
}

/*=====   The command   =====*/

/* The file UCOPY_PROFILE names, as the place to save to: the library's
 * file, never stdout ('-' is "./-"), and, the variable being set perhaps
 * for other reasons than this run, only a profile or nothing there.
 * @return : 0 with it in path, or the exit status after the message. */
static int env_profile_path(const char *env, char *path, size_t len)
{
	if (snprintf(path, len, "%s%s", strcmp(env, "-") ? "" : "./", env) >= (int)len)
		return cli_usage_error(CMD, "UCOPY_PROFILE is longer than %zu bytes", len - 1);
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	FILE *f = fopen(path, "r");
	char first[32] = "";
	if (!f)
		return cli_usage_error(CMD, "UCOPY_PROFILE names '%s', which cannot be read (%s): "
				       "calibrate saves there only over a profile (give -o FILE)",
				       path, strerror(errno));
	if (!fgets(first, sizeof first, f))
		first[0] = 0;
	fclose(f);
	first[strcspn(first, "\n")] = 0;
	if (strcmp(first, UCOPY_PROFILE_MAGIC))
		return cli_usage_error(CMD, "UCOPY_PROFILE names '%s', which is not a profile: "
				       "calibrate saves there only over one (give -o FILE)", path);
	return 0;
}

int cmd_calibrate(int argc, char **argv)
{
	static struct run r;
	double seconds = 0;
	size_t max_size = 0;
	const char *dist_dir = NULL;
	char path[4096], err[256], why[4200];

	memset(&r, 0, sizeof r);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val;
		int rc = 0;
		if ((val = cli_opt_value2(CMD, argc, argv, &i, "-o", "--output", 0, &rc))) {
			if (!val[0])
				return cli_usage_error(CMD, "empty file name for '%s'", a);
			r.out = val;
		} else if ((val = cli_opt_value(CMD, argc, argv, &i, "--seconds",
						CLI_VALUE_NUMBER, &rc))) {
			if (cli_parse_seconds(CMD, val, &seconds))
				return EXIT_USAGE;
		} else if ((val = cli_opt_value(CMD, argc, argv, &i, "--max-size", 0, &rc))) {
			if (ucopy_size_parse(val, &max_size, err, sizeof err))
				return cli_usage_error(CMD, "--max-size: %s", err);
			if (max_size < 64 || max_size > ((size_t)1 << 30))
				return cli_usage_error(CMD, "bad --max-size '%s' (expected 64 to 1G)", val);
		} else if ((val = cli_opt_value(CMD, argc, argv, &i, "--dist-dir", 0, &rc))) {
			dist_dir = val;
		} else if ((val = cli_opt_value(CMD, argc, argv, &i, "--replay", 0, &rc))) {
			r.replay_path = val;
		} else if (rc) {
			return rc;
		} else if (!strcmp(a, "--quick")) {
			r.quick = 1;
		} else if (!strcmp(a, "-v")) {
			r.verbose = 1;
		} else if (!strcmp(a, "-q")) {
			r.quiet = 1;
		} else if (a[0] == '-' && a[1]) {
			return cli_usage_error(CMD, "unknown option '%s'", a);
		} else {
			return cli_usage_error(CMD, "unexpected argument '%s'", a);
		}
	}
	if (r.verbose && r.quiet)
		return cli_usage_error(CMD, "-v and -q contradict each other");
	r.seconds = seconds > 0 ? seconds : r.quick ? QUICK_SECONDS : DEFAULT_SECONDS;
	r.max_size = max_size ? max_size : r.quick ? QUICK_MAX_SIZE : DEFAULT_MAX_SIZE;
	/* A --dist-dir or UCOPY_DATA_DIR that is no directory fails before
	 * anything is measured; none at all means verifying on uniform sizes. */
	r.have_dists = data_dir_find(dist_dir, "--dist-dir", &r.dists, why, sizeof why);
	if (r.have_dists < 0)
		return cli_usage_error(CMD, "%s", why);
	if (r.have_dists && data_dir_check(r.dists.path, why, sizeof why))
		return cli_usage_error(CMD, "%s", why);
	/* Without -o, where the library looks first: UCOPY_PROFILE when set
	 * (a profile saved to the default path would never be read), else
	 * the default path, whose directory is made here. */
	const char *env_profile = getenv("UCOPY_PROFILE");
	int default_path = 0;
	if (r.out) {
		snprintf(path, sizeof path, "%s", r.out);
	} else if (env_profile && env_profile[0]) {
		int rc = env_profile_path(env_profile, path, sizeof path);
		if (rc)
			return rc;
	} else if (ucopy_profile_default_path(path, sizeof path)) {
		return cli_usage_error(CMD, "no default profile path (XDG_CACHE_HOME and HOME are "
				       "unset, not absolute paths, or too long): give -o FILE");
	} else {
		default_path = 1;
	}
	if (r.replay_path) {
		if (replay_read_file(r.replay_path, &r.replay, why, sizeof why) < 0)
			return cli_usage_error(CMD, "%s", why);
		int rc = outfile_not_input(CMD, path, "--replay", r.replay_path);
		if (rc)
			return rc;
		r.have_replay = 1;
	}

	const struct ucopy_cpu *cpu = ucopy_cpu();
	for (size_t k = 0; k < ucopy_kernel_count() && k < CAL_MAX_KERNELS; k++) {
		const struct ucopy_kernel *kk = kernel(k);
		/* A calibrated policy serves ucopy_try() too: only kernels
		 * that recover from faults may be chosen; libc is timed as
		 * the reference. */
		r.candidate[k] = ucopy_kernel_supported(kk, cpu->features) &&
				 (kk->flags & UCOPY_KERNEL_FAULT_CAPABLE);
		r.nk = k + 1;
	}
	int any = 0;
	for (size_t k = 0; k < r.nk; k++)
		any += r.candidate[k];
	if (!any) {
		cli_error("no copy kernels to calibrate on %s", cpu->arch);
		return EXIT_FAIL;
	}
	/* As bench refuses a grid: a largest size whose buffers exceed half
	 * the memory, or whose one cell (every candidate and libc) cannot fit
	 * the whole budget, is refused before anything runs (docs/calibrate.md,
	 * "Where calibrate's numbers come from"). */
	if (cli_check_memory(CMD, 2 * r.max_size, cli_default_max_memory(), 0))
		return EXIT_USAGE;
	double need = measure_size_floor_seconds(r.max_size, (size_t)any + 1);
	if (need > r.seconds) {
		char sz[32];
		ucopy_size_format(r.max_size, sz, sizeof sz);
		return cli_usage_error(CMD, "--max-size %s needs a budget of at least %.3g s for its "
				       "largest cell alone, more than --seconds %g (a smaller "
				       "--max-size, or more seconds)", sz, need, r.seconds);
	}
	if (ucopy_policy_resolve(&r.auto_policy, "auto", cpu->features, err, sizeof err)) {
		cli_error("auto: %s", err);
		return EXIT_FAIL;
	}
	ucopy_policy_fit(&r.auto_policy, cpu->features, err, sizeof err);

	calibration_init(&r.cal);
	r.verbose = r.verbose && !r.quiet;
	r.progress = !r.quiet && (r.verbose || isatty(2));
	/* The profile is checked and prepared before anything is measured,
	 * so that a path that cannot be written fails at once, and it replaces
	 * the old one only when complete: a program starting meanwhile reads
	 * the old profile or the new one, never half of one. */
	if (default_path && make_parent(path)) {
		cli_error("cannot create the directory for '%s': %s", path, strerror(errno));
		return EXIT_FAIL;
	}
	struct outfile out;
	int orc = outfile_open(&out, CMD, path);
	if (orc)
		return orc;
	r.m = measure_new();
	if (!r.m) {
		outfile_abandon(&out);
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	r.started = clock_seconds();

	/* Above the largest size measured, auto's rules (its non-temporal
	 * one); and auto is what the derived policy must beat. */
	r.cal.inherit = &r.auto_policy;
	r.cal.l2 = ucopy_cpu()->l2;
	r.cal.keep_tail = 1;

	int rc = phase(&r, sweep_all, 0.35) || phase(&r, cold, 0.15) ||
		 phase(&r, probes, 0.15);
	if (!rc) {
		calibration_derive(&r.cal);
		rc = phase(&r, refine, 0.15) || phase(&r, verify, 0.12);
		/* Rejected whole: keep what won, take auto's where the derived
		 * rules lost, and verify that combination (docs/calibrate.md,
		 * "When the derived policy is saved"). */
		if (!rc && !r.cal.accepted && calibration_merge(&r.cal))
			rc = phase(&r, verify, 0.08);
	}
	progress_end(&r);
	measure_free(r.m);
	if (rc || r.cal.policy.nrules == 0) {
		outfile_abandon(&out);
		cli_error("measuring failed: %s", rc ? r.err : "no kernel could be timed");
		return EXIT_FAIL;
	}
	say(&r, "measured in %.1f s", clock_seconds() - r.started);
	calibration_write(&r.cal, out.f);   /* a failed write leaves ferror() set */
	if (outfile_commit(&out))
		return EXIT_FAIL;
	if (!r.quiet)
		report(&r, path);
	return ferror(stdout) ? EXIT_FAIL : EXIT_OK;
}
