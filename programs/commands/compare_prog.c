/*
 * compare_prog.c - `ucopy compare A B -- CMD ARGS`: a whole program under
 * policy A and under policy B, run after run, with the verdict of the
 * workload compare (verdict.h) on the paired runs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "child.h"
#include "cli.h"
#include "compare.h"
#include "machine.h"
#include "stats.h"
#include "verdict.h"

#define CMD "compare"
#define DEFAULT_RUNS 10
#define MAX_RUNS 10000

void help_compare_program(FILE *f)
{
	fputs("       ucopy compare A B [--runs N] [--margin PCT] [--keep-output]\n"
	      "                     [--event EVENT]... -- CMD [ARGS...]\n\n"
	      "With '--', a whole program: CMD runs under policy A and under policy B\n"
	      "(libucopy-preload.so with UCOPY_POLICY; 'libc' means no interposer:\n"
	      "the C library's own memcpy), alternately, A B A B ..., N times each\n"
	      "(default 10; 6 at least give an interval).  Each run is measured from\n"
	      "fork to wait: wall time, task-clock (user + system time of CMD and\n"
	      "its children, from wait4), and cycles, instructions and each --event\n"
	      "where the machine counts them.  B/A is the median of the per-round ratios of\n"
	      "wall time with its 95% interval, and the verdict is the workload\n"
	      "compare's; the task-clock ratio is printed beside it.  CMD's output\n"
	      "goes to /dev/null unless --keep-output; a run that exits non-zero or\n"
	      "by a signal is reported ('run 3 of B failed: exit 1') and its round\n"
	      "left out; when no round has both runs successful, the exit status\n"
	      "is 1.  A policy naming a kernel this CPU does not run is refused:\n"
	      "the interposer would run another in its place.  A CMD that does not\n"
	      "load the interposer (a static program, a setuid one run by another\n"
	      "user) is refused at its first run (exit 2): both sides would be its\n"
	      "own copies.  A --routine cannot be an arm here (exit 2): the\n"
	      "interposer runs policies.\n", f);
}

/* Counters per run: cycles, instructions, then each --event. */
#define NCTR (2 + CTR_EXTRA_MAX)

struct side {
	const char *spec;
	double *wall, *cpu;
	double *ctr[NCTR];
	const char *why[NCTR];
	size_t ok;
};

/* The counter slot (counters.h) of a side's k-th counter. */
static int ctr_slot(int k)
{
	return k == 0 ? CTR_CYCLES : k == 1 ? CTR_INSTRUCTIONS : CTR_COUNT + k - 2;
}

static void summary(const char *what, const double *x, size_t n, const char *unit,
		    double scale)
{
	struct stats_summary s;
	if (!n || stats_summarize(x, n, &s) < 0) {
		printf("  %-14s -\n", what);
		return;
	}
	printf("  %-14s median %10.3f %s   (p10 %.3f, p90 %.3f)\n", what, s.median * scale,
	       unit, s.p10 * scale, s.p90 * scale);
}

static void ratio_line(const char *what, const double *a, const double *b, size_t n,
		       double margin, struct verdict *v)
{
	struct stats_interval q;
	compare_samples(a, b, n, margin, &q, v);
	if (isnan(q.lo))
		printf(" B/A %-10s %.3f (no interval: %zu rounds, 6 at least give one)\n", what,
		       q.est, n);
	else
		printf(" B/A %-10s %.3f, %g%% CI [%.3f, %.3f] (median of the per-round "
		       "ratios over %zu rounds)\n", what, q.est, COMPARE_LEVEL * 100, q.lo, q.hi, n);
}

/* What the command line asked. */
struct program_args {
	const char *spec[2];
	int keep;
	size_t runs;
	double margin;
	struct counter_events ev;
	char so[4096];            /* the interposer */
};

/* The options before the "--" (argv[dd]) into o.
 * @return : 0, or the exit status after the message. */
