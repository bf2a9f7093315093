/*
 * calibration.h - what `ucopy calibrate` measured, the policy it derives from
 * that, and the profile file it writes (read back by ucopy_profile_load()).
 *
 * Nothing here times anything: calibrate_*.c fill a struct calibration with
 * medians and intervals, and the derivation and the writer are plain
 * functions of it, so that tests can feed them synthetic measurements.
 *
 * The derivation (derive.c; docs/calibrate.md, "How the policy is derived")
 * starts from a default kernel per size, `inherit`'s (auto's, or the
 * default row's when deriving rows), and leaves it for another kernel only
 * where the measurements say so:
 *  - at a measured size, a kernel takes the default's place when it is
 *    CAL_WIN faster hot, the far end of the interval included, and loses
 *    nowhere (a loss: the interval's near end beyond 1); beyond the L2
 *    (`l2`) it may win cold instead, and a kernel that wins hot and loses
 *    cold there is not taken; below CAL_SHORT it must win with mixed
 *    sizes as well; where several kernels win, the picks change kernel as
 *    few times as they can (then the fastest);
 *  - only kernels that recover from faults (the policy serves ucopy_try()
 *    too) are candidates, and a kernel with a distance cliff near the size
 *    (a probe at the nearest probed size at or below it, or at or above
 *    it, found one) only where its worst cell, its time times the cliff,
 *    is no slower than the default's worst: rep movsb's cliff on Zen 3
 *    never pays and leaves the size to the guarded variant, which wins or
 *    not by its own times, guard included, and its own cells;
 *  - a band is a run of sizes that leave the default for one kernel; a run
 *    of default sizes between two bands of one kernel that loses at none of
 *    them joins them; a band narrower than CAL_NARROW (its last size over
 *    its first) is kept only with a gain of CAL_NARROW_WIN, and while the
 *    policy has more than CAL_RULES rules, the band with the least gain is
 *    given up unless it gains CAL_EXTRA_WIN (gain: the geometric mean over
 *    the band's sizes of the default's time over the kernel's, cold beyond
 *    the L2 where measured);
 *  - a threshold lies just above the last size of the class below it
 *    (calibration_tidy()), never past the first size of the class above;
 *    above the largest measured size the last pick goes on, or with
 *    keep_tail, `inherit`'s thresholds that lie there are taken;
 *  - it is a function of the measurements alone: the same measurements
 *    give the same policy, byte for byte.
 *
 * calibration_judge() then keeps the derived policy only when the verify
 * phase measured it ahead of `auto` by a significant margin, and never
 * behind it on a workload; otherwise the profile holds auto's policy.
 */
#ifndef UCOPY_CALIBRATION_H
#define UCOPY_CALIBRATION_H

#include <stdint.h>
#include <stdio.h>

#include "ucopy.h"

/* Losses under 2% hot cost nothing: about the spread of paired medians of
 * one copy size over 20 rounds on the project's shared 2-vCPU KVM machine
 * (Xeon 6/207, `ucopy calibrate -v`). */
#define CAL_SIGNIFICANT 0.02
/* Cold medians spread about twice as much (every copy waits on memory, and
 * the other tenants of the host share it). */
#define CAL_SIGNIFICANT_COLD 0.05
/* The derivation's rules (above; docs/calibrate.md, "How the policy
 * is derived"). */
#define CAL_WIN 0.03
#define CAL_NARROW 2.0
#define CAL_NARROW_WIN 0.10
#define CAL_RULES 4
#define CAL_EXTRA_WIN 0.05
/* Below this a kernel must also win with mixed sizes (calibrate measures
 * them; a report does not, and the default stays there), and no threshold
 * is set here without such a win: callers mix short sizes freely, and a
 * threshold among them made copies of short sizes drawn at random slower
 * on both machines it was tried on (docs/calibrate.md, "How the policy
 * is derived"). */
#define CAL_SHORT 256
/* A distance or alignment cell this much slower than its control is a cliff:
 * Zen 3's rep movsb cliff is far beyond it, ordinary misalignment below it
 * (docs/performance-zen3.md, "The aliasing cliff, measured"). */
#define CAL_CLIFF 1.5
/* What the derived policy must gain over `auto` in the verify phase (the
 * geometric mean of auto/calibrated over the hot sizes and the mixed-size
 * workloads) to be saved instead of auto's: the spread of one paired median
 * (CAL_SIGNIFICANT) is far more than the spread of a mean over 30 or more of
 * them, so a gain of that size is not noise. */
