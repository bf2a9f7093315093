/*
 * scrub.h - the scrubber: fixed, copy-like code that a cell can run between
 * stretches of its copies, so that the copies share the branch predictor
 * with other code as a program's do (the company condition: `ucopy bench
 * --scrub K`, docs/bench.md, "Company").
 *
 * Without it, a cell of a sequence a predictor learns times each variant at
 * its steady state (measure.h): what else ran in the process cannot move
 * the result, and neither can anything else.  The scrubber makes "the rest
 * of the program" a stated, reproducible condition instead of an accident
 * of which variants were timed together: the same decisions, in the same
 * order, in every run and every process.
 *
 * What it runs: SCRUB_DECISIONS sizes a run, each through a size-class
 * ladder and two loops whose trip counts come from the size, the branches a
 * copy routine's dispatch and tail take: the predictor sees copy-like
 * histories at other addresses.  The sizes come from a table of
 * SCRUB_TABLE, drawn once from a fixed seed (log-uniform over 0..4096),
 * that the runs walk in turn, so that the scrubber repeats itself only
 * every SCRUB_TABLE decisions, more than a predictor holds (dist.h: Zen 5
 * learns 8192 and not 16384).  Its own time is never counted.
 */
#ifndef UCOPY_SCRUB_H
#define UCOPY_SCRUB_H

#include <stdint.h>

#define SCRUB_DECISIONS 4096
#define SCRUB_TABLE 65536
/* The fewest copies between two runs of the scrubber: a stretch's timer
 * reads, some tens of ns, must stay a small part of its time: a few
 * percent of 256 copies of a few ns (docs/bench.md, "Company"). */
#define SCRUB_MIN_EVERY 256

/* Runs the scrubber once: the next SCRUB_DECISIONS sizes of the table.
 * Not thread-safe (the table is drawn on the first call, and the cursor
 * moves).
 * @return : a checksum of the decisions: the same for the same position
 *           in the table, so the k-th call of every process makes the same
 *           ones. */
uint64_t scrub_run(void);
/* Draws the table, if not yet drawn, and puts the cursor back at its start
 * (what a test needs to see the same run twice). */
void scrub_reset(void);

#endif
