/*
 * measure.h - the lab's measuring core: a timer, copy variants, buffers in a
 * chosen cache state, and interleaved timing rounds.  `bench`, `compare`,
 * `calibrate` and `report` all time copies through this.
 *
 * The method, and the pitfall each part answers:
 *  - Variants are called through function pointers the compiler cannot see
 *    through, with sizes read from a sequence in memory: nothing is inlined
 *    or specialised for a constant size.
 *  - Variants are interleaved in rounds, one batch each per round: drift
 *    (frequency, a noisy neighbour) hits all of them alike, and each round
 *    gives one paired sample per variant.  The order is the list's in every
 *    round for a sequence of sizes a predictor may learn (shorter than
 *    DIST_SEQ_UNLEARNABLE: the others' batches wear off what it learnt, and
 *    so each variant gets the same number of them), and balanced orders
 *    (round_order_at() below) otherwise.
 *  - A batch is K consecutive copies timed as a whole (K is the same for all
 *    variants of a cell: about 64 rounds fit the budget, the slowest
 *    variant's batch stays under 1 ms, the fastest one's over 2 us), giving
 *    one ns-per-copy sample.  The same stretch of the copy sequence is used
 *    by every variant in a round.
 *  - The budget is the cell's whole time, warm-up included; rounds go on
 *    until it is spent, with a floor of MEASURE_MIN_ROUNDS rounds that may
 *    overrun it (measure_floor_seconds() says by how much at least).
 *  - Buffers are mapped page-aligned and written before anything is timed.
 *  - Cache state: `hot` copies between the same two buffers every time (they
 *    sit in the nearest cache that holds them: L1d when both fit); `warm`
 *    walks source and destination over regions of L2/4 each, so copies miss
 *    L1d and hit L2; `cold` walks regions of 2x the LLC each (4x in all) in a
 *    scattered order no prefetcher follows, and when the lines a pass
 *    touches do not add up to 4x the LLC (small copies), flushes the lines of
 *    each batch from every cache level before timing it.
 *  - Offsets: each side has a base offset within its page (0..4095) and each
 *    copy of a sequence may add its own (0..63 for a drawn sequence; a
 *    replayed one puts the distance in the destination's, up to 4095:
 *    sequence.h).  Slots are 64-byte multiples apart, and cell_init()'s
 *    sides walk equal regions in step, so (dst - src) mod 4096 and each
 *    side's offset mod 64 hold for every copy (the page offset beyond that
 *    holds only in `hot`).
 */
#ifndef UCOPY_MEASURE_H
#define UCOPY_MEASURE_H

#include <stddef.h>
#include <stdint.h>

#include "counters.h"
#include "dist.h"
#include "stats.h"
#include "timer.h"
#include "ucopy.h"

/*=====   Variants: what is timed   =====*/

enum variant_kind {
	VARIANT_KERNEL,      /* a ucopy_kernel_fn, called directly */
	VARIANT_MEMCPY,      /* a memcpy-shaped function (ucopy_memcpy, memcpy) */
	VARIANT_TRY,         /* a ucopy_try-shaped function */
	VARIANT_POLICY,      /* ucopy_policy_copy(policy, ...) */
	VARIANT_POLICY_TRY,  /* ucopy_policy_try(policy, ...) */
	VARIANT_CALL         /* call(ctx, dst, src, n): anything else */
};

struct routine;

struct variant {
	char name[160];      /* a routine's name fits (routine.h) */
	enum variant_kind kind;
	ucopy_kernel_fn kernel;
	void *(*memcpy_fn)(void *, const void *, size_t);
	size_t (*try_fn)(void *, const void *, size_t);
	const struct ucopy_policy *policy;   /* must outlive the measurement */
	void (*call)(void *ctx, void *dst, const void *src, size_t n);
	void *ctx;
	const struct routine *routine;  /* the user's routine this times, or
					   NULL; must outlive the variant */
};

/* A kernel, called directly.  The `libc` kernel is timed as
 * variant_memcpy(memcpy) instead (kernel is still set): its kernel-shaped
 * wrapper is a C function around memcpy, an extra call and frame that the
 * assembly kernels do not pay and a program calling memcpy does not
 * either. */
void variant_kernel(struct variant *v, const struct ucopy_kernel *k);
void variant_memcpy(struct variant *v, const char *name,
		    void *(*fn)(void *, const void *, size_t));
void variant_try(struct variant *v, const char *name,
		 size_t (*fn)(void *, const void *, size_t));
/* A routine loaded from a shared object (routine.h), named `name`: a
 * memcpy or memmove one as variant_memcpy(), a try one as variant_try(),
 * so that it runs through the same loop as the library's entries.  Only
 * valid memory is copied: no fault, no overlap. */
void variant_routine(struct variant *v, const char *name, const struct routine *r);
/* fault_tolerant: time ucopy_policy_try() instead of ucopy_policy_copy(). */
void variant_policy(struct variant *v, const char *name,
		    const struct ucopy_policy *p, int fault_tolerant);