#define CAL_ACCEPT 0.02
/* One hot size this much slower than with `auto` (the whole interval
 * beyond it) rejects the derived policy whatever the mean: a kernel past
 * the cache it is fast in, as avx512 at 24 KiB on the project's Xeon, loses
 * more than any gain elsewhere excuses (docs/calibrate.md, "When the
 * derived policy is saved"). */
#define CAL_MAX_LOSS 0.10

#define CAL_MAX_POINTS 96
#define CAL_MAX_KERNELS 16       /* indexes of the kernel table */
#define CAL_MAX_CLIFFS 64
#define CAL_MAX_PROBES 256
#define CAL_MAX_EFFECTS 128
#define CAL_MAX_EVIDENCE 8
#define CAL_MAX_CHECKS 128

/* hot and cold: copies of one size; mixed: sizes drawn uniformly from a
 * class around it (calibrate_cells.c says which), so that a kernel whose branches
 * a single size trains pays for its mispredictions as real callers do. */
enum cal_state { CAL_HOT, CAL_COLD, CAL_MIXED, CAL_NSTATES };
enum cal_ref { CAL_REF_AUTO, CAL_REF_LIBC, CAL_NREFS };

/* One copy size, every kernel measured there. */
struct cal_point {
	size_t size;
	/* Median ns per copy; NaN: not measured. */
	double ns[CAL_NSTATES][CAL_MAX_KERNELS];
	/* Interval of ns / (the fastest kernel's ns) from paired rounds. */
	double lo[CAL_NSTATES][CAL_MAX_KERNELS], hi[CAL_NSTATES][CAL_MAX_KERNELS];
};

/* One cell of the distance and alignment probes. */
struct cal_probe {
	size_t size;
	uint32_t src, dst;                /* page offsets */
	double ns[CAL_MAX_KERNELS];       /* NaN: not measured */
};

/* A kernel's worst distance cell against its control, and worst alignment
 * cell against the aligned one, at one size. */
struct cal_effect {
	const struct ucopy_kernel *kernel;
	size_t size;
	double distance, align;
};

struct cal_cliff {
	const struct ucopy_kernel *kernel;
	size_t size;
	double ratio;
	uint32_t src, dst;
};

/* A threshold of the derived policy and what justifies it: the ratio
 * to/from (ns of the upper kernel over ns of the lower) at sizes around it. */
struct cal_cross {
	size_t limit;
	const struct ucopy_kernel *from, *to;
	size_t below, at;                 /* the points either side */
	int inherited;                    /* taken from `auto`, not measured */
	unsigned nev;
	size_t ev_size[CAL_MAX_EVIDENCE];
	double ev_ratio[CAL_MAX_EVIDENCE];
};

/* One workload of the verify phase: the derived policy, `auto` and libc,
 * interleaved. */
struct cal_check {
	char name[32];                    /* a size, or a distribution's name */
	enum cal_state state;
	size_t size;                      /* hot and cold: the copy size */
	double ns, ref[CAL_NREFS];        /* median ns: derived, auto, libc */
	double lo, hi;                    /* paired interval of ns / ref[AUTO] */
};

struct calibration {
	size_t npoints;
	struct cal_point point[CAL_MAX_POINTS];   /* ascending sizes */
	size_t nprobes;
	struct cal_probe probe[CAL_MAX_PROBES];
	size_t neffects;
	struct cal_effect effect[CAL_MAX_EFFECTS];
	size_t ncliffs;
	struct cal_cliff cliff[CAL_MAX_CLIFFS];
	/* Input to the derivation: `auto` for the running CPU.  Above the
	 * largest measured size the policy is its (its nt rule, beyond the
	 * sizes a run can afford to measure), those rules marked inherited;
	 * NULL: the last measured class goes on. */
	const struct ucopy_policy *inherit;
	/* Sizes above this are judged cold as well as hot; 0: hot only. */
	size_t l2;
	/* 1: above the largest measured size, inherit's thresholds that lie
	 * there are taken (auto's, a measured row's); 0: the last measured
	 * pick goes on (a default no measurement backs there). */
	int keep_tail;
	/* Output. */
	struct ucopy_policy policy;
	unsigned ncross;
	struct cal_cross cross[UCOPY_MAX_RULES];
	/* Input to calibration_judge(): the verify phase. */
	size_t nchecks;
	struct cal_check check[CAL_MAX_CHECKS];
	/* Output of calibration_judge(): 1 when the derived policy was kept,
	 * 0 when auto's replaced it (derived: what was derived, for the
	 * record); the gains are then auto's. */
	int accepted;
	struct ucopy_policy derived;
	/* Geometric mean over the checks of reference ns / saved policy's ns;
	 * NaN: not measured. */
	double gain[CAL_NREFS][CAL_NSTATES];
	unsigned gain_sizes[CAL_NSTATES];
	char notes[4][256];
	unsigned nnotes;
};