static int program_args(int argc, char **argv, int dd, struct program_args *o)
{
	int npos = 0;
	o->runs = DEFAULT_RUNS;
	o->margin = COMPARE_MARGIN;
	for (int i = 1; i < dd; i++) {
		int rc = 0;
		const char *v, *a = argv[i];
		if ((v = cli_opt_value(CMD, dd, argv, &i, "--runs", CLI_VALUE_NUMBER, &rc))) {
			char *e;
			unsigned long n = strtoul(v, &e, 10);
			if (v[0] < '0' || v[0] > '9' || *e || n < 1 || n > MAX_RUNS)
				return cli_usage_error(CMD, "bad --runs '%s' (expected 1 to %d runs "
						       "of each)", v, MAX_RUNS);
			o->runs = n;
		} else if ((v = cli_opt_value(CMD, dd, argv, &i, "--margin", CLI_VALUE_NUMBER, &rc))) {
			if (compare_margin_parse(v, &o->margin))
				return EXIT_USAGE;
		} else if ((v = cli_opt_value(CMD, dd, argv, &i, "--event", CLI_REPEAT, &rc))) {
			if ((rc = cli_parse_event(CMD, v, &o->ev)))
				return rc;
		} else if ((v = cli_opt_value(CMD, dd, argv, &i, "--routine", CLI_REPEAT, &rc))) {
			return cli_usage_error(CMD, "--routine '%s' cannot be an arm with '-- CMD': "
					       "the program's copies go through the interposer, "
					       "which runs policies (compare a routine on a "
					       "workload, without '-- CMD')", v);
		} else if (rc) {
			return rc;
		} else if (!strcmp(a, "--keep-output")) {
			o->keep = 1;
		} else if (a[0] == '-') {
			return cli_usage_error(CMD, "unknown option '%s' (with '-- CMD': --runs, "
					       "--margin, --keep-output, --event)", a);
		} else if (npos < 2) {
			o->spec[npos++] = a;
		} else {
			return cli_usage_error(CMD, "unexpected argument '%s'", a);
		}
	}
	if (npos < 2)
		return cli_usage_error(CMD, "expected two policies, A and B, before '--'");
	if (dd + 1 >= argc)
		return cli_usage_error(CMD, "no program after '--'");
	char err[512];
	for (int s = 0; s < 2; s++)
		if (strcmp(o->spec[s], "libc") && cli_policy_runnable(o->spec[s], err, sizeof err) < 0)
			return cli_usage_error(CMD, "%c: bad policy '%s': %s", 'A' + s, o->spec[s], err);
	if (cli_preload_find(o->so, sizeof o->so))
		return EXIT_USAGE;
	return 0;
}

/* The runs, A B A B ..., into side[]; good[r] is 0 for a round with a failed
 * run, and failed[] counts those of each side.
 * @return : 0, or EXIT_USAGE after the message (a run that could not be
 *           started, or a program that did not load the interposer). */
static int program_rounds(char *const *prog, const struct program_args *o, struct side *side,
			  int *good, size_t *failed)
{
	char err[512];
	int nctr = 2 + (int)o->ev.n;
	for (size_t r = 0; r < o->runs; r++) {
		good[r] = 1;
		for (int s = 0; s < 2; s++) {
			int libc = !strcmp(o->spec[s], "libc");
			struct child_opts co = { .preload = libc ? NULL : o->so,
						 .policy = libc ? NULL : o->spec[s],
						 .quiet = !o->keep, .counters = 1,
						 .events = &o->ev };
			struct child_result res;
			if (child_run(prog, &co, &res, err, sizeof err) < 0) {
				cli_error("%s", err);
				return EXIT_USAGE;
			}
			if (!libc && !res.preload_loaded) {
				char how[128] = "";
				if (res.status != 0) {
					memcpy(how, "; it ended with ", 17);
					child_describe(res.status, how + 16, sizeof how - 16);
				}
				child_not_loaded(prog, err, sizeof err);
				cli_error("%s%s: no comparison", err, how);
				return EXIT_USAGE;
			}
			if (res.status != 0) {
				char how[128];
				child_describe(res.status, how, sizeof how);
				fprintf(stderr, "ucopy: run %zu of %c failed: %s\n", r + 1, 'A' + s, how);
				failed[s]++;
				good[r] = 0;
			}
			side[s].wall[r] = res.wall_s;
			side[s].cpu[r] = res.cpu_s;
			for (int k = 0; k < nctr; k++) {
				side[s].ctr[k][r] = res.ctr_total[ctr_slot(k)];
				side[s].why[k] = res.ctr_reason[ctr_slot(k)];
			}
		}
	}
	return 0;
}