void variant_call(struct variant *v, const char *name,
		  void (*call)(void *, void *, const void *, size_t), void *ctx);

/*=====   Cells: where and how much is copied   =====*/

enum cache_state { CACHE_HOT, CACHE_WARM, CACHE_COLD };
/* The last-level cache in bytes: L3, else L2, else 32 MiB when the CPU
 * reports neither (what `cold` regions and workloads are sized from). */
size_t cache_llc(void);
const char *cache_name(enum cache_state c);
/* @return : 0, or -1 when s is not "hot", "warm" or "cold". */
int cache_parse(const char *s, enum cache_state *c);

struct side {
	uint32_t offset;   /* base offset within the page, 0..4095 */
	size_t region;     /* bytes of slots to walk; 0: one slot (hot) */
	int flush;         /* flush this side's lines before each batch */
};

struct cell {
	const struct copy_seq *seq;   /* the copies; must outlive the measurement */
	struct side src, dst;
	int sequential;               /* walk slots in order (streaming) rather
					 than scattered */
};

/* n rounded up to a multiple of `to` (> 0). */
static inline size_t size_round_up(size_t n, size_t to)
{
	return (n + to - 1) / to * to;
}

/* The distance between a side's slots: room for the largest copy at the
 * largest per-copy offset, in whole cache lines so that offsets mod 64 hold
 * in every slot.  A region of whole slots is a multiple of it. */
size_t cell_slot_stride(const struct copy_seq *seq);

/* The bytes measure_cell() maps for cell c on each side (whole pages): the
 * base offset, the slots the side walks, and room for a copy's offset. */
void cell_map_bytes(const struct cell *c, size_t *src, size_t *dst);

/* Sets up c for a cache state as described at the top.
 * @return : 0, or -1 when an offset is >= 4096. */
int cell_init(struct cell *c, const struct copy_seq *seq, enum cache_state cache,
	      uint32_t src_offset, uint32_t dst_offset);

/* The cell of a sequence drawn from a distribution (each copy's offsets
 * 0..63 on each side): the source at page offset 0, the destination at
 * CELL_DRAWN_DST.  At the same page offset every copy would 4K-alias the
 * next one's (their windows share their low 12 bits), which real buffers
 * do about one copy in 32, and which costs ucopy's masked short class more
 * than glibc's moves (docs/performance.md, "What a repeated sequence's
 * ratio depends on").  bench --dist, compare's and the report's
 * distributions, calibrate and make bench's bar 2 all measure them this
 * way. */
#define CELL_DRAWN_DST 2048
void cell_init_drawn(struct cell *c, const struct copy_seq *seq, enum cache_state cache);

/*=====   Measuring   =====*/

/* The fewest rounds with a 95% interval for a ratio
 * (stats_paired_ratio_min_n(0.95)), and the default floor. */
#define MEASURE_MIN_ROUNDS 6
/* Samples are kept in arrays grown as rounds come; this bounds them (8 MiB
 * a variant), far beyond what any budget of 1 ms batches reaches in a
 * quarter of an hour. */
#define MEASURE_MAX_ROUNDS (1u << 20)

struct measure_opts {
	double seconds;        /* the budget for this cell, warm-up included */
	unsigned min_rounds;   /* 0: MEASURE_MIN_ROUNDS; rounds run past the
				  budget to reach it */
	unsigned max_rounds;   /* 0: as many as the budget allows, up to
				  MEASURE_MAX_ROUNDS */
	int counters;          /* open perf counters for each variant */
	const struct counter_events *events;  /* extra events to count; NULL:
						 none */
	/* The company condition (scrub.h): when > 0 (at least
	 * SCRUB_MIN_EVERY), each batch is timed in stretches of this many
	 * copies with the scrubber run, untimed, after each, and no variant
	 * plays steady-state passes; counters are not opened (they would
	 * count the scrubber). */
	size_t scrub_every;
	/* Called after each round with the fraction of the budget used. */
	void (*progress)(void *ctx, double done);
	void *progress_ctx;
};

struct variant_result {
	double *ns;            /* ns per copy, one sample per round */
	uint64_t copies;       /* timed copies */
	double bytes;          /* bytes they copied */
	double ns_total;       /* timed nanoseconds */
	double ctr[CTR_SLOTS]; /* counter totals over the timed batches, the
				  extra events after the built-in ones; NaN
				  when unavailable */
	const char *ctr_reason[CTR_SLOTS];  /* "" or why unavailable */
	uint64_t steady_passes; /* untimed passes played, over all its
				   batches, to reach the steady state before
				   each (0 where the cell's sequence is not one
				   a predictor learns) */
	uint64_t steady_capped; /* batches whose passes a bound ended before
				   the steady state was seen */
	uint64_t scrubs;        /* runs of the scrubber within its batches */
};

struct cell_result {
	size_t nvariants;
	size_t rounds;
	size_t batch;          /* copies per batch */
	struct variant_result *v;
};

struct measure;

