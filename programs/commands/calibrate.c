/*
 * calibrate.c - `ucopy calibrate`: measure the kernels on this machine,
 * derive the `calibrated` policy and save it as a profile.
 *
 * The run, each phase with its share of the time budget:
 *  1. sweep (35%): every kernel that could win, and libc for reference, at
 *     sizes from 1 byte to --max-size, hot, copies at mixed offsets (equal and
 *     different alignments, never a small positive distance: that is phase 3's
 *     question); up to MIXED_MAX also on sizes drawn uniformly from n/2 to 2n
 *     (mixed), since real callers mix sizes and a single size trains the
 *     branch predictor.  A kernel that is 1.6x behind at two sizes in a row
 *     is not timed at larger ones.
 *  2. cold (15%): the kernels within 25% of the best at each size up to
 *     1 MiB, with every line of source and destination flushed before each
 *     batch, so copies read and write memory.
 *  3. probes (15%): at 64, 256, 2K, 4352, 32K and 256K bytes (those the
 *     issue's no-cliff bar uses), each kernel still in the running copies at
 *     (dst - src) mod 4096 of 0, 1, 8, 31, 63, 200 and -1, -63, each against a
 *     control cell with the same alignments and a distance of about 2 KiB, and
 *     at misaligned offsets against the aligned cell.  All cells of a size are
 *     interleaved in one measurement, so a cell and its control see the same
 *     machine.  A cell 1.5x slower than its control is re-measured alone with
 *     it, and only a cliff seen twice counts.  This is how the Zen 3 rep movsb
 *     4K-aliasing cliff is found: by distance, not by CPU model.
 *  4. refine (15%): between the two sweep sizes of each crossover the
 *     derivation (calibration.h) finds, every kernel in reach is timed at
 *     four sizes an octave, hot and mixed, and the policy is derived again:
 *     a threshold then lies between two sizes a fifth apart at most.
 *  5. verify (12%): the derived policy against `auto` and libc at the
 *     measured sizes, hot and cold, and on mixed sizes (the fleetbench
 *     distributions that ship with ucopy, datadir.h, else sizes drawn
 *     uniformly from four classes); calibration_judge() keeps it only
 *     when it is ahead of `auto` by a significant margin.  Rejected, it is
 *     not thrown away whole: calibration_merge() keeps its rules where they
 *     never lost and takes auto's where they did, and that combination is
 *     verified again (8%) and judged the same way; else the profile holds
 *     auto's policy.
 * The phases and their thresholds as a user reads them: docs/calibrate.md,
 * "What it measures".
 */
#include "calibrate.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "outfile.h"
#include "profile_keys.h"

#define CMD "calibrate"

/* Budgets of the measuring itself: setup (mapping buffers, the timer's
 * 20 ms calibration) and the rounds past a cell's budget needed to reach its
 * minimum come on top (docs/calibrate.md, "Where calibrate's numbers come
 * from"). */
#define DEFAULT_SECONDS 20.0
#define QUICK_SECONDS 2.5
#define DEFAULT_MAX_SIZE ((size_t)64 << 20)
/* Below auto's non-temporal threshold: a hot point there put nt and rep
 * movsb in either order from run to run (each timed with the other's cache
 * footprint), and above the largest measured size the policy is auto's
 * anyway (docs/calibrate.md, "Where calibrate's numbers come from"). */
#define QUICK_MAX_SIZE ((size_t)4 << 20)

