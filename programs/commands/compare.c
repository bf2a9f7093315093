/*
 * compare.c - `ucopy compare A B`: two copy policies, or routines of the
 * user's own (--routine), on one workload, interleaved, reported the way
 * `perf stat` reports a run, and a verdict on the difference (verdict.h
 * says how it is reached).
 */
#include "compare.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "child.h"
#include "cli.h"
#include "json.h"
#include "machine.h"
#include "measure.h"
#include "routine.h"
#include "verdict.h"
#include "workload.h"

#define CMD "compare"

/* Rounds: a verdict from fewer than this many pairs rests on too little (at
 * 20 rounds the 95% interval already spans the 6th to the 15th ratio); a
 * budget stops at the upper bound. */
#define MIN_ROUNDS 20
#define MAX_ROUNDS 20000
#define MIN_RUNS MIN_ROUNDS
#define MAX_RUNS 100000
/* Batch length, aiming at ~5000 rounds in the budget.  Short batches are
 * what keeps a loaded machine from deciding the verdict: a batch that the
 * scheduler preempts (another process on a 2-core guest, a host's steal) is
 * ruined, and the shorter the batch the fewer are; A and B of a round are
 * also closer in time, so drift cancels better.  50 us is still 25x the
 * core's shortest batch (timer overhead ~1%). */
#define TARGET_ROUNDS 5000
#define MIN_BATCH_S 50e-6
#define MAX_BATCH_S 1e-3
/* measure_cell() sizes batches to fit ~64 rounds of its budget. */
#define CORE_ROUNDS_PER_BUDGET 64

void help_compare(FILE *f)
{
	fputs("usage: ucopy compare A B [--workload NAME | --dist FILE | --sizes SPEC]\n"
	      "                     [--assume-features LIST] [--fault-tolerant]\n"
	      "                     [--regime R] [--cache STATE] [--runs N] [--seconds S]\n"
	      "                     [--margin PCT] [--seed N] [--event EVENT]... [--json] [-q]\n"
	      "       ucopy compare A --routine LIB.so:SYMBOL[:CONTRACT] [OPTIONS]\n"
	      "       ucopy compare --list-workloads\n", f);
	help_compare_program(f);
	fputs("\nWithout '--', a workload:\n"
	      "Times policy B against policy A on one workload, A and B interleaved\n"
	      "round by round, and says whether B is slower, faster or the same.\n"
	      "A and B are named policies (", f);
	/* The library's list, wrapped as the rest of the text is. */
	int col = 28;
	for (size_t i = 0; ucopy_policy_named(i); i++) {
		const char *name = ucopy_policy_named(i);
		int wrap = col + (int)strlen(name) + 1 > 72;
		col = wrap ? 0 : col;
		col += fprintf(f, "%s%s,", wrap ? "\n" : i ? " " : "", name);
	}
	fputs(" auto), policy text\n"
	      "('64:word,movsb') or kernel names (movsb, avx2, libc, ...).  Either\n"
	      "may be a copy routine of your own instead, --routine\n"
	      "LIB.so:SYMBOL[:CONTRACT] in its place: the arms are A and B in the\n"
	      "order given ('compare linux-6.4 --routine ./mine.so:f' is A linux-6.4,\n"
	      "B the routine; two --routine options compare two routines).  A\n"
	      "routine is called directly, in the rounds and batches a policy is\n"
	      "timed in, on valid memory that does not overlap; its CONTRACT is memcpy\n"
	      "(default), memmove, or try with --fault-tolerant (a try routine is\n"
	      "refused without it, a memcpy or memmove one with it, so that a\n"
	      "policy beside it keeps the same contract); it never faults here.\n\n"
	      "For A and for B it prints a block like perf stat's (task-clock,\n"
	      "cycles, instructions, IPC, branches, branch-misses, each '<not\n"
	      "supported>' where the machine has no such counter, each --event;\n"
	      "time elapsed in the timed copies, bytes copied, GB/s, ns per copy),\n"
	      "then B/A: the median over rounds of B's time divided by A's in the\n"
	      "same round, with its 95% confidence interval (order statistics:\n"
	      "exact for any noise), and the verdict: a regression (improvement)\n"
	      "when the whole interval lies beyond the margin; 'no significant\n"
	      "difference' only when it lies within the margin; slower or faster\n"
	      "when it excludes 1 but reaches into the margin; inconclusive\n"
	      "otherwise.\n\n"
	      "  --routine LIB.so:SYMBOL[:CONTRACT]\n"
	      "                         an arm that is a routine of your own, from a\n"
	      "                         shared object (a path, or a name the loader\n"
	      "                         finds: libc.so.6:memcpy); at most twice\n"
	      "  --workload NAME        tcp-sendmsg, aio-poll, cold-read or dist:FILE\n"
	      "                         (--list-workloads says what each models)\n"
	      "  --dist FILE            sizes drawn from a distribution file, or one\n"
	      "                         that ships by name (Memcpy_Fleet; `ucopy bench\n"
	      "                         --list-dists` lists them)\n"
	      "  --regime R             the order of --dist's sizes: unlearnable\n"
	      "                         (default; 65536 copies no predictor learns)\n"
	      "                         or repeated (8192 copies played again and\n"
	      "                         again; docs/bench.md)\n"
	      "  --sizes SPEC           these sizes copied in turn (64 | 64,32 | 1-256);\n"
	      "                         with cold-read: its sizes (default 4K)\n"
	      "  --assume-features LIST resolve named policies for this CPU's features\n"
	      "                         changed by LIST ('erms,-fsrm': an ERMS-only\n"
	      "                         Xeon); the resolved policies are printed, then\n"
	      "                         fitted to the kernels this CPU can run; not\n"
	      "                         with 'calibrated', this CPU's own profile\n"
	      "  --fault-tolerant       time ucopy_policy_try (the copy_from_user path)\n"
	      "                         instead of the plain copy\n"
	      "  --cache STATE          hot (default), warm or cold, for --sizes,\n"
	      "                         --dist and aio-poll\n"
	      "  --runs N               exactly N interleaved rounds (20..100000)\n"
	      "                         instead of as many as the budget allows;\n"
	      "                         --seconds then sets how long a round is\n"
	      "                         (for most workloads S / 2N a side, within\n"
	      "                         50 us..1 ms), not how long the whole takes\n"
	      "  --seconds S            the time budget (default 2, at most 86400); at\n"
	      "                         least 20 rounds run, so large copies can take\n"
	      "                         longer; one that 20 rounds could not fit even at\n"
	      "                         the fastest any CPU copies (400 bytes/ns cached,\n"
	      "                         100 from memory) is refused before anything is\n"
	      "                         timed\n"
	      "  --margin PCT           differences below PCT percent do not count\n"
	      "                         (default 1.5: the size of code-placement\n"
	      "                         effects; see docs/reproducing.md)\n"
	      "  --seed N               seed for --dist's size sequence (default: fresh,\n"
	      "                         printed with the results); the other workloads\n"
	      "                         draw nothing and it only labels the results\n"
	      "  --event EVENT          count EVENT too (up to 4 times): raw:0xHEX, a raw\n"
	      "                         PMU event number (raw:0xe7: the Cortex-A53's\n"
	      "                         ld_dep_stall), or PMU/NAME or NAME as sysfs lists\n"
	      "                         it (/sys/bus/event_source/devices/*/events)\n"
	      "  --json                 one JSON object instead of the text\n"
	      "  -q                     no progress line on stderr\n\n"
	      "example:\n"
	      "  ucopy compare linux-6.3 linux-6.4-rc1 --workload tcp-sendmsg \\\n"
	      "        --assume-features erms,-fsrm\n", f);
}