/* @return : a measurer (buffers are kept between cells), or NULL when out of
 *           memory. */
struct measure *measure_new(void);
void measure_free(struct measure *m);

/* The balanced orders of a round's variants: round_order_at(row, x, nv) is
 * the variant at position x of order row, for rows 0, 1, ... (taken modulo
 * round_order_rows(nv)).  The rows are a Williams design: row 0 is 0, 1,
 * nv-1, 2, nv-2, ..., row r adds r to every entry (modulo nv), and for an
 * odd nv, nv more rows subtract 0, 1, ... nv-1 from row 0 reversed.  Over
 * round_order_rows(nv) rows each variant takes every position equally
 * often and, within a round, comes right after every other variant equally
 * often, so that what one variant leaves behind (the branch predictor's
 * state, the core's) falls on all the others alike; across rounds the
 * balance is partial.  Rotation alone (A B C, B C A, C A B) put B right
 * after A, never before it (docs/bench.md, "The orders").  nv >= 1,
 * x < nv. */
size_t round_order_rows(size_t nv);
size_t round_order_at(size_t row, size_t x, size_t nv);

/* Times nv variants on cell c for o->seconds, warm-up included.  The first
 * call with a large `cold` region maps and writes it (up to a second; not
 * counted in o->seconds).
 * @return : 0, or -1 with the reason in err (out of memory, a buffer that
 *           could not be mapped); out is then empty. */
int measure_cell(struct measure *m, const struct variant *v, size_t nv,
		 const struct cell *c, const struct measure_opts *o,
		 struct cell_result *out, char *err, size_t errlen);
void cell_result_free(struct cell_result *r);

/* The least time measure_cell() takes for a cell of nv variants with
 * min_rounds (0: MEASURE_MIN_ROUNDS), however small its budget: each
 * variant's warm-up, min_rounds batches of the shortest length worth timing,
 * and the fixed cost of a cell (counters, set-up), as measured on copies of
 * a few bytes.  Larger copies take longer; a grid whose cells need more than
 * its budget overruns it. */
double measure_floor_seconds(size_t nv, unsigned min_rounds);
/* measure_floor_seconds() for cell c, with what its copies cost: each
 * variant copies the sequence's smallest size at least twice in the warm-up
 * and once a round, at a speed no CPU reaches (400 bytes/ns when the cell's
 * buffers fit in the LLC, 100 from memory).  A gigabyte copy makes a cell
 * of ~90 ms a variant. */
double measure_cell_floor_seconds(const struct cell *c, size_t nv, unsigned min_rounds);
/* The least time mapping and writing `bytes` of new buffers takes (each byte
 * is written at least once), at the same speeds. */
double measure_map_floor_seconds(size_t bytes);
/* The floor of one hot cell of nv variants copying n bytes, with the
 * writing of its two n-byte buffers (calibrate's largest size). */
double measure_size_floor_seconds(size_t n, size_t nv);

/* What a table row says about one variant of a cell. */
struct variant_summary {
	struct stats_summary ns;      /* ns per copy over the rounds */
	double bytes_per_copy;
	double gbps;                  /* bytes_per_copy / median ns */
	struct stats_interval ratio;  /* to the baseline: median of the per-round
					 ratios, with its interval */
	double per_copy[CTR_SLOTS];   /* counter per copy (task-clock: ns); NaN
					 when unavailable */
};

/* Summarises every variant of r against variant `baseline`: out has
 * r->nvariants entries.  The ratio is stats_paired_ratio() at `level`
 * (e.g. 0.95): lo and hi are NaN with fewer rounds than
 * stats_paired_ratio_min_n(level).  The baseline's own ratio is exactly 1. */
void measure_summarize(const struct cell_result *r, size_t baseline,
		       double level, struct variant_summary *out);

/* A round in which every variant took at least SLOW_ROUND_FACTOR times its
 * own fastest tenth (its 10th percentile over the cell's rounds) ran on a
 * core that was slower as a whole: a host that shares the core slows it in
 * spells of seconds, and a ratio can differ between the two states
 * (docs/bench.md, "The host, second by second").  Interleaving shares such
 * a spell fairly between the variants but not the ratio's state, so the
 * commands count the slow rounds of a cell.  The yardstick is the cell's
 * own fastest tenth: a cell slowed from start to end reads 0 (compare GB/s
 * between runs, or bench_bars' host probe, for that). */
#define SLOW_ROUND_FACTOR 1.25
/* @return : how many of r's rounds were slow rounds; 0 with fewer than 10
 *           rounds (no fastest tenth to speak of), with one variant (its
 *           own noise cannot be told from the core's) and when out of
 *           memory. */
size_t measure_slow_rounds(const struct cell_result *r);
/* When `slow` of `rounds` is a quarter or more, a sentence that says so
 * and what it means, for the commands to print; else "".  A few percent
 * are common on a shared host and move a median little; a quarter moves
 * it. */
void measure_slow_note(char *buf, size_t len, size_t slow, size_t rounds);

#endif
