/*
 * timer.h - the lab's clock: ticks for timing batches, nanoseconds for
 * reporting them, and CLOCK_MONOTONIC seconds for budgets.
 */
#ifndef UCOPY_TIMER_H
#define UCOPY_TIMER_H

#include <stdint.h>

/* Calibrates once (about 20 ms): the invariant TSC read with rdtscp, scaled
 * against CLOCK_MONOTONIC, when the CPU says the TSC is invariant; on
 * aarch64 the generic timer (cntvct_el0 at cntfrq_el0) when it runs at
 * 10 MHz or more; clock_gettime(CLOCK_MONOTONIC) otherwise.  Thread-safe, idempotent. */
void timer_init(void);
/* Ticks; only differences are meaningful.  Calls timer_init() if needed (a
 * flag test once it has run). */
uint64_t timer_now(void);
double timer_ns(uint64_t ticks);
/* "tsc", "cntvct" or "clock_gettime". */
const char *timer_name(void);
/* TSC frequency in GHz, or NaN when the clock is clock_gettime. */
double timer_tsc_ghz(void);
/* CLOCK_MONOTONIC in seconds, for budgets and deadlines. */
double clock_seconds(void);

#endif