void help_calibrate(FILE *f)
{
	fputs("usage: ucopy calibrate [OPTIONS]\n\n"
	      "Measures every copy kernel this CPU runs at sizes from 1 byte up, hot and\n"
	      "cold, and at source/destination distances and alignments; finds where the\n"
	      "fastest kernel changes and which kernels fall off a distance cliff (such as\n"
	      "rep movsb when (dst - src) mod 4096 is 1..63 on AMD Zen 3); derives a\n"
	      "policy (the fastest kernel per size class with no cliff) and verifies it\n"
	      "against `auto` on mixed sizes.  The `calibrated` policy it saves is the\n"
	      "derived one where it wins, auto's rules where it loses, or auto's whole\n"
	      "when nothing wins; with the CPU's identity and the measurements, as a\n"
	      "profile that libucopy loads at first use.  Prints the thresholds and the\n"
	      "expected gain over `auto` and over libc.\n\n"
	      "  -o, --output FILE\n"
	      "                   save the profile to FILE (default: where the library\n"
	      "                   looks: $UCOPY_PROFILE when set, else $XDG_CACHE_HOME/\n"
	      "                   ucopy/profile, or ~/.cache/ucopy/profile); -o=- writes\n"
	      "                   it to stdout, with -q alone\n"
	      "  --quick          a coarser run of about 3 s (sizes up to 4M)\n"
	      "  --seconds S      the measuring budget in seconds (default 20, --quick 2.5;\n"
	      "                   at most 86400)\n"
	      "  --max-size SIZE  largest copy measured (default 64M, --quick 4M; 64..1G)\n"
	      "  --dist-dir DIR   the size distributions (*.csv) the policy is verified\n"
	      "                   on (default: $UCOPY_DATA_DIR, else the fleetbench files\n"
	      "                   that ship with ucopy; without any, sizes drawn from\n"
	      "                   four classes); every *.csv must read as one, at\n"
	      "                   most " DATA_MAX_DISTS_TEXT "\n"
	      "  --replay FILE    a sequence `ucopy trace` recorded ('# ucopy sequence 1'):\n"
	      "                   replayed in the verify phase as one more workload, in\n"
	      "                   order with its alignments and distances, so the policy\n"
	      "                   is kept only if it is not behind auto on it either;\n"
	      "                   its times are printed on the 'replay' line\n"
	      "  -v               progress on stderr even when it is not a terminal, and\n"
	      "                   each phase's findings\n"
	      "  -q               print nothing but errors\n\n"
	      "The library uses the profile when UCOPY_PROFILE names it or it is at the\n"
	      "default path; UCOPY_POLICY wins over it.  `ucopy features` shows which\n"
	      "policy is active and why.  docs/calibrate.md describes the method and the\n"
	      "profile format.\n", f);
}

/*=====   Saving   =====*/

/* mkdir -p of path's directory. */
static int make_parent(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		int rc = mkdir(path, 0755);
		*p = '/';
		if (rc && errno != EEXIST)
			return -1;
	}
	return 0;
}

/* Runs one phase with its part of the budget. */
static int phase(struct run *r, int (*fn)(struct run *), double part)
{
	double t0 = clock_seconds();
	r->deadline = t0 + part * r->seconds;
	int rc = fn(r);
	calibrate_say(r, "%s took %.2f s of %.2f", r->phase, clock_seconds() - t0,
		      part * r->seconds);
	return rc;
}

/*=====   The command   =====*/

/* The file UCOPY_PROFILE names, as the place to save to: the library's
 * file, never stdout ('-' is "./-"), and, the variable being set perhaps
 * for other reasons than this run, only a profile or nothing there.
 * @return : 0 with it in path, or the exit status after the message. */
static int env_profile_path(const char *env, char *path, size_t len)
{
	if (snprintf(path, len, "%s%s", strcmp(env, "-") ? "" : "./", env) >= (int)len)
		return cli_usage_error(CMD, "UCOPY_PROFILE is longer than %zu bytes", len - 1);
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	FILE *f = fopen(path, "r");
	char first[32] = "";
	if (!f)
		return cli_usage_error(CMD, "UCOPY_PROFILE names '%s', which cannot be read (%s): "
				       "calibrate saves there only over a profile (give -o FILE)",
				       path, strerror(errno));
	if (!fgets(first, sizeof first, f))
		first[0] = 0;
	fclose(f);
	first[strcspn(first, "\n")] = 0;
	if (strcmp(first, UCOPY_PROFILE_MAGIC))
		return cli_usage_error(CMD, "UCOPY_PROFILE names '%s', which is not a profile: "
				       "calibrate saves there only over one (give -o FILE)", path);
	return 0;
}

/* The options into r, and the distributions' directory checked.
 * @return : 0, or the exit status after the message. */
