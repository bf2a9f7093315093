/*
 * check.c - `ucopy check --routine LIB.so:SYMBOL[:CONTRACT] ...`: a copy
 * routine of one's own through the correctness matrices (check_matrix.h),
 * run in a child process (check_child.h).  docs/check.md.
 */
#include "check_case.h"
#include "check_child.h"
#include "check_matrix.h"
#include "cli.h"
#include "output.h"
#include "routine.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CMD "check"
#define MAX_ROUTINES 16
#define DEFAULT_TIMEOUT 10.0

void help_check(FILE *f)
{
	fputs("usage: ucopy check --routine LIB.so:SYMBOL[:CONTRACT] [--routine ...]\n"
	      "                   [--max-failures N] [--timeout S] [--count exact|at-least]\n"
	      "                   [--faults both|src|dst] [--case CASE] [--quick]\n\n"
	      "Puts a copy routine of your own through the matrices ucopy checks its\n"
	      "kernels with, in a child process: every size 0..4096 and large ones to\n"
	      "4 MiB, every source and destination alignment pair mod 64 at 42 sizes,\n"
	      "(dst - src) mod 4096 distances, each copy against guard pages (PROT_NONE)\n"
	      "with canaries around dst; for memmove, overlaps both ways; for try, a\n"
	      "fault at each byte of the copy, on either side, as SIGSEGV (a PROT_NONE\n"
	      "page) and SIGBUS (a file mapping cut short).  CONTRACT is memcpy (the\n"
	      "default), memmove or try (size_t f(dst, src, n) returning the bytes not\n"
	      "copied, as copy_from_user; its fault sites listed with <ucopy-asm.h>).\n\n"
	      "options:\n"
	      "  --routine SPEC     LIB.so:SYMBOL[:CONTRACT] (a LIB with a '/' is a path,\n"
	      "                     else a name the loader finds); may be repeated\n"
	      "  --max-failures N   a routine's run stops at its Nth failing case\n"
	      "                     (default 1: the first; 0: no limit)\n"
	      "  --timeout S        seconds one case may run before it counts as hung\n"
	      "                     and is killed (default 10)\n"
	      "  --count MODE       try's count after a fault at byte k of n: exact (n - k,\n"
	      "                     the default) or at-least (n - k to n, and the first\n"
	      "                     n - count bytes copied: copy_from_user's own contract)\n"
	      "  --faults SIDE      try's faults on both sides (the default), or only on\n"
	      "                     src (copy_from_user, whose table lists only its\n"
	      "                     loads: a destination it cannot write is the\n"
	      "                     kernel's own bug) or only on dst (copy_to_user)\n"
	      "  --case CASE        only that case, as a FAIL line names it, e.g.\n"
	      "                     size=17,src_align=3,dst_align=5\n"
	      "  --quick            a smaller matrix: sizes to 300 and a few larger ones,\n"
	      "                     fewer alignment pairs, faults to 48 bytes\n\n"
	      "Each failing case is a line \"FAIL SPEC CASE: why\" on stdout and the\n"
	      "command that reruns it; a routine killed by a signal or hung fails the\n"
	      "case it was at, and a new child goes on from the next.  Then a line per\n"
	      "routine: its cases run, failed, and the seconds taken (docs/check.md).\n\n"
	      "exit status: 0 every routine passed, 1 a case failed (or a child could\n"
	      "not be run), 2 bad input (a missing file or symbol, an unknown contract,\n"
	      "a bad option or case: one message)\n", f);
}

struct args {
	const char *specs[MAX_ROUTINES];
	size_t nspecs;
	const char *case_text;
	const char *timeout_text;
	int quick;
	int fault_sides;    /* 1 << CHECK_SRC | 1 << CHECK_DST: --faults */
	struct check_opts o;
};

/* A whole number 0..max, decimal.  @return : 0, or -1. */
static int whole(const char *s, size_t max, size_t *out)
{
	size_t len = strlen(s), v = 0;
	if (!len || len > 10 || strspn(s, "0123456789") != len)
		return -1;
	for (size_t i = 0; i < len; i++)
		v = v * 10 + (size_t)(s[i] - '0');
	if (v > max)
		return -1;
	*out = v;
	return 0;
}

