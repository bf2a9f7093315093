/*
 * bench.h - what the files of `ucopy bench` share: what was asked and what
 * was measured (struct bench), read from the command line (bench_args.c),
 * measured (bench_measure.c) and written (bench_write.c).
 */
#ifndef UCOPY_BENCH_H
#define UCOPY_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "counters.h"
#include "dist.h"
#include "measure.h"
#include "routine.h"
#include "sequence.h"
#include "sizespec.h"
#include "ucopy.h"

#define LEVEL 0.95

enum format { FMT_TABLE, FMT_CSV, FMT_JSON };

struct bench {
	/* What was asked. */
	struct variant *var;
	struct ucopy_policy *pol;   /* one per policy variant */
	char **pol_text;            /* its resolved text */
	struct routine *rt;         /* one per routine variant, loaded */
	size_t nvar, npol, nrt;
	struct sizes sizes;
	struct sizes src_align, dst_align, distance;
	int have_dst_align, have_distance, have_sizes;
	enum cache_state cache;
	const char *dist_path;
	struct dist dist;
	int have_dist;
	enum dist_regime regime[2];  /* of each drawn sequence */
	struct copy_seq drawn[2];
	size_t repeat_len;
	const char *replay_path;
	struct replay replay;
	int have_replay;
	size_t nseq;                 /* --dist or --replay: cells of one sequence each */
	double seconds;
	size_t max_memory;          /* --max-memory, or the default */
	int have_max_memory;
	uint64_t seed;
	size_t scrub_every;          /* --scrub: 0, or copies between scrubs */
	enum format format;
	const char *out_path;
	int quiet;
	/* What was measured: one row per variant per cell. */
	struct row *row;
	size_t nrows;
	const char *ctr_reason[CTR_SLOTS];
	struct counter_events events;   /* --event */
	/* Progress. */
	size_t cells, cell;
	double started, last_progress, cell_seconds;
	double elapsed;             /* the measurement's seconds, by its own clock */
	int progress;
};

struct row {
	size_t variant;
	size_t size;              /* SIZE_MAX: a sequence, the seq-th */
	size_t seq;
	uint32_t src_off, dst_off;
	struct variant_summary s;
	size_t rounds, batch;
	size_t slow_rounds;       /* measure_slow_rounds() of its cell */
	uint64_t copies;
	uint64_t steady_passes;   /* untimed passes to its steady state */
	uint64_t steady_capped;   /* batches a bound ended the passes of */
	uint64_t scrubs;          /* runs of the scrubber in its batches */
};

/* A run of copy sequences (--dist, --replay) rather than of fixed sizes:
 * one cell per sequence, its offsets its own. */
static inline int seq_run(const struct bench *b)
{
	return b->have_dist || b->have_replay;
}

static inline const struct copy_seq *seq_at(const struct bench *b, size_t i)
{
	return b->have_replay ? &b->replay.seq : &b->drawn[i];
}

/* The command line into b, checked and its inputs read, before anything is
 * timed.
 * @return : 0, or the exit status after the message. */
int bench_parse_args(struct bench *b, int argc, char **argv);
/* A grid that cannot keep --seconds or --max-memory refused.
 * @return : 0, or the exit status after the message. */
int bench_check_budget(const struct bench *b);
/* Every cell, into b->row.
 * @return : EXIT_OK, or EXIT_FAIL after the message. */
int bench_measure(struct bench *b);
void bench_write_table(const struct bench *b, FILE *f);
void bench_write_csv(const struct bench *b, FILE *f);
void bench_write_json(const struct bench *b, FILE *f);

#endif
