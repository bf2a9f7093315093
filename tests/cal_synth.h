/*
 * cal_synth.h - synthetic measurements for the derivation's and the
 * profile's tests (test_derive.c, test_profile.c): kernel names every port
 * used here has, a filler from a time function, and a policy parser that
 * fails the test on bad text.
 */
#ifndef UCOPY_TEST_CAL_SYNTH_H
#define UCOPY_TEST_CAL_SYNTH_H

#include "calibration.h"
#include "check.h"
#include "ucopy.h"

#include <math.h>

/* The kernels the synthetic calibrations name: a string instruction
 * with a cliff and its guarded variant, and two vector kernels.  The
 * derivation knows no kernel; any four of the port's that need no
 * feature the emulated CPU lacks do. */
#ifdef UCOPY_PORT_x86_64
#define K_REP "movsb"
#define K_SAFE "movsb_safe"
#define K_VEC "avx2"
#define K_VEC2 "sse2"
#else
#define K_REP "ldp"
#define K_SAFE "ldtr"
#define K_VEC "neon"
#define K_VEC2 "byte"
#endif

/* A synthetic calibration: kernel times per size from a function, with a
 * tight interval (1% either side of the median), hot and with mixed sizes
 * alike (as `ucopy calibrate` measures both; the derivation wants mixed
 * sizes below CAL_SHORT). */
static inline void fill(struct calibration *cal, const char *const *names, size_t nk,
			double (*ns)(size_t k, size_t size), const size_t *sizes, size_t ns_)
{
	for (size_t i = 0; i < ns_; i++) {
		struct cal_point *pt = calibration_point(cal, sizes[i]);
		double best = INFINITY;
		for (size_t k = 0; k < nk; k++)
			best = fmin(best, ns(k, sizes[i]));
		for (size_t k = 0; k < nk; k++) {
			double t = ns(k, sizes[i]);
			for (int st = CAL_HOT; st <= CAL_MIXED; st += CAL_MIXED - CAL_HOT)
				calibration_set(cal, pt, (enum cal_state)st,
						ucopy_kernel_find(names[k]), t, t / best * 0.99,
						t / best * 1.01);
		}
	}
}

static inline int parse(struct ucopy_policy *p, const char *text)
{
	char err[256];
	int rc = ucopy_policy_parse(p, text, err, sizeof err);
	CHECK(rc == 0, "policy '%s': %s", text, err);
	return rc;
}

#endif