static int parse_args(struct args *a, int argc, char **argv)
{
	const char *maxf = NULL, *count = NULL, *faults = NULL;
	a->o.max_failures = 1;
	a->o.timeout = DEFAULT_TIMEOUT;
	for (int i = 1; i < argc; i++) {
		int rc = 0;
		const char *v;
		if ((v = cli_opt_value(CMD, argc, argv, &i, "--routine", CLI_REPEAT, &rc))) {
			if (a->nspecs == MAX_ROUTINES)
				return cli_usage_error(CMD, "too many --routine (at most %d)",
						       MAX_ROUTINES);
			a->specs[a->nspecs++] = v;
		} else if ((v = cli_opt_value(CMD, argc, argv, &i, "--max-failures", 0, &rc))) {
			maxf = v;
		} else if ((v = cli_opt_value(CMD, argc, argv, &i, "--timeout", 0, &rc))) {
			a->timeout_text = v;
		} else if ((v = cli_opt_value(CMD, argc, argv, &i, "--count", 0, &rc))) {
			count = v;
		} else if ((v = cli_opt_value(CMD, argc, argv, &i, "--faults", 0, &rc))) {
			faults = v;
		} else if ((v = cli_opt_value(CMD, argc, argv, &i, "--case", 0, &rc))) {
			a->case_text = v;
		} else if (rc) {
			return rc;
		} else if (!strcmp(argv[i], "--quick")) {
			a->quick = 1;
		} else {
			return cli_usage_error(CMD, "%s '%s'", argv[i][0] == '-' ?
					       "unknown option" : "unexpected argument", argv[i]);
		}
	}
	if (!a->nspecs)
		return cli_usage_error(CMD, "no routine (expected --routine "
				       "LIB.so:SYMBOL[:CONTRACT])");
	if (maxf && whole(maxf, 1000000000, &a->o.max_failures))
		return cli_usage_error(CMD, "bad --max-failures '%s' (expected a whole number "
				       "of cases, 0 for no limit)", maxf);
	if (a->timeout_text && cli_seconds(a->timeout_text, &a->o.timeout))
		return cli_usage_error(CMD, "bad --timeout '%s' (expected seconds above 0 and "
				       "at most %.0f, e.g. 10 or 0.5)", a->timeout_text,
				       CLI_MAX_SECONDS);
	if (count && strcmp(count, "exact") && strcmp(count, "at-least"))
		return cli_usage_error(CMD, "bad --count '%s' (expected exact or at-least)",
				       count);
	a->o.at_least = count && !strcmp(count, "at-least");
	a->fault_sides = 1 << CHECK_SRC | 1 << CHECK_DST;
	if (faults && !strcmp(faults, "src"))
		a->fault_sides = 1 << CHECK_SRC;
	else if (faults && !strcmp(faults, "dst"))
		a->fault_sides = 1 << CHECK_DST;
	else if (faults && strcmp(faults, "both"))
		return cli_usage_error(CMD, "bad --faults '%s' (expected both, src or dst)", faults);
	if (faults && a->case_text)
		return cli_usage_error(CMD, "--faults with --case (the case names its side)");
	if (a->quick && a->case_text)
		return cli_usage_error(CMD, "--quick with --case (a case is run alone)");
	return 0;
}

struct out {
	const struct routine *r;
	const struct args *a;
};

static void on_fail(void *ctx, const struct check_case *c, const char *why)
{
	const struct out *u = ctx;
	char spaced[160], commas[160];
	check_case_format(c, ' ', spaced, sizeof spaced);
	check_case_format(c, ',', commas, sizeof commas);
	printf("FAIL %s %s: %s\n  rerun: ucopy check --routine ", u->r->spec, spaced, why);
	shell_word(stdout, u->r->spec);
	printf(" --case %s", commas);
	if (u->a->o.at_least && c->kind == CHECK_FAULT)
		fputs(" --count at-least", stdout);
	if (u->a->timeout_text)
		printf(" --timeout %s", u->a->timeout_text);
	putchar('\n');
	fflush(stdout);
}

static void on_sites(void *ctx, int count, int err)
{
	const struct out *u = ctx;
	if (count > 0)
		return;
	if (count == 0)
		cli_error("note: %s: its object lists no fault sites (UCOPY_EXTABLE of "
			  "<ucopy-asm.h>): ucopy's handler recovers none of its faults, so each "
			  "injected fault is expected to fail as a crash", u->r->spec);
	else
		cli_error("note: %s: its fault sites were not registered (%s): ucopy's "
			  "handler recovers none of its faults, so each injected fault is "
			  "expected to fail as a crash", u->r->spec,
			  err == EINVAL ? "a site is malformed: its instruction or fixup is not "
			  "in the object's code, or an instruction is listed twice" :
			  strerror(err));
}

/* The case of --case, which every routine's contract must take.
 * @return : 0, or EXIT_USAGE. */
