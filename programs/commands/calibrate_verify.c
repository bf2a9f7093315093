/*
 * calibrate_verify.c - phase 5 of `ucopy calibrate`: the derived policy
 * against auto and libc, on distributions and at the measured sizes, and
 * the judgement (calibrate.h).
 */
#include "calibrate.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/*=====   5: verifying against auto   =====*/

/* The cell `ucopy bench --dist path --seed VERIFY_SEED` times (its
 * unlearnable regime): the same copies, laid out alike.  The files were
 * read once before anything was timed (data_dir_check()): one that fails
 * now changed since.
 * @return : 0, or -1 with the reason in err. */
static int seq_file(struct copy_seq *s, const char *path, char *err, size_t errlen)
{
	struct dist d;
	if (dist_read_file(path, &d, err, errlen))
		return -1;
	int rc = dist_regime_sample(&d, REGIME_UNLEARNABLE, 0, VERIFY_SEED, s);
	dist_free(&d);
	if (rc)
		snprintf(err, errlen, "out of memory");
	return rc ? -1 : 0;
}

/* Times the derived policy, auto and libc (v[0..2]) on c into chk, with
 * the paired interval of derived / auto. */
static int time_check(struct run *r, const struct variant *v, const struct cell *c,
		      double seconds, unsigned rounds, struct cal_check *chk)
{
	struct measure_opts o = { .seconds = seconds,
				  .min_rounds = c->seq->max_n >= LARGE ? 9 : MEASURE_MIN_ROUNDS };
	struct cell_result res;
	struct variant_summary s[3];

	if (rounds) {
		o.seconds = 0;
		o.min_rounds = o.max_rounds = rounds;
	}
	if (measure_cell(r->m, v, 3, c, &o, &res, r->err, sizeof r->err) < 0)
		return -1;
	measure_summarize(&res, 1, LEVEL, s);
	if (chk) {
		chk->ns = stats_median(res.v[0].ns, res.rounds);
		chk->ref[CAL_REF_AUTO] = stats_median(res.v[1].ns, res.rounds);
		chk->ref[CAL_REF_LIBC] = stats_median(res.v[2].ns, res.rounds);
		chk->lo = s[0].ratio.lo;
		chk->hi = s[0].ratio.hi;
	}
	cell_result_free(&res);
	return 0;
}

/* A check that would reject the derived policy (calibration_judge()) is
 * timed again for longer, and the second measurement counts: short cells of
 * two policies that pick the same kernel for nearly every copy came out
 * further apart than the margins (docs/calibrate.md, "Where calibrate's
 * numbers come from"). */
static int suspect(const struct cal_check *c)
{
	return c && (c->state == CAL_MIXED ? c->lo > 1 + CAL_SIGNIFICANT :
		     c->state == CAL_HOT && c->lo > 1 + CAL_MAX_LOSS);
}
#define CONFIRM_FACTOR 4
#define CONFIRM_SECONDS 0.05

/* Sizes drawn uniformly from each class, when there is no fleetbench file:
 * small copies, as most of a program's are. */
static const size_t classes[][2] = { { 1, 16 }, { 16, 128 }, { 128, 1024 }, { 1024, 8192 } };
#define NCLASSES (sizeof classes / sizeof classes[0])

/* The mixed workloads: each of the nfiles distributions (else the classes),
 * then the replay.  *done counts the checks of `total` timed so far.
 * @return : 0, or -1 with the reason in r->err. */
static int verify_mixed(struct run *r, const struct variant *v, char **files, size_t nfiles,
			size_t *done, size_t total)
{
	int have_files = nfiles > 0;
	size_t nmix = have_files ? nfiles : NCLASSES;
	int rc = 0;
	for (size_t i = 0; !rc && i < nmix + (size_t)r->have_replay; i++) {
		struct copy_seq seq = { 0 };
		struct cell c;
		char name[32];
		int got;
		calibrate_progress(r, *done, total);
		if (i == nmix) {
			snprintf(name, sizeof name, "replay:%.24s", path_base(r->replay_path));
			got = 0;
		} else if (have_files) {
			snprintf(name, sizeof name, "%s", path_base(files[i]));
			got = seq_file(&seq, files[i], r->err, sizeof r->err);
		} else {
			snprintf(name, sizeof name, "uniform-%zu-%zu", classes[i][0], classes[i][1]);
			got = calibrate_seq_uniform(&seq, classes[i][0], classes[i][1], 1 + i) ? -1
											       : 0;
			if (got)
				snprintf(r->err, sizeof r->err, "out of memory");
		}
		if (got) {
			rc = -1;
			break;
		}
		/* The replay's offsets are its own: no base offsets added. */
		if (i == nmix)
			replay_cell(&c, &r->replay, CACHE_HOT);
		else
			calibrate_cell_for(&c, &seq, CAL_HOT);
		struct cal_check *chk = calibration_check(&r->cal, name, CAL_MIXED, 0);
		double t = calibrate_share(r, total - *done);
		rc = time_check(r, v, &c, t, 0, chk);
		if (!rc && suspect(chk))
			rc = time_check(r, v, &c, fmax(CONFIRM_FACTOR * t, CONFIRM_SECONDS), 0, chk);
		copy_seq_free(&seq);
		++*done;
		r->dists_verified += have_files && i < nmix && !rc;
		if (!rc && chk)
			calibrate_say(r, "verify %s: calibrated %.2f ns, auto %.2f, libc %.2f", name,
				      chk->ns, chk->ref[CAL_REF_AUTO], chk->ref[CAL_REF_LIBC]);
	}
	return rc;
}

