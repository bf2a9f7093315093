/*
 * calibrate_sweep.c - phases 1, 2 and 4 of `ucopy calibrate`: every kernel
 * in the running over the sizes, hot, mixed and cold, and again between
 * the sizes of each crossover (calibrate.h).
 */
#include "calibrate.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define PRUNE_RATIO 1.6
/* Refine points per octave between the sizes of a crossover. */
#define REFINE_PER_OCTAVE 4

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

/* Times kernels idx[0..nv) at n bytes hot (one size) or mixed
 * (calibrate_seq_class()) for `seconds` and records them at n's point,
 * medians in med. */
static int time_point(struct run *r, size_t n, const size_t *idx, size_t nv,
		      enum cal_state s, double seconds, double *med)
{
	struct variant v[CAL_MAX_KERNELS];
	double lo[CAL_MAX_KERNELS], hi[CAL_MAX_KERNELS];
	struct copy_seq seq;
	struct cell c;

	for (size_t j = 0; j < nv; j++)
		variant_kernel(&v[j], kernel(idx[j]));
	if (s == CAL_MIXED ? calibrate_seq_class(&seq, n) : calibrate_seq_mixed(&seq, n)) {
		snprintf(r->err, sizeof r->err, "out of memory");
		return -1;
	}
	calibrate_cell_for(&c, &seq, CAL_HOT);
	int rc = calibrate_time_cell(r, v, nv, &c, seconds, 0, med, lo, hi);
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
		calibrate_progress(r, i, nsizes);
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
		    time_point(r, n, idx, nv, CAL_MIXED, calibrate_share(r, cells - done++), med))
			return -1;
		if (time_point(r, n, idx, nv, CAL_HOT, calibrate_share(r, cells - done++), med))
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
				calibrate_say(r, "%s is %.1fx behind at %zu bytes: not timed above",
					      kernel(k)->name, med[j] / best, n);
			}
		}
	}
	return 0;
}

int calibrate_sweep(struct run *r)
{
	size_t sizes[CAL_MAX_POINTS], n;
	sweep_sizes(r, sizes, &n);
	return sweep(r, sizes, n);
}

int calibrate_cold(struct run *r)
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
		calibrate_progress(r, done, total);
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
		if (calibrate_seq_mixed(&seq, n)) {
			snprintf(r->err, sizeof r->err, "out of memory");
			return -1;
		}
		calibrate_cell_for(&c, &seq, CAL_COLD);
		unsigned rounds = calibrate_cold_rounds(r, n, nv,
							calibrate_share(r, total - done));
		double t0 = clock_seconds();
		int rc = calibrate_time_cell(r, v, nv, &c, 0, rounds, med, lo, hi);
		copy_seq_free(&seq);
		if (rc)
			return -1;
		calibrate_cold_learn(r, n, nv, rounds, clock_seconds() - t0);
		done++;
		for (size_t j = 0; j < nv; j++)
			calibration_set(&r->cal, pt, CAL_COLD, kernel(idx[j]), med[j], lo[j], hi[j]);
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
int calibrate_refine(struct run *r)
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
		calibrate_progress(r, p, npts);
		if (n <= MIXED_MAX &&
		    time_point(r, n, idx, nv, CAL_MIXED, calibrate_share(r, ncells - done++), med))
			return -1;
		if (time_point(r, n, idx, nv, CAL_HOT, calibrate_share(r, ncells - done++), med))
			return -1;
	}
	char before[256], after[256];
	ucopy_policy_format(&r->cal.policy, before, sizeof before);
	calibration_derive(&r->cal);
	ucopy_policy_format(&r->cal.policy, after, sizeof after);
	if (strcmp(before, after))
		calibrate_say(r, "refined %zu sizes: %s -> %s", npts, before, after);
	return 0;
}
