/*
 * calibrate.h - what the files of `ucopy calibrate` share: the run, its
 * limits, the cells it times (calibrate_cells.c) and its phases
 * (calibrate_sweep.c, calibrate_probes.c, calibrate_verify.c), which
 * calibrate.c runs in turn and calibrate_report.c prints.
 */
#ifndef UCOPY_CALIBRATE_H
#define UCOPY_CALIBRATE_H

#include <stddef.h>
#include <stdint.h>

#include "calibration.h"
#include "datadir.h"
#include "measure.h"
#include "sequence.h"
#include "ucopy.h"

/* Cold copies flush every line beforehand, which costs more than the copy
 * (docs/calibrate.md, "Where calibrate's numbers come from"): above this the
 * phase would eat the budget, and copies that size stream from memory hot or
 * cold. */
#define COLD_MAX_SIZE ((size_t)1 << 20)
/* From here on a sweep point times only the kernels within FINALIST_RATIO
 * of the best at the point before (and nt and libc), for more rounds. */
#define LARGE ((size_t)1 << 20)
#define FINALIST_RATIO 1.25
#define LEVEL 0.95
/* Mixed-size cells up to here: above, a copy takes so much longer than a
 * mispredicted branch that the branch no longer decides between kernels. */
#define MIXED_MAX ((size_t)8 << 10)
/* The seed of the distributions' sequences in the verify phase, the
 * default of make bench's bar 2: `ucopy bench --dist FILE --seed 1` times
 * the same cell. */
#define VERIFY_SEED 1

struct run {
	/* Options. */
	double seconds;
	size_t max_size;
	int quick, verbose, quiet;
	const char *out;
	struct data_dir dists;            /* verify's distributions */
	int have_dists;
	size_t dists_verified;            /* files calibrate_verify() timed */
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

static inline const struct ucopy_kernel *kernel(size_t i)
{
	return ucopy_kernel_at(i);
}

static inline int libc_index(void)
{
	return calibration_kernel_index(ucopy_kernel_find("libc"));
}

/* calibrate_cells.c */
double calibrate_share(const struct run *r, size_t left);
void calibrate_progress(struct run *r, size_t done, size_t total);
void calibrate_progress_end(struct run *r);
void calibrate_say(struct run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int calibrate_time_cell(struct run *r, const struct variant *v, size_t nv,
			const struct cell *c, double seconds, unsigned rounds,
			double *med, double *lo, double *hi);
int calibrate_seq_mixed(struct copy_seq *s, size_t n);
int calibrate_seq_uniform(struct copy_seq *s, size_t lo, size_t hi, uint64_t seed);
int calibrate_seq_class(struct copy_seq *s, size_t n);
void calibrate_cell_for(struct cell *c, const struct copy_seq *seq, enum cal_state s);
unsigned calibrate_cold_rounds(const struct run *r, size_t n, size_t nv, double seconds);
void calibrate_cold_learn(struct run *r, size_t n, size_t nv, unsigned rounds,
			  double elapsed);

/* The phases, each within r->deadline.
 * @return : 0, or -1 with the reason in r->err. */
int calibrate_sweep(struct run *r);
int calibrate_cold(struct run *r);
int calibrate_probes(struct run *r);
int calibrate_refine(struct run *r);
int calibrate_verify(struct run *r);

/* What was measured and saved at path, on stdout. */
void calibrate_report(const struct run *r, const char *path);

#endif