static int one_case(const struct args *a, const struct routine *rs, size_t page,
		    struct check_case *c)
{
	char err[256];
	if (check_case_parse(a->case_text, page, c, err, sizeof err))
		return cli_usage_error(CMD, "bad --case '%s': %s", a->case_text, err);
	for (size_t i = 0; i < a->nspecs; i++)
		if (!check_case_fits(c, rs[i].contract))
			return cli_usage_error(CMD, "--case '%s' is %s case, for a %s routine "
					       "('%s' is %s)", a->case_text,
					       c->kind == CHECK_FAULT ? "a fault" : "an overlap",
					       c->kind == CHECK_FAULT ? "try" : "memmove", rs[i].spec,
					       routine_contract_name(rs[i].contract));
	return 0;
}

/* r's cases: --case's one, or its contract's matrix.  @return : 0, or -1
 * when out of memory. */
static int cases(const struct args *a, const struct routine *r, const struct check_case *one,
		 struct check_matrix *m)
{
	if (a->case_text)
		return check_matrix_add(m, one);
	if (check_matrix_build(m, r->contract, a->quick, m->page))
		return -1;
	size_t kept = 0;
	for (size_t i = 0; i < m->n; i++)
		if (m->v[i].kind != CHECK_FAULT || (a->fault_sides & 1 << m->v[i].side))
			m->v[kept++] = m->v[i];
	m->n = kept;
	return 0;
}

/* Runs r, prints its summary line.  @return : 0 when it passed, 1 when a
 * case failed, -1 when it could not be run (said). */
static int check_one(const struct args *a, const struct routine *r, const struct check_matrix *m,
		     struct check_arena *arena)
{
	char err[512];
	struct out u = { .r = r, .a = a };
	struct check_report rep = { .ctx = &u, .fail = on_fail, .sites = on_sites };
	struct check_result res;
	if (check_run(r, m, arena, &a->o, &rep, &res, err, sizeof err)) {
		cli_error("check: %s: %s", r->spec, err);
		return -1;
	}
	printf("%s: %zu case%s run, %zu failed", r->spec, res.run, res.run == 1 ? "" : "s",
	       res.failed);
	if (res.stopped)
		printf(" (stopped at --max-failures %zu)", a->o.max_failures);
	printf(", %.2f s\n", res.seconds);
	fflush(stdout);
	return res.failed > 0;
}

/* Each routine's cases built just before it runs (a try routine's are
 * 13 MB), in buffers made for the largest so far. */
static int check_all(const struct args *a, struct routine *rs, size_t page,
		     const struct check_case *one)
{
	struct check_matrix m = { .page = page };
	struct check_arena *arena = NULL;
	size_t span = 0;
	int failed = 0, rc = 0;
	char err[512];
	for (size_t i = 0; i < a->nspecs && !rc; i++) {
		if (cases(a, &rs[i], one, &m)) {
			cli_error("check: out of memory for the cases");
			rc = EXIT_FAIL;
			break;
		}
		if (!arena || m.max_span > span) {
			check_arena_free(arena);
			span = m.max_span;
			if (!(arena = check_arena_new(span, page, err, sizeof err))) {
				cli_error("check: %s", err);
				rc = EXIT_FAIL;
				break;
			}
		}
		int k = check_one(a, &rs[i], &m, arena);
		if (k < 0)
			rc = EXIT_FAIL;
		failed |= k > 0;
		check_matrix_free(&m);
	}
	check_matrix_free(&m);
	check_arena_free(arena);
	return rc ? rc : failed ? EXIT_FAIL : EXIT_OK;
}

int cmd_check(int argc, char **argv)
{
	struct args a;
	memset(&a, 0, sizeof a);
	int rc = parse_args(&a, argc, argv);
	if (rc)
		return rc;
	struct routine *rs = calloc(a.nspecs, sizeof *rs);
	if (!rs) {
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	char err[640];
	for (size_t i = 0; i < a.nspecs && !rc; i++)
		if (routine_open(a.specs[i], &rs[i], err, sizeof err))
			rc = cli_usage_error(CMD, "bad --routine '%s': %s", a.specs[i], err);
	long sc = sysconf(_SC_PAGESIZE);
	size_t page = sc > 0 ? (size_t)sc : 4096;
	struct check_case one;
	if (!rc && a.case_text)
		rc = one_case(&a, rs, page, &one);
	if (!rc)
		rc = check_all(&a, rs, page, &one);
	for (size_t i = 0; i < a.nspecs; i++)
		routine_close(&rs[i]);
	free(rs);
	return rc;
}
