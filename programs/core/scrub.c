/*
 * scrub.c - the scrubber (scrub.h).
 */
#include "scrub.h"

#include <math.h>
#include <stddef.h>

#include "stats.h"

#define SCRUB_SEED 0x5c7b
#define SCRUB_MAX 4096

_Static_assert(SCRUB_TABLE % SCRUB_DECISIONS == 0, "a run never wraps inside the table");

static uint16_t size[SCRUB_TABLE];
static int drawn;
static size_t cursor;

/* An empty asm in an arm keeps the compiler from turning the arm into a
 * conditional move: the branches are the point. */
#define ARM() __asm__ volatile("" ::: "memory")

static __attribute__((noinline)) uint64_t decide(uint64_t n, uint64_t acc)
{
	if (n < 16) {
		if (n == 0) {
			ARM();
			return acc + 1;
		}
		if (n < 4) {
			ARM();
			acc += n;
		} else if (n < 8) {
			ARM();
			acc ^= n << 1;
		} else {
			ARM();
			acc += n * 3;
		}
	} else if (n < 64) {
		if (n < 32) {
			ARM();
			acc ^= n;
		} else {
			ARM();
			acc += n >> 1;
		}
	} else if (n < 256) {
		ARM();
		acc -= n;
	} else {
		/* A block loop: its trip count is the size's. */
		for (uint64_t i = n >> 8; i; i--) {
			ARM();
			acc = acc * 31 + i;
		}
	}
	/* A tail loop of 0..7 trips. */
	for (uint64_t i = n & 7; i; i--) {
		ARM();
		acc += i;
	}
	return acc;
}

void scrub_reset(void)
{
	if (!drawn) {
		struct rng g;
		rng_seed(&g, SCRUB_SEED);
		for (size_t i = 0; i < SCRUB_TABLE; i++)
			size[i] = (uint16_t)(exp(rng_unit(&g) * log(SCRUB_MAX + 1.0)) - 1);
		drawn = 1;
	}
	cursor = 0;
}

uint64_t scrub_run(void)
{
	if (!drawn)
		scrub_reset();
	uint64_t acc = 0;
	for (size_t i = 0; i < SCRUB_DECISIONS; i++)
		acc = decide(size[cursor + i], acc);
	cursor = (cursor + SCRUB_DECISIONS) % SCRUB_TABLE;
	return acc;
}
