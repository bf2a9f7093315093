/*
 * run.c - `ucopy run [--policy P] [--no-inherit] -- CMD ARGS`: a program
 * with ucopy's memcpy, through libucopy-preload.so.
 */
#include <stdio.h>
#include <string.h>

#include "child.h"
#include "cli.h"

#define CMD "run"

void help_run(FILE *f)
{
	fputs("usage: ucopy run [--policy P] [--no-inherit] -- CMD [ARGS...]\n\n"
	      "Runs CMD with libucopy-preload.so in LD_PRELOAD: its memcpy, memmove,\n"
	      "mempcpy and their _chk forms are ucopy's, in every thread, in\n"
	      "libraries it dlopens and before its main.  Only dynamically linked\n"
	      "programs can be changed so: a static one, or a setuid one run by another\n"
	      "user, runs with its own copies, and ucopy says so when it ends (when\n"
	      "neither CMD nor any program it started loaded the interposer).\n\n"
	      "options:\n"
	      "  --policy P     the policy (UCOPY_POLICY): a named policy, a kernel name\n"
	      "                 or policy text; without it, UCOPY_POLICY as set, else\n"
	      "                 the calibration profile, else auto.  One naming a\n"
	      "                 kernel this CPU does not run is refused\n"
	      "  --no-inherit   CMD keeps the interposer, the programs it executes do\n"
	      "                 not (by default they inherit it, as LD_PRELOAD)\n\n"
	      "The interposer is found beside the command (the build tree), in ../lib\n"
	      "beside its bin/, or where make install put it; UCOPY_PRELOAD names\n"
	      "another.  While CMD runs, ucopy ignores SIGINT and SIGQUIT (the\n"
	      "terminal sends them to CMD too) and passes SIGTERM and SIGHUP on to it.\n\n"
	      "exit status: CMD's; 128+N when it was killed by signal N; 2 bad input\n"
	      "(no '--', an unknown policy, a CMD that cannot be run: one message)\n", f);
}

int cmd_run(int argc, char **argv)
{
	const char *policy = NULL;
	int no_inherit = 0;
	int dd = child_dashdash(argc, argv);
	int end = dd ? dd : argc;
	for (int i = 1; i < end; i++) {
		int rc = 0;
		const char *v;
		if ((v = cli_opt_value(CMD, end, argv, &i, "--policy", 0, &rc)))
			policy = v;
		else if (rc)
			return rc;
		else if (!strcmp(argv[i], "--no-inherit"))
			no_inherit = 1;
		else
			return cli_usage_error(CMD, "unexpected argument '%s' (the program "
					       "comes after '--')", argv[i]);
	}
	if (!dd)
		return cli_usage_error(CMD, "no program to run (expected '-- CMD [ARGS...]')");
	if (dd + 1 >= argc)
		return cli_usage_error(CMD, "no program after '--'");
	char err[512], so[4096];
	if (policy && cli_policy_runnable(policy, err, sizeof err) < 0)
		return cli_usage_error(CMD, "bad --policy '%s': %s", policy, err);
	if (cli_preload_find(so, sizeof so))
		return EXIT_USAGE;
	struct child_opts o = { .preload = so, .policy = policy,
				.no_inherit = no_inherit, .forward_signals = 1 };
	struct child_result r;
	if (child_run(argv + dd + 1, &o, &r, err, sizeof err) < 0) {
		cli_error("%s", err);
		return EXIT_USAGE;
	}
	if (!r.preload_loaded) {
		child_not_loaded(argv + dd + 1, err, sizeof err);
		cli_error("warning: %s: it ran with its own copies", err);
	}
	return child_exit_code(r.status);
}