/* Each measured size, hot and (up to COLD_MAX_SIZE) cold.
 * @return : 0, or -1 with the reason in r->err. */
static int verify_sizes(struct run *r, const struct variant *v, size_t *done, size_t total)
{
	int rc = 0;
	for (size_t i = 0; !rc && i < r->cal.npoints; i++) {
		size_t n = r->cal.point[i].size;
		for (int s = CAL_HOT; !rc && s <= CAL_COLD; s++) {
			struct copy_seq seq;
			struct cell c;
			char name[32];
			if (s == CAL_COLD && n > COLD_MAX_SIZE)
				continue;
			calibrate_progress(r, *done, total);
			if (calibrate_seq_mixed(&seq, n)) {
				snprintf(r->err, sizeof r->err, "out of memory");
				return -1;
			}
			calibrate_cell_for(&c, &seq, (enum cal_state)s);
			double t = calibrate_share(r, total - *done), t0 = clock_seconds();
			unsigned rounds = s == CAL_COLD ? calibrate_cold_rounds(r, n, 3, t) : 0;
			snprintf(name, sizeof name, "%zu", n);
			struct cal_check *chk = calibration_check(&r->cal, name, (enum cal_state)s, n);
			rc = time_check(r, v, &c, t, rounds, chk);
			if (!rc && !rounds && suspect(chk))
				rc = time_check(r, v, &c, fmax(CONFIRM_FACTOR * t, CONFIRM_SECONDS),
						0, chk);
			copy_seq_free(&seq);
			if (rc)
				return -1;
			if (rounds)
				calibrate_cold_learn(r, n, 3, rounds, clock_seconds() - t0);
			++*done;
			if (chk)
				calibrate_say(r, "verify %zu %s: calibrated %.2f ns, auto %.2f, "
					      "libc %.2f", n, s == CAL_HOT ? "hot" : "cold", chk->ns,
					      chk->ref[CAL_REF_AUTO], chk->ref[CAL_REF_LIBC]);
		}
	}
	return rc;
}

/* All three run through ucopy_policy_copy(), libc as the one-rule policy
 * "libc": the ratios are then what the choice of kernels gains, not the
 * difference between that function and a direct call.  (The library's
 * ucopy_memcpy dispatch costs less than ucopy_policy_copy(); both scan the
 * rules past the first.) */
int calibrate_verify(struct run *r)
{
	struct ucopy_policy libc;
	struct variant v[3];
	char **files = NULL;
	/* Every file was read before anything was timed (data_dir_check()). */
	size_t nfiles = r->have_dists ? data_list(r->dists.path, &files, DATA_MAX_DISTS) : 0;
	size_t total = 0, done = 0;

	r->dists_verified = 0;   /* a second pass (calibration_merge) counts anew */
	variant_policy(&v[0], "calibrated", &r->cal.policy, 0);
	variant_policy(&v[1], "auto", &r->auto_policy, 0);
	if (ucopy_policy_parse(&libc, "libc", r->err, sizeof r->err)) {
		data_list_free(files, nfiles);
		return -1;
	}
	variant_policy(&v[2], "libc", &libc, 0);
	for (size_t i = 0; i < r->cal.npoints; i++)
		total += 1 + (r->cal.point[i].size <= COLD_MAX_SIZE);
	total += (nfiles ? nfiles : NCLASSES) + (size_t)r->have_replay;
	r->phase = "verify";
	int rc = verify_mixed(r, v, files, nfiles, &done, total);
	data_list_free(files, nfiles);
	if (rc || verify_sizes(r, v, &done, total))
		return -1;
	calibration_judge(&r->cal);
	return 0;
}