/* The n good rounds' numbers, as perf stat's blocks, and the verdict. */
static void program_print(char *const *prog, const struct program_args *o,
			  const struct side *side, size_t n, const size_t *failed)
{
	const char *const *spec = o->spec;
	int nctr = 2 + (int)o->ev.n;
	char cpu[256];
	machine_cpu_line(cpu, sizeof cpu);
	printf("program   ");
	for (char *const *a = prog; *a; a++)
		printf("%s%s", a == prog ? "" : " ", *a);
	printf("\ncpu       %s\n", cpu);
	for (int s = 0; s < 2; s++)
		printf("%c         %s%s\n", 'A' + s, spec[s], strcmp(spec[s], "libc") ? ""
		       : " (no interposer: the C library's own memcpy)");
	printf("method    A and B alternately, %zu runs each; %zu rounds with both runs "
	       "successful; output %s\n", o->runs, n, o->keep ? "kept" : "to /dev/null");
	for (int s = 0; s < 2; s++) {
		printf("\n %c: %s\n", 'A' + s, spec[s]);
		summary("wall", side[s].wall, n, "ms", 1e3);
		summary("task-clock", side[s].cpu, n, "ms", 1e3);
		for (int k = 0; k < nctr; k++) {
			const char *name = counter_slot_name(&o->ev, ctr_slot(k));
			const char *why = side[s].why[k];
			/* One run without a count leaves no median to give. */
			int have = n > 0;
			for (size_t r = 0; have && r < n; r++)
				have = !isnan(side[s].ctr[k][r]);
			if (have)
				summary(name, side[s].ctr[k], n, "M", 1e-6);
			else
				printf("  %-14s <%s>\n", name, why && why[0] ? why : "not counted");
		}
		if (failed[s])
			printf("  failed runs    %zu of %zu (left out)\n", failed[s], o->runs);
	}
	printf("\n");
	struct verdict v, vcpu;
	ratio_line("task-clock", side[0].cpu, side[1].cpu, n, o->margin, &vcpu);
	ratio_line("wall", side[0].wall, side[1].wall, n, o->margin, &v);
	printf(" verdict (wall time, margin %g%%): %s\n", o->margin * 100, v.text);
}

int compare_program(int argc, char **argv, int dd)
{
	struct program_args o;
	memset(&o, 0, sizeof o);
	int rc = program_args(argc, argv, dd, &o);
	if (rc)
		return rc;

	struct side side[2] = { { .spec = o.spec[0] }, { .spec = o.spec[1] } };
	/* Per round, so that a failed run leaves its round out of both. */
	size_t runs = o.runs;
	int nctr = 2 + (int)o.ev.n;
	double *buf = calloc(2 * (2 + NCTR) * runs, sizeof *buf);
	int *good = calloc(runs, sizeof *good);
	if (!buf || !good) {
		free(buf);
		free(good);
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	for (int s = 0; s < 2; s++) {
		side[s].wall = buf + (size_t)((2 + NCTR) * s) * runs;
		side[s].cpu = side[s].wall + runs;
		for (int k = 0; k < NCTR; k++)
			side[s].ctr[k] = side[s].cpu + (size_t)(k + 1) * runs;
	}
	char *const *prog = argv + dd + 1;
	size_t failed[2] = { 0, 0 };
	if ((rc = program_rounds(prog, &o, side, good, failed))) {
		free(buf);
		free(good);
		return rc;
	}
	/* Keep the good rounds, packed in place. */
	size_t n = 0;
	for (size_t r = 0; r < runs; r++) {
		if (!good[r])
			continue;
		for (int s = 0; s < 2; s++) {
			side[s].wall[n] = side[s].wall[r];
			side[s].cpu[n] = side[s].cpu[r];
			for (int k = 0; k < nctr; k++)
				side[s].ctr[k][n] = side[s].ctr[k][r];
		}
		n++;
	}
	free(good);
	if (n == 0) {
		cli_error("no round where both runs succeeded (%zu of A and %zu of B failed): "
			  "no comparison", failed[0], failed[1]);
		free(buf);
		return EXIT_FAIL;
	}
	program_print(prog, &o, side, n, failed);
	free(buf);
	return EXIT_OK;
}