/*=====   The command line   =====*/

/* An arm: a policy, or a routine (is_routine) loaded into rt. */
struct arm {
	const char *spec;
	int is_routine;
	struct routine rt;
	struct ucopy_policy resolved;  /* for the (assumed) features */
	struct ucopy_policy run;       /* fitted to this CPU: what is timed */
	char resolved_text[512], run_text[512];
	char fit_note[512];            /* "" when nothing was replaced */
	char try_note[256];            /* kernels ucopy_policy_try replaces */
};

struct compare {
	struct arm p[2];
	struct workload_opts wo;
	const char *assume;
	uint64_t features;             /* what the policies were resolved for */
	int fault_tolerant, json, quiet, have_seed;
	struct counter_events events;  /* --event */
	unsigned runs;                 /* 0: as the budget allows */
	double seconds, margin;
	uint64_t seed;
	double started;                /* for the progress line */
	int progress;
};

/* A --routine takes the next arm: the arms are A and B in the order given,
 * policies and routines alike. */
static int add_routine_arm(struct compare *c, int *npos, const char *spec)
{
	if (*npos == 2)
		return cli_usage_error(CMD, "unexpected --routine '%s' (expected two arms, A and B, "
				       "policies or routines)", spec);
	c->p[*npos].is_routine = 1;
	c->p[(*npos)++].spec = spec;
	return 0;
}