static int parse_args(struct run *r, int argc, char **argv)
{
	double seconds = 0;
	size_t max_size = 0;
	const char *dist_dir = NULL;
	char err[256], why[4200];

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val;
		int rc = 0;
		if ((val = cli_opt_value2(CMD, argc, argv, &i, "-o", "--output", 0, &rc))) {
			if (!val[0])
				return cli_usage_error(CMD, "empty file name for '%s'", a);
			r->out = val;
		} else if ((val = cli_opt_value(CMD, argc, argv, &i, "--seconds",
						CLI_VALUE_NUMBER, &rc))) {
			if (cli_parse_seconds(CMD, val, &seconds))
				return EXIT_USAGE;
		} else if ((val = cli_opt_value(CMD, argc, argv, &i, "--max-size", 0, &rc))) {
			if (ucopy_size_parse(val, &max_size, err, sizeof err))
				return cli_usage_error(CMD, "--max-size: %s", err);
			if (max_size < 64 || max_size > ((size_t)1 << 30))
				return cli_usage_error(CMD, "bad --max-size '%s' (expected 64 to 1G)", val);
		} else if ((val = cli_opt_value(CMD, argc, argv, &i, "--dist-dir", 0, &rc))) {
			dist_dir = val;
		} else if ((val = cli_opt_value(CMD, argc, argv, &i, "--replay", 0, &rc))) {
			r->replay_path = val;
		} else if (rc) {
			return rc;
		} else if (!strcmp(a, "--quick")) {
			r->quick = 1;
		} else if (!strcmp(a, "-v")) {
			r->verbose = 1;
		} else if (!strcmp(a, "-q")) {
			r->quiet = 1;
		} else if (a[0] == '-' && a[1]) {
			return cli_usage_error(CMD, "unknown option '%s'", a);
		} else {
			return cli_usage_error(CMD, "unexpected argument '%s'", a);
		}
	}
	if (r->verbose && r->quiet)
		return cli_usage_error(CMD, "-v and -q contradict each other");
	r->seconds = seconds > 0 ? seconds : r->quick ? QUICK_SECONDS : DEFAULT_SECONDS;
	r->max_size = max_size ? max_size : r->quick ? QUICK_MAX_SIZE : DEFAULT_MAX_SIZE;
	/* A --dist-dir or UCOPY_DATA_DIR that is no directory fails before
	 * anything is measured; none at all means verifying on uniform sizes. */
	r->have_dists = data_dir_find(dist_dir, "--dist-dir", &r->dists, why, sizeof why);
	if (r->have_dists < 0)
		return cli_usage_error(CMD, "%s", why);
	if (r->have_dists && data_dir_check(r->dists.path, why, sizeof why))
		return cli_usage_error(CMD, "%s", why);
	return 0;
}

/* Where the profile goes, in path; *default_path when it is the library's
 * default one (its directory then made before saving).
 * @return : 0, or the exit status after the message. */
static int save_path(const struct run *r, char *path, size_t len, int *default_path)
{
	/* Without -o, where the library looks first: UCOPY_PROFILE when set
	 * (a profile saved to the default path would never be read), else
	 * the default path, whose directory is made here. */
	const char *env_profile = getenv("UCOPY_PROFILE");
	*default_path = 0;
	if (r->out) {
		snprintf(path, len, "%s", r->out);
	} else if (env_profile && env_profile[0]) {
		int rc = env_profile_path(env_profile, path, len);
		if (rc)
			return rc;
	} else if (ucopy_profile_default_path(path, len)) {
		return cli_usage_error(CMD, "no default profile path (XDG_CACHE_HOME and HOME are "
				       "unset, not absolute paths, or too long): give -o FILE");
	} else {
		*default_path = 1;
	}
	return 0;
}

/* --replay read, and kept apart from the profile's path.
 * @return : 0, or the exit status after the message. */
static int read_replay(struct run *r, const char *path)
{
	char why[4200];

	if (!r->replay_path)
		return 0;
	if (replay_read_file(r->replay_path, &r->replay, why, sizeof why) < 0)
		return cli_usage_error(CMD, "%s", why);
	int rc = outfile_not_input(CMD, path, "--replay", r->replay_path);
	if (rc)
		return rc;
	r->have_replay = 1;
	return 0;
}

/* The kernels that may be chosen, the largest size checked against the
 * memory and the budget, and auto's policy for this CPU.
 * @return : 0, or the exit status after the message. */
