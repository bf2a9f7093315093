/*
 * counters.h - hardware and software counters around the timed batches of
 * one variant, through perf_event_open(2).
 *
 * One group per variant (cycles, instructions, branches, branch-misses, read
 * together so their ratios are consistent) plus task-clock.  Each event that
 * the kernel refuses (virtual machines commonly answer "not supported" for
 * every hardware event; perf_event_paranoid may forbid them) is reported as
 * unavailable with the reason, and the rest carry on.  Only user-space work is
 * counted (exclude_kernel), which is what a copy in user space costs and what
 * perf_event_paranoid 2 still allows.
 */
#ifndef UCOPY_COUNTERS_H
#define UCOPY_COUNTERS_H

#include <stdint.h>
#include <sys/types.h>

enum counter {
	CTR_CYCLES,
	CTR_INSTRUCTIONS,
	CTR_BRANCHES,
	CTR_BRANCH_MISSES,
	CTR_TASK_CLOCK,   /* nanoseconds of CPU time */
	CTR_COUNT
};

struct counters {
	int fd[CTR_COUNT];        /* -1 when unavailable */
	int leader;               /* fd of the hardware group leader, or -1 */
	int err[CTR_COUNT];       /* errno of the refusal */
};

/* Opens the counters for the calling thread, disabled.  disable_all skips
 * perf_event_open entirely (everything reads unavailable, "disabled").
 * @return : the number of counters available (0 is not an error). */
int counters_open(struct counters *c, int disable_all);
/* Opens the counters for process `pid`, a child stopped before its exec:
 * they count from the exec on, the child and every process and thread it
 * starts, with no counters_start()/counters_stop(); read them once it has
 * been waited for.
 * @return : the number of counters available (0 is not an error). */
int counters_open_child(struct counters *c, pid_t pid);
void counters_close(struct counters *c);
/* Counting runs between start and stop; totals accumulate. */
void counters_start(struct counters *c);
void counters_stop(struct counters *c);
/* @return : 1 when counter i is available. */
int counters_available(const struct counters *c, enum counter i);
/* @return : the total of counter i since open, scaled up when the kernel
 *           multiplexed it; NaN when unavailable, unreadable, or enabled but
 *           never scheduled onto the hardware. */
double counters_total(const struct counters *c, enum counter i);
/* @return : why counter i has no total ("not supported", "not permitted
 *           (perf_event_paranoid)", "not scheduled", ...), or "" when
 *           counters_total() gives one. */
const char *counters_reason(const struct counters *c, enum counter i);
/* @return : "cycles", "instructions", "branches", "branch-misses",
 *           "task-clock". */
const char *counter_name(enum counter i);
/* @return : the name as a JSON or CSV key: "cycles", "instructions",
 *           "branches", "branch_misses", "task_clock". */
const char *counter_key(enum counter i);

#endif