static int parse_args(struct compare *c, int argc, char **argv)
{
	int npos = 0, list = 0;
	const char *runs = NULL, *seconds = NULL, *margin = NULL, *seed = NULL;

	c->seconds = 2;
	c->margin = COMPARE_MARGIN;
	for (int i = 1; i < argc; i++) {
		int rc = 0;
		const char *v, *a = argv[i];
		if ((v = cli_opt_value(CMD, argc, argv, &i, "--workload", 0, &rc)))
			c->wo.name = v;
		else if ((v = cli_opt_value(CMD, argc, argv, &i, "--dist", 0, &rc)))
			c->wo.dist_path = v;
		else if ((v = cli_opt_value(CMD, argc, argv, &i, "--regime", 0, &rc)))
			c->wo.regime = v;
		else if ((v = cli_opt_value(CMD, argc, argv, &i, "--sizes", 0, &rc)))
			c->wo.sizes = v;
		else if ((v = cli_opt_value(CMD, argc, argv, &i, "--cache", 0, &rc)))
			c->wo.cache = v;
		else if ((v = cli_opt_value(CMD, argc, argv, &i, "--assume-features",
					    CLI_VALUE_DASH, &rc)))
			c->assume = v;
		else if ((v = cli_opt_value(CMD, argc, argv, &i, "--runs",
					    CLI_VALUE_NUMBER, &rc)))
			runs = v;
		else if ((v = cli_opt_value(CMD, argc, argv, &i, "--seconds",
					    CLI_VALUE_NUMBER, &rc)))
			seconds = v;
		else if ((v = cli_opt_value(CMD, argc, argv, &i, "--margin",
					    CLI_VALUE_NUMBER, &rc)))
			margin = v;
		else if ((v = cli_opt_value(CMD, argc, argv, &i, "--seed",
					    CLI_VALUE_NUMBER, &rc)))
			seed = v;
		else if ((v = cli_opt_value(CMD, argc, argv, &i, "--event", CLI_REPEAT, &rc)))
			rc = cli_parse_event(CMD, v, &c->events);
		else if ((v = cli_opt_value(CMD, argc, argv, &i, "--routine", CLI_REPEAT, &rc)))
			rc = add_routine_arm(c, &npos, v);
		else if (rc)
			;
		else if (!strcmp(a, "--fault-tolerant"))
			c->fault_tolerant = 1;
		else if (!strcmp(a, "--json"))
			c->json = 1;
		else if (!strcmp(a, "-q"))
			c->quiet = 1;
		else if (!strcmp(a, "--list-workloads"))
			list = 1;
		else if (a[0] == '-' && a[1])
			rc = cli_usage_error(CMD, "unknown option '%s'", a);
		else if (npos < 2)
			c->p[npos++].spec = a;
		else
			rc = cli_usage_error(CMD, "unexpected argument '%s' (expected two "
					     "arms, A and B, policies or routines)", a);
		if (rc)
			return rc;
	}
	if (list)
		return argc == 2 ? -1
				 : cli_usage_error(CMD, "--list-workloads takes no other arguments");
	if (npos < 2)
		return cli_usage_error(CMD, "expected two policies, A and B, or --routine "
				       "LIB.so:SYMBOL in place of either (e.g. 'ucopy compare "
				       "linux-6.3 linux-6.4-rc1 --workload tcp-sendmsg')");
	double d;
	if (runs) {
		if (compare_number_parse(runs, MIN_RUNS, MAX_RUNS, &d) || d != floor(d))
			return cli_usage_error(CMD, "bad --runs '%s' (expected a whole "
					       "number of rounds, %d..%d)", runs,
					       MIN_RUNS, MAX_RUNS);
		c->runs = (unsigned)d;
	}
	if (seconds && cli_parse_seconds(CMD, seconds, &c->seconds))
		return EXIT_USAGE;
	if (margin && compare_margin_parse(margin, &c->margin))
		return EXIT_USAGE;
	if (seed) {
		if (cli_parse_seed(CMD, seed, &c->seed))
			return EXIT_USAGE;
		c->have_seed = 1;
	}
	return 0;
}

/* Names the kernels of p that ucopy_policy_try() runs in place of others
 * (those that are not fault-capable, such as libc). */
static void try_note(const struct ucopy_policy *p, char *buf, size_t len)
{
	size_t pos = 0;
	buf[0] = 0;
	for (unsigned i = 0; i < p->nrules; i++) {
		const struct ucopy_kernel *k = p->rule[i].kernel;
		const struct ucopy_kernel *f = ucopy_kernel_fault_capable(k);
		if (f == k || (pos && strstr(buf, k->name)))
			continue;
		int n = snprintf(buf + pos, len - pos, "%s%s -> %s", pos ? ", " : "",
				 k->name, f->name);
		if (n < 0 || (size_t)n >= len - pos)
			break;
		pos += (size_t)n;
	}
}

/* Whether spec is the word 'calibrated' (blanks around it allowed, as the
 * library's resolver allows them). */
static int is_calibrated(const char *spec)
{
	char w[16];
	int end = 0;
	return sscanf(spec, " %15s %n", w, &end) == 1 && !spec[end] && !strcmp(w, "calibrated");
}

/* A routine arm, loaded.  Its contract is the path's: a try routine
 * beside ucopy_policy_try (--fault-tolerant), a memcpy or memmove one
 * beside ucopy_policy_copy, so that a policy arm runs the same contract.
 * @return : 0, or EXIT_USAGE after the message. */
static int open_routine(struct compare *c, int i)
{
	struct arm *s = &c->p[i];
	char err[1024];
	if (routine_open(s->spec, &s->rt, err, sizeof err) < 0)
		return cli_usage_error(CMD, "%c: bad --routine '%s': %s", 'A' + i, s->spec, err);
	int try = s->rt.contract == ROUTINE_TRY;
	if (try && !c->fault_tolerant)
		return cli_usage_error(CMD, "%c: --routine '%s' is a try routine: compare it "
				       "with --fault-tolerant (a policy then runs "
				       "ucopy_policy_try, the same contract)", 'A' + i, s->spec);
	if (!try && c->fault_tolerant)
		return cli_usage_error(CMD, "%c: --routine '%s' has the %s contract, and "
				       "--fault-tolerant times the try contract (expected "
				       "LIB.so:SYMBOL:try)", 'A' + i, s->spec,
				       routine_contract_name(s->rt.contract));
	return 0;
}