static int choose_kernels(struct run *r)
{
	const struct ucopy_cpu *cpu = ucopy_cpu();
	char err[256];

	for (size_t k = 0; k < ucopy_kernel_count() && k < CAL_MAX_KERNELS; k++) {
		const struct ucopy_kernel *kk = kernel(k);
		/* A calibrated policy serves ucopy_try() too: only kernels
		 * that recover from faults may be chosen; libc is timed as
		 * the reference. */
		r->candidate[k] = ucopy_kernel_supported(kk, cpu->features) &&
				  (kk->flags & UCOPY_KERNEL_FAULT_CAPABLE);
		r->nk = k + 1;
	}
	int any = 0;
	for (size_t k = 0; k < r->nk; k++)
		any += r->candidate[k];
	if (!any) {
		cli_error("no copy kernels to calibrate on %s", cpu->arch);
		return EXIT_FAIL;
	}
	/* As bench refuses a grid: a largest size whose buffers exceed half
	 * the memory, or whose one cell (every candidate and libc) cannot fit
	 * the whole budget, is refused before anything runs (docs/calibrate.md,
	 * "Where calibrate's numbers come from"). */
	if (cli_check_memory(CMD, 2 * r->max_size, cli_default_max_memory(), 0))
		return EXIT_USAGE;
	double need = measure_size_floor_seconds(r->max_size, (size_t)any + 1);
	if (need > r->seconds) {
		char sz[32];
		ucopy_size_format(r->max_size, sz, sizeof sz);
		return cli_usage_error(CMD, "--max-size %s needs a budget of at least %.3g s for its "
				       "largest cell alone, more than --seconds %g (a smaller "
				       "--max-size, or more seconds)", sz, need, r->seconds);
	}
	if (ucopy_policy_resolve(&r->auto_policy, "auto", cpu->features, err, sizeof err)) {
		cli_error("auto: %s", err);
		return EXIT_FAIL;
	}
	ucopy_policy_fit(&r->auto_policy, cpu->features, err, sizeof err);
	return 0;
}

/* The phases, then the profile saved at path and the report printed.
 * @return : the exit status. */
static int calibrate(struct run *r, char *path, int default_path)
{
	calibration_init(&r->cal);
	r->verbose = r->verbose && !r->quiet;
	r->progress = !r->quiet && (r->verbose || isatty(2));
	/* The profile is checked and prepared before anything is measured,
	 * so that a path that cannot be written fails at once, and it replaces
	 * the old one only when complete: a program starting meanwhile reads
	 * the old profile or the new one, never half of one. */
	if (default_path && make_parent(path)) {
		cli_error("cannot create the directory for '%s': %s", path, strerror(errno));
		return EXIT_FAIL;
	}
	struct outfile out;
	int orc = outfile_open(&out, CMD, path);
	if (orc)
		return orc;
	r->m = measure_new();
	if (!r->m) {
		outfile_abandon(&out);
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	r->started = clock_seconds();

	/* Above the largest size measured, auto's rules (its non-temporal
	 * one); and auto is what the derived policy must beat. */
	r->cal.inherit = &r->auto_policy;
	r->cal.l2 = ucopy_cpu()->l2;
	r->cal.keep_tail = 1;

	int rc = phase(r, calibrate_sweep, 0.35) || phase(r, calibrate_cold, 0.15) ||
		 phase(r, calibrate_probes, 0.15);
	if (!rc) {
		calibration_derive(&r->cal);
		rc = phase(r, calibrate_refine, 0.15) || phase(r, calibrate_verify, 0.12);
		/* Rejected whole: keep what won, take auto's where the derived
		 * rules lost, and verify that combination (docs/calibrate.md,
		 * "When the derived policy is saved"). */
		if (!rc && !r->cal.accepted && calibration_merge(&r->cal))
			rc = phase(r, calibrate_verify, 0.08);
	}
	calibrate_progress_end(r);
	measure_free(r->m);
	if (rc || r->cal.policy.nrules == 0) {
		outfile_abandon(&out);
		cli_error("measuring failed: %s", rc ? r->err : "no kernel could be timed");
		return EXIT_FAIL;
	}
	calibrate_say(r, "measured in %.1f s", clock_seconds() - r->started);
	calibration_write(&r->cal, out.f);   /* a failed write leaves ferror() set */
	if (outfile_commit(&out))
		return EXIT_FAIL;
	if (!r->quiet)
		calibrate_report(r, path);
	return ferror(stdout) ? EXIT_FAIL : EXIT_OK;
}

int cmd_calibrate(int argc, char **argv)
{
	static struct run r;
	char path[4096];
	int default_path, rc;

	memset(&r, 0, sizeof r);
	if ((rc = parse_args(&r, argc, argv)) ||
	    (rc = save_path(&r, path, sizeof path, &default_path)) ||
	    (rc = read_replay(&r, path)) || (rc = choose_kernels(&r)))
		return rc;
	return calibrate(&r, path, default_path);
}