void calibration_init(struct calibration *cal);
void calibration_free(struct calibration *cal);
/* The kernels a calibration can hold: the table's first CAL_MAX_KERNELS. */
size_t calibration_kernels(void);
/* Index of k in the kernel table, or -1 when it does not fit CAL_MAX_KERNELS. */
int calibration_kernel_index(const struct ucopy_kernel *k);
/* A streaming-store kernel (nt, nt512): it loses until copies outgrow the
 * caches, so calibration keeps timing it where others would be pruned. */
int calibration_streams(const struct ucopy_kernel *k);
/* The point for `size`, inserted in order when new.
 * @return : NULL when CAL_MAX_POINTS are in use. */
struct cal_point *calibration_point(struct calibration *cal, size_t size);
void calibration_set(struct calibration *cal, struct cal_point *pt,
		     enum cal_state s, const struct ucopy_kernel *k, double ns,
		     double lo, double hi);
/* @return : the probe cell, inserted when new, or NULL when full. */
struct cal_probe *calibration_probe(struct calibration *cal, size_t size,
				    uint32_t src, uint32_t dst);
void calibration_add_effect(struct calibration *cal, const struct ucopy_kernel *k,
			    size_t size, double distance, double align);
/* One cliff per kernel and size, the worst kept.
 * @return : 0, or -1 when a new one finds CAL_MAX_CLIFFS in use. */
int calibration_add_cliff(struct calibration *cal, const struct ucopy_kernel *k,
			  size_t size, double ratio, uint32_t src, uint32_t dst);
void calibration_note(struct calibration *cal, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The ratio of k's worst confirmed cliff near `size` (at the nearest
 * probed size at or below it, or at or above it); 1: none. */
double calibration_worst(const struct calibration *cal, const struct ucopy_kernel *k,
			 size_t size);
/* 1 if k has no cliff near `size`. */
int calibration_clean(const struct calibration *cal,
		      const struct ucopy_kernel *k, size_t size);
/* n rounded to a size readable in a policy: to 1 byte below 128, 8 below
 * 1 KiB, 64 below 16 KiB, 1 KiB above. */
size_t calibration_tidy(size_t n);
/* Derives cal->policy and cal->cross from the points and cliffs. */
void calibration_derive(struct calibration *cal);
/* @return : the check slot to fill, or NULL when CAL_MAX_CHECKS are used. */
struct cal_check *calibration_check(struct calibration *cal, const char *name,
				    enum cal_state state, size_t size);
/* Keeps the derived policy when the checks show it ahead of `auto` (the
 * policy inherit points to) by CAL_ACCEPT over the hot sizes where the two
 * pick different kernels and the mixed workloads together, with one of
 * them significantly ahead; no mixed workload significantly behind, nor the
 * mixed workloads or the cold sizes where they differ CAL_SIGNIFICANT
 * behind in geometric mean, and no hot size more than CAL_MAX_LOSS behind;
 * else (auto's own policy included) puts auto's policy in its place with a
 * note saying why.  Sets the gains either way.  Without checks or without
 * inherit the derived policy stays. */
void calibration_judge(struct calibration *cal);

/* After a calibration_judge() that rejected the derived policy: keeps its
 * rules, band by band, where the verify phase measured it clearly ahead of
 * auto and never behind (hot and cold checks, per segment between the two
 * policies' limits), and takes auto's everywhere else, so that the gains
 * are not thrown away with a loss, nor a band kept that verify never saw
 * win.  The merged policy replaces cal->policy (with its
 * crossovers), the checks are cleared for a second verify phase, whose
 * calibration_judge() then keeps it or puts auto's back.
 * @return : 1 when there is such a policy to verify, 0 when not (it would be
 *           the derived or auto's own, or need too many rules). */
int calibration_merge(struct calibration *cal);

/* Writes the profile (docs/calibrate.md) for the running CPU.
 * @return : 0, or -1 when writing failed (errno set by stdio). */
int calibration_write(const struct calibration *cal, FILE *f);

#endif