static int resolve(struct compare *c)
{
	const struct ucopy_cpu *cpu = ucopy_cpu();
	char err[512];
	c->features = cpu->features;
	if (c->assume && cli_parse_assume(CMD, c->assume, &c->features))
		return EXIT_USAGE;
	if (c->assume && c->p[0].is_routine && c->p[1].is_routine)
		return cli_usage_error(CMD, "--assume-features resolves policies for another CPU, "
				       "and A and B are routines (expected a policy arm)");
	for (int i = 0; i < 2; i++) {
		struct arm *s = &c->p[i];
		if (s->is_routine) {
			int rc = open_routine(c, i);
			if (rc)
				return rc;
			continue;
		}
		/* A profile holds what was measured on this CPU: no feature set
		 * re-derives it, and the library on the assumed CPU would not
		 * load it (its cpu.features differ). */
		if (c->assume && is_calibrated(s->spec))
			return cli_usage_error(CMD, "%c: 'calibrated' is this CPU's measured profile, "
					       "which --assume-features cannot resolve for another "
					       "CPU (expected auto, a named policy or policy text)",
					       'A' + i);
		if (ucopy_policy_resolve(&s->resolved, s->spec, c->features, err,
					 sizeof err) < 0)
			return cli_usage_error(CMD, "%c: %s", 'A' + i, err);
		/* Fitting is for policies resolved for another CPU; here, as in
		 * bench and run, a kernel this CPU does not run is refused, not
		 * timed as another under the name given. */
		if (!c->assume && cli_policy_fits(&s->resolved, err, sizeof err))
			return cli_usage_error(CMD, "%c: bad policy '%s': %s", 'A' + i, s->spec, err);
		s->run = s->resolved;
		ucopy_policy_fit(&s->run, cpu->features, s->fit_note, sizeof s->fit_note);
		ucopy_policy_format(&s->resolved, s->resolved_text, sizeof s->resolved_text);
		ucopy_policy_format(&s->run, s->run_text, sizeof s->run_text);
		if (c->fault_tolerant)
			try_note(&s->run, s->try_note, sizeof s->try_note);
	}
	return 0;
}

/* The assumed feature set, as ucopy_features_format() writes it, except that
 * the empty set ("--assume-features none") is "", as compare has always
 * printed and written it. */
static void assumed_features(const struct compare *c, char *buf, size_t len)
{
	if (c->features)
		ucopy_features_format(c->features, ",", buf, len);
	else if (len)
		buf[0] = '\0';
}

/* The rep-string speed bits the assumed set and this CPU disagree on: the
 * policy follows the assumed set, the instruction runs at this CPU's speed. */
static void rep_note(const struct compare *c, char *buf, size_t len)
{
	static const unsigned bits[] = { UCOPY_FEAT_ERMS, UCOPY_FEAT_FSRM,
					 UCOPY_FEAT_FZRM, UCOPY_FEAT_REP_GOOD };
	uint64_t have = ucopy_cpu()->features;
	size_t pos = 0;
	buf[0] = 0;
	for (size_t i = 0; i < sizeof bits / sizeof bits[0]; i++) {
		uint64_t b = UINT64_C(1) << bits[i];
		if ((have & b) == (c->features & b))
			continue;
		int n = snprintf(buf + pos, len - pos, "%s%s %s", pos ? ", " : "",
				 have & b ? "has" : "lacks", ucopy_feature_name(bits[i]));
		if (n < 0 || (size_t)n >= len - pos)
			break;
		pos += (size_t)n;
	}
}

/*=====   Output   =====*/

struct outcome {
	struct stats_interval ratio;   /* the verdict's: median of round ratios */
	double mw_p;
	struct verdict v;
};

/* A number with thousands separators in its integer part and `decimals`
 * digits after the point, as perf stat prints counts and milliseconds. */
