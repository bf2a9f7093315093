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
 * What it runs: SCRUB_DECISIONS sizes, drawn once from a fixed seed (log-
 * uniform over 0..4096, so that no predictor learns them), each through a
 * size-class ladder and two loops whose trip counts come from the size, the
 * branches a copy routine's dispatch and tail take: the predictor sees
 * copy-like histories at other addresses.  Its own time is never counted.
 */
#ifndef UCOPY_SCRUB_H
#define UCOPY_SCRUB_H

#include <stdint.h>

#define SCRUB_DECISIONS 4096
/* The fewest copies between two runs of the scrubber: a stretch's timer
 * reads cost about 20-40 ns, which must stay a small part of its time. */
#define SCRUB_MIN_EVERY 64

/* Runs the scrubber once.  Not thread-safe on its first call (it draws the
 * sizes then).
 * @return : a checksum of the decisions, the same on every call. */
uint64_t scrub_run(void);

#endif
