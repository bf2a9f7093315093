/*
 * timer.c - the lab's clock: the invariant TSC, aarch64's generic timer or
 * clock_gettime, calibrated once (timer.h).
 */
#include "timer.h"

#include <math.h>
#include <pthread.h>
#include <time.h>

#include "ucopy.h"

static int use_tsc;
static double ns_per_tick = 1.0;
static double tsc_ghz = NAN;
static pthread_once_t timer_once = PTHREAD_ONCE_INIT;
static int timer_ready;   /* set, with release, once calibrated */

double clock_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#if defined(__x86_64__)
/* rdtscp waits for every earlier instruction to finish; the lfence keeps
 * later ones from starting before the stamp is taken. */
static inline uint64_t rdtscp_fenced(void)
{
	uint32_t lo, hi, aux;
	__asm__ volatile("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* A TSC stamp and a CLOCK_MONOTONIC stamp taken as close together as the
 * best of a few tries allows. */
static void paired_stamp(uint64_t *tsc, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;
	for (int i = 0; i < 16; i++) {
		uint64_t a = rdtscp_fenced();
		uint64_t t = mono_ns();
		uint64_t b = rdtscp_fenced();
		if (b - a < best) {
			best = b - a;
			*tsc = a + (b - a) / 2;
			*ns = t;
		}
	}
}
#endif

#if defined(__aarch64__)
/* The generic timer's virtual count, which Linux lets EL0 read
 * (CNTKCTL_EL1.EL0VCTEN) at the fixed frequency CNTFRQ_EL0 says: a clock,
 * not a cycle counter (commonly 1-100 MHz, 1 GHz from Armv8.6).  The isb
 * keeps the read from being taken before earlier instructions. */
static inline uint64_t cntvct_read(void)
{
	uint64_t v;
	__asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v) : : "memory");
	return v;
}

static uint64_t cntfrq_read(void)
{
	uint64_t f;
	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(f));
	return f;
}
#endif

static void tsc_calibrate(void)
{
#if defined(__x86_64__)
	if (!(ucopy_cpu()->features & UCOPY_F(INVARIANT_TSC)))
		return;
	uint64_t t0, n0, t1, n1;
	paired_stamp(&t0, &n0);
	/* 20 ms makes the stamps' own error, a tenth of a microsecond, 5 parts
	 * per million of the span. */
	while (mono_ns() - n0 < 20000000)
		;
	paired_stamp(&t1, &n1);
	if (t1 <= t0 || n1 <= n0)
		return;
	ns_per_tick = (double)(n1 - n0) / (double)(t1 - t0);
	tsc_ghz = 1.0 / ns_per_tick;
	use_tsc = 1;
#elif defined(__aarch64__)
	/* Coarser than clock_gettime's nanoseconds only when the counter runs
	 * below 10 MHz; then clock_gettime, which reads the same counter. */
	uint64_t f = cntfrq_read();
	if (f < 10000000)
		return;
	ns_per_tick = 1e9 / (double)f;
	use_tsc = 1;
#endif
}

static void timer_calibrate(void)
{
	tsc_calibrate();
	__atomic_store_n(&timer_ready, 1, __ATOMIC_RELEASE);
}

void timer_init(void)
{
	pthread_once(&timer_once, timer_calibrate);
}

uint64_t timer_now(void)
{
	if (!__atomic_load_n(&timer_ready, __ATOMIC_ACQUIRE))
		timer_init();
#if defined(__x86_64__)
	if (use_tsc)
		return rdtscp_fenced();
#elif defined(__aarch64__)
	if (use_tsc)
		return cntvct_read();
#endif
	return mono_ns();
}

double timer_ns(uint64_t ticks)
{
	return (double)ticks * ns_per_tick;
}

const char *timer_name(void)
{
	timer_init();
#if defined(__aarch64__)
	return use_tsc ? "cntvct" : "clock_gettime";
#else
	return use_tsc ? "tsc" : "clock_gettime";
#endif
}

double timer_tsc_ghz(void)
{
	timer_init();
	return tsc_ghz;
}