static void fmt_grouped(char *buf, size_t len, double v, int decimals)
{
	char digits[48];
	snprintf(digits, sizeof digits, "%.*f", decimals, v);
	const char *dot = strchr(digits, '.');
	size_t n = dot ? (size_t)(dot - digits) : strlen(digits), o = 0;
	for (size_t i = 0; i < n && o + 2 < len; i++) {
		if (i && (n - i) % 3 == 0 && digits[i - 1] != '-')
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = 0;
	if (dot)
		snprintf(buf + o, len - o, "%s", dot);
}

static void fmt_count(char *buf, size_t len, double v)
{
	fmt_grouped(buf, len, v, 0);
}

/* A duration with a unit that keeps it readable. */
static void fmt_time(char *buf, size_t len, double ns)
{
	if (ns < 1e3)
		snprintf(buf, len, "%.1f ns", ns);
	else if (ns < 1e6)
		snprintf(buf, len, "%.2f us", ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.3f s", ns / 1e9);
}

/* One line of a block: value right-aligned, name, then "# comment". */
static void stat_line(const char *value, const char *name, const char *comment)
{
	if (comment && comment[0])
		printf("%22s  %-18s #  %s\n", value, name, comment);
	else
		printf("%22s  %s\n", value, name);
}

static void counter_line(const struct variant_result *v, const struct counter_events *ev,
			 int e, const char *comment)
{
	char val[48];
	if (isfinite(v->ctr[e]))
		fmt_count(val, sizeof val, v->ctr[e]);
	else
		snprintf(val, sizeof val, "<%s>",
			 v->ctr_reason[e] && v->ctr_reason[e][0] ? v->ctr_reason[e]
								 : "not counted");
	stat_line(val, counter_slot_name(ev, e), isfinite(v->ctr[e]) ? comment : NULL);
}

static void print_block(const struct compare *c, const struct workload *w,
			const struct cell_result *r, const struct variant_summary *s,
			int i)
{
	const struct variant_result *v = &r->v[i];
	const struct arm *p = &c->p[i];
	char val[64], com[96];

	if (p->is_routine)
		printf("\n Performance counter stats for %c, routine %s, %zu rounds:\n\n",
		       'A' + i, p->spec, r->rounds);
	else
		printf("\n Performance counter stats for %c, %s (%s), %zu rounds:\n\n",
		       'A' + i, p->spec, p->run_text, r->rounds);
	double tc = v->ctr[CTR_TASK_CLOCK];
	if (isfinite(tc)) {
		fmt_grouped(val, sizeof val, tc / 1e6, 2);
		snprintf(com, sizeof com, "%.3f CPUs utilized",
			 v->ns_total > 0 ? tc / v->ns_total : NAN);
		stat_line(val, "msec task-clock", com);
	} else {
		snprintf(val, sizeof val, "<%s>", v->ctr_reason[CTR_TASK_CLOCK]);
		stat_line(val, "msec task-clock", NULL);
	}
	double cyc = v->ctr[CTR_CYCLES], ins = v->ctr[CTR_INSTRUCTIONS];
	double br = v->ctr[CTR_BRANCHES], bm = v->ctr[CTR_BRANCH_MISSES];
	snprintf(com, sizeof com, "%.3f GHz", cyc / (tc > 0 ? tc : NAN));
	counter_line(v, &c->events, CTR_CYCLES, isfinite(tc) ? com : NULL);
	snprintf(com, sizeof com, "%.2f insn per cycle", ins / cyc);
	counter_line(v, &c->events, CTR_INSTRUCTIONS, isfinite(cyc) && cyc > 0 ? com : NULL);
	snprintf(com, sizeof com, "%.2f per copy", br / (double)v->copies);
	counter_line(v, &c->events, CTR_BRANCHES, v->copies ? com : NULL);
	snprintf(com, sizeof com, "%.2f%% of all branches", 100 * bm / br);
	counter_line(v, &c->events, CTR_BRANCH_MISSES, isfinite(br) && br > 0 ? com : NULL);
	for (unsigned k = 0; k < c->events.n; k++) {
		int e = CTR_COUNT + (int)k;
		snprintf(com, sizeof com, "%.2f per copy", v->ctr[e] / (double)v->copies);
		counter_line(v, &c->events, e, v->copies ? com : NULL);
	}
	putchar('\n');

	snprintf(val, sizeof val, "%.6f", v->ns_total / 1e9);
	stat_line(val, "seconds time elapsed (in the timed copies)", NULL);
	fmt_count(val, sizeof val, v->bytes);
	snprintf(com, sizeof com, "%.2f GB/s overall",
		 v->ns_total > 0 ? v->bytes / v->ns_total : NAN);
	stat_line(val, "bytes copied", com);
	fmt_count(val, sizeof val, (double)v->copies);
	snprintf(com, sizeof com, "%.2f GB/s at the median", s->gbps);
	stat_line(val, "copies", com);
	char p10[32], p90[32];
	fmt_time(val, sizeof val, s->ns.median);
	fmt_time(p10, sizeof p10, s->ns.p10);
	fmt_time(p90, sizeof p90, s->ns.p90);
	snprintf(com, sizeof com, "median; p10 %s, p90 %s", p10, p90);
	stat_line(val, "per copy", com);
	if (w->unit_copies) {
		char name[64];
		fmt_time(val, sizeof val, s->ns.median * (double)w->unit_copies);
		snprintf(name, sizeof name, "per %s", w->unit);
		stat_line(val, name, "median");
	}
}

/* What arm i's copies go through, in words. */
static const char *arm_path(const struct compare *c, int i)
{
	if (c->p[i].is_routine)
		return c->fault_tolerant ? "the routine, called directly (the try contract, on "
					   "valid memory: no faults)"
					 : "the routine, called directly (no fault recovery)";
	return c->fault_tolerant ? "ucopy_policy_try (fault-tolerant, as copy_from_user)"
				 : "ucopy_policy_copy (no fault recovery)";
}

static void print_text(const struct compare *c, const struct workload *w,
		       const struct cell_result *r, const struct variant_summary *s,
		       const struct outcome *out)
{
	char cpu[256], feats[512], note[256];
	machine_cpu_line(cpu, sizeof cpu);
	printf("workload  %s: %s\n", w->name, w->what);
	printf("cpu       %s\n", cpu);
	const char *emu = machine_emulator();
	if (emu)
		printf("warning   emulated: this runs under '%s', so these timings measure the "
		       "emulator's translation, not a CPU: they mean nothing about either policy\n",
		       emu);
	if (c->assume) {
		assumed_features(c, feats, sizeof feats);
		printf("assumed   %s: %s\n", c->assume, feats);
	}
	for (int i = 0; i < 2; i++) {
		const struct arm *p = &c->p[i];
		if (p->is_routine)
			printf("%c         --routine %s -> %s from %s, the %s contract\n", 'A' + i,
			       p->spec, p->rt.symbol, p->rt.lib,
			       routine_contract_name(p->rt.contract));
		else
			printf("%c         %s -> %s\n", 'A' + i, p->spec, p->resolved_text);
	}
	for (int i = 0; i < 2; i++) {
		if (c->p[i].fit_note[0])
			printf("fitted    %c runs %s: %s\n", 'A' + i, c->p[i].run_text,
			       c->p[i].fit_note);
		if (c->p[i].try_note[0])
			printf("fitted    %c: ucopy_policy_try runs %s (not fault-capable)\n",
			       'A' + i, c->p[i].try_note);
	}
	rep_note(c, note, sizeof note);
	if (note[0])
		printf("note      this CPU %s, unlike the assumed one: the policies "
		       "are the assumed CPU's, rep movs speed is this CPU's\n", note);
	const char *path[2] = { arm_path(c, 0), arm_path(c, 1) };
	if (!strcmp(path[0], path[1]))
		printf("path      %s\n", path[0]);
	else
		printf("path      A %s; B %s\n", path[0], path[1]);
	double ghz = timer_tsc_ghz();
	printf("method    A and B interleaved: %zu rounds of %.0f copies each (mean); "
	       "budget %g s%s; timer %s", r->rounds,
	       r->rounds ? (double)r->v[0].copies / (double)r->rounds : 0.0, c->seconds,
	       c->runs ? " (with --runs: the rounds' length, not the time taken)" : "",
	       timer_name());
	if (isfinite(ghz))
		printf(" (%.3f GHz)", ghz);
	printf("; seed %llu\n", (unsigned long long)c->seed);
	char slow[512];
	measure_slow_note(slow, sizeof slow, measure_slow_rounds(r), r->rounds);
	if (slow[0])
		printf("host      %s\n", slow);

	for (int i = 0; i < 2; i++)
		print_block(c, w, r, &s[i], i);

	const struct stats_interval *q = &out->ratio;
	printf("\n B/A time per copy %.3f, %g%% CI [%.3f, %.3f] (median of the "
	       "per-round ratios over %zu rounds)\n", q->est, COMPARE_LEVEL * 100,
	       q->lo, q->hi, r->rounds);
	printf(" ratio of medians %.3f; Mann-Whitney U p = %.2g\n",
	       s[1].ns.median / s[0].ns.median, out->mw_p);
	printf(" %s\n", out->v.text);
}

static void json_num_or_null(struct json *j, const char *key, double x)
{
	json_key(j, key);
	json_double(j, x);
}

static void json_side(struct json *j, const struct compare *c,
		      const struct workload *w, const struct cell_result *r,
		      const struct variant_summary *s, int i)
{
	const struct arm *p = &c->p[i];
	const struct variant_result *v = &r->v[i];
	json_begin_object(j);
	json_key(j, "spec"); json_string(j, p->spec);
	json_key(j, "kind"); json_string(j, p->is_routine ? "routine" : "policy");
	json_key(j, "routine");
	routine_json(j, p->is_routine ? &p->rt : NULL);
	json_key(j, "resolved"); json_string(j, p->is_routine ? NULL : p->resolved_text);
	json_key(j, "policy"); json_string(j, p->is_routine ? NULL : p->run_text);
	json_key(j, "fitted"); json_string(j, p->fit_note[0] ? p->fit_note : NULL);
	json_key(j, "try_replaced"); json_string(j, p->try_note[0] ? p->try_note : NULL);
	double tc = v->ctr[CTR_TASK_CLOCK];
	json_num_or_null(j, "task_clock_ms", tc / 1e6);
	json_num_or_null(j, "cycles", v->ctr[CTR_CYCLES]);
	json_num_or_null(j, "instructions", v->ctr[CTR_INSTRUCTIONS]);
	json_num_or_null(j, "ipc", v->ctr[CTR_INSTRUCTIONS] / v->ctr[CTR_CYCLES]);
	json_num_or_null(j, "branches", v->ctr[CTR_BRANCHES]);
	json_num_or_null(j, "branch_misses", v->ctr[CTR_BRANCH_MISSES]);
	json_key(j, "events");
	json_begin_object(j);
	for (unsigned k = 0; k < c->events.n; k++)
		json_num_or_null(j, c->events.e[k].name, v->ctr[CTR_COUNT + k]);
	json_end_object(j);
	json_key(j, "counters_unavailable");
	json_begin_object(j);
	for (int e = 0; e < counter_slots(&c->events); e++)
		if (!isfinite(v->ctr[e])) {
			json_key(j, counter_slot_name(&c->events, e));
			json_string(j, v->ctr_reason[e]);
		}
	json_end_object(j);
	json_num_or_null(j, "elapsed_s", v->ns_total / 1e9);
	json_key(j, "copies"); json_uint(j, v->copies);
	json_num_or_null(j, "bytes", v->bytes);
	json_num_or_null(j, "gbps", s->gbps);
	json_num_or_null(j, "gbps_overall", v->ns_total > 0 ? v->bytes / v->ns_total : NAN);
	json_num_or_null(j, "ns_median", s->ns.median);
	json_num_or_null(j, "ns_p10", s->ns.p10);
	json_num_or_null(j, "ns_p90", s->ns.p90);
	json_num_or_null(j, "unit_ns", w->unit_copies
			 ? s->ns.median * (double)w->unit_copies : NAN);
	json_end_object(j);
}

static void print_json(const struct compare *c, const struct workload *w,
		       const struct cell_result *r, const struct variant_summary *s,
		       const struct outcome *out)
{
	struct json j;
	char feats[512], note[256];
	json_init(&j, stdout, 1);
	json_begin_object(&j);
	json_key(&j, "machine");
	machine_json(&j);
	json_key(&j, "config");
	json_begin_object(&j);
	json_key(&j, "a"); json_string(&j, c->p[0].spec);
	json_key(&j, "b"); json_string(&j, c->p[1].spec);
	json_key(&j, "workload"); json_string(&j, w->name);
	json_key(&j, "workload_description"); json_string(&j, w->what);
	json_key(&j, "regime");
	json_string(&j, w->kind == WORKLOAD_DIST ? dist_regime_name(w->regime) : NULL);
	json_key(&j, "cache"); json_string(&j, w->cache);
	json_key(&j, "unit"); json_string(&j, w->unit);
	json_key(&j, "unit_copies"); json_uint(&j, w->unit_copies ? w->unit_copies : 1);
	json_key(&j, "assume_features"); json_string(&j, c->assume);
	assumed_features(c, feats, sizeof feats);
	json_key(&j, "features"); json_string(&j, feats);
	rep_note(c, note, sizeof note);
	json_key(&j, "rep_speed_differs"); json_string(&j, note[0] ? note : NULL);
	json_key(&j, "fault_tolerant"); json_bool(&j, c->fault_tolerant);
	json_key(&j, "seconds"); json_double(&j, c->seconds);
	json_key(&j, "runs");
	if (c->runs)
		json_uint(&j, c->runs);
	else
		json_null(&j);
	json_key(&j, "margin"); json_double(&j, c->margin);
	json_key(&j, "level"); json_double(&j, COMPARE_LEVEL);
	json_key(&j, "seed"); json_uint(&j, c->seed);
	json_key(&j, "timer"); json_string(&j, timer_name());
	json_key(&j, "rounds"); json_uint(&j, r->rounds);
	json_key(&j, "slow_rounds"); json_uint(&j, measure_slow_rounds(r));
	json_key(&j, "batch_mean");
	json_double(&j, r->rounds ? (double)r->v[0].copies / (double)r->rounds : NAN);
	json_end_object(&j);
	json_key(&j, "a"); json_side(&j, c, w, r, &s[0], 0);
	json_key(&j, "b"); json_side(&j, c, w, r, &s[1], 1);
	json_key(&j, "ratio");
	json_begin_object(&j);
	json_key(&j, "method"); json_string(&j, "median of per-round B/A, order-statistic interval");
	json_num_or_null(&j, "est", out->ratio.est);
	json_num_or_null(&j, "lo", out->ratio.lo);
	json_num_or_null(&j, "hi", out->ratio.hi);
	json_num_or_null(&j, "level", COMPARE_LEVEL);
	json_end_object(&j);
	json_num_or_null(&j, "ratio_of_medians", s[1].ns.median / s[0].ns.median);
	json_num_or_null(&j, "mann_whitney_p", out->mw_p);
	json_key(&j, "verdict");
	json_begin_object(&j);
	json_key(&j, "kind"); json_string(&j, verdict_name(out->v.kind));
	json_num_or_null(&j, "change", out->v.change);
	json_key(&j, "text"); json_string(&j, out->v.text);
	json_end_object(&j);
	json_end_object(&j);
	json_finish(&j);
}

/* Adds chunk result q (variant order swapped when `swapped`) to r. */
static void add_chunk(struct cell_result *r, const struct cell_result *q,
		      int swapped)
{
	for (int i = 0; i < 2; i++) {
		const struct variant_result *from = &q->v[swapped ? 1 - i : i];
		struct variant_result *to = &r->v[i];
		memcpy(to->ns + r->rounds, from->ns, q->rounds * sizeof *from->ns);
		to->copies += from->copies;
		to->bytes += from->bytes;
		to->ns_total += from->ns_total;
		for (int e = 0; e < CTR_SLOTS; e++) {
			/* A counter missing from one chunk makes the total unknown. */
			to->ctr[e] = r->rounds == 0 ? from->ctr[e] : to->ctr[e] + from->ctr[e];
			if (!to->ctr_reason[e] || !to->ctr_reason[e][0])
				to->ctr_reason[e] = from->ctr_reason[e];
		}
	}
	r->rounds += q->rounds;
	if (r->batch == 0 || q->batch < r->batch)
		r->batch = q->batch;
}

/* Cells whose cold state comes from walking a region larger than the LLC
 * (no flushing) must be measured in one call: each call starts its walk at
 * the first slot again, which the call before may have left in cache. */
static int walks_cold(const struct cell *cell)
{
	size_t llc = cache_llc();
	return (!cell->src.flush && cell->src.region > llc) ||
	       (!cell->dst.flush && cell->dst.region > llc);
}

/* Times A and B on the workload for the budget (or exactly c->runs rounds),
 * as a series of short measure_cell() calls so that batches stay short (see
 * TARGET_ROUNDS); the variants trade places every call, so whatever the
 * start of a call does to its first batch falls on A and B alike.
 * @return : 0 and every round in r, or -1 with the reason in err. */
static int measure_ab(struct compare *c, struct workload *w,
		      const struct variant *v, struct cell_result *r,
		      char *err, size_t errlen)
{
	size_t want = c->runs ? c->runs : MAX_ROUNDS;
	memset(r, 0, sizeof *r);
	r->v = calloc(2, sizeof *r->v);
	if (!r->v)
		goto oom;
	r->nvariants = 2;
	for (int i = 0; i < 2; i++)
		if (!(r->v[i].ns = malloc(want * sizeof(double))))
			goto oom;

	struct measure *m = measure_new();
	if (!m)
		goto oom;
	double batch = c->seconds / (2.0 * (double)(c->runs ? c->runs : TARGET_ROUNDS));
	batch = fmin(MAX_BATCH_S, fmax(MIN_BATCH_S, batch));
	int one_call = walks_cold(&w->cell);
	struct variant order[2][2] = { { v[0], v[1] }, { v[1], v[0] } };
	c->progress = !c->quiet && isatty(2) && c->seconds > 1;
	c->started = clock_seconds();
	double deadline = c->started + c->seconds;
	for (unsigned chunk = 0; r->rounds < want; chunk++) {
		double now = clock_seconds();
		if (!c->runs && now >= deadline && r->rounds >= MIN_ROUNDS)
			break;
		size_t left = want - r->rounds;
		struct measure_opts o = {
			.seconds = one_call ? c->seconds
					    : batch * 2 * CORE_ROUNDS_PER_BUDGET,
			.min_rounds = (unsigned)(one_call ? left : left < 2 ? left : 2),
			.max_rounds = (unsigned)(one_call || left < 256 ? left : 256),
			.counters = 1,
			.events = &c->events,
		};
		if (one_call && !c->runs)
			o.min_rounds = MIN_ROUNDS;
		struct cell_result q;
		int swapped = chunk & 1;
		if (measure_cell(m, order[swapped], 2, &w->cell, &o, &q, err, errlen) < 0) {
			measure_free(m);
			cell_result_free(r);
			return -1;
		}
		add_chunk(r, &q, swapped);
		cell_result_free(&q);
		if (c->progress) {
			now = clock_seconds();
			double done = c->runs ? (double)r->rounds / (double)want
					      : (now - c->started) / c->seconds;
			double eta = done > 0 ? (now - c->started) * (1 - done) / done : 0;
			fprintf(stderr, "\rucopy compare: %3.0f%% (%.0f s left) ",
				fmin(done, 1) * 100, eta > 0 ? eta : 0);
		}
		if (one_call)
			break;
	}
	if (c->progress)
		fprintf(stderr, "\r%40s\r", "");
	measure_free(m);
	return 0;
oom:
	cell_result_free(r);
	snprintf(err, errlen, "out of memory");
	return -1;
}

/* A budget below the least that MIN_ROUNDS rounds of the workload take (the
 * measuring core's floor for its copies, and writing its buffers) is
 * refused before anything runs, as bench refuses a grid; with --runs the
 * rounds, not the budget, decide how long it runs. */
static int check_budget(const struct compare *c, const struct workload *w)
{
	size_t src, dst;
	cell_map_bytes(&w->cell, &src, &dst);
	double need = measure_cell_floor_seconds(&w->cell, 2, MIN_ROUNDS) +
		      measure_map_floor_seconds(src + dst);
	if (c->runs || need <= c->seconds)
		return 0;
	return cli_usage_error(CMD, "workload '%s' needs a budget of at least %.3f s for %d "
			       "rounds, more than --seconds %g (more seconds%s)", w->name, need,
			       MIN_ROUNDS, c->seconds, c->wo.sizes ? ", or smaller sizes" : "");
}

static void list_workloads(void)
{
	for (size_t i = 0; workload_list_name(i); i++)
		printf("%-12s %s\n", workload_list_name(i), workload_list_models(i));
}

/* The workload set up, A and B timed on it, and the outcome printed.
 * @return : the exit status. */
static int compare_workload(struct compare *c)
{
	struct workload w;
	char err[512];
	int rc, wrc = workload_setup(&w, &c->wo, err, sizeof err);
	if (wrc == -1)
		return cli_usage_error(CMD, "%s", err);
	if (wrc < 0) {
		cli_error("%s", err);
		return EXIT_FAIL;
	}
	if ((rc = check_budget(c, &w))) {
		workload_free(&w);
		return rc;
	}

	struct variant v[2];
	for (int i = 0; i < 2; i++)
		if (c->p[i].is_routine)
			variant_routine(&v[i], i ? "B" : "A", &c->p[i].rt);
		else
			variant_policy(&v[i], i ? "B" : "A", &c->p[i].run, c->fault_tolerant);
	struct cell_result r;
	rc = measure_ab(c, &w, v, &r, err, sizeof err);
	if (rc < 0) {
		workload_free(&w);
		cli_error("%s", err);
		return EXIT_FAIL;
	}

	struct variant_summary s[2];
	measure_summarize(&r, 0, COMPARE_LEVEL, s);
	struct outcome out;
	out.mw_p = stats_mann_whitney(r.v[0].ns, r.rounds, r.v[1].ns, r.rounds, NULL);
	compare_samples(r.v[0].ns, r.v[1].ns, r.rounds, c->margin, &out.ratio, &out.v);

	if (c->json)
		print_json(c, &w, &r, s, &out);
	else
		print_text(c, &w, &r, s, &out);
	cell_result_free(&r);
	workload_free(&w);
	return EXIT_OK;   /* main() checks that stdout was written */
}

int cmd_compare(int argc, char **argv)
{
	int dd = child_dashdash(argc, argv);
	if (dd)
		return compare_program(argc, argv, dd);
	struct compare c;
	memset(&c, 0, sizeof c);
	int rc = parse_args(&c, argc, argv);
	if (rc < 0) {
		list_workloads();
		return ferror(stdout) ? EXIT_FAIL : EXIT_OK;
	}
	if (rc)
		return rc;
	if (!c.have_seed)
		c.seed = rng_fresh_seed();
	c.wo.seed = c.seed;
	rc = resolve(&c);
	if (!rc)
		rc = compare_workload(&c);
	for (int i = 0; i < 2; i++)
		routine_close(&c.p[i].rt);
	return rc;
}
