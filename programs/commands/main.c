/*
 * main.c - the ucopy command: a copy-performance lab over libucopy.
 */
#include "cli.h"
#include "machine.h"
#include "ucopy.h"

#include <string.h>

static const struct command commands[] = {
	{ "features", "the CPU, its copy features and caches, and the active policy",
	  cmd_features, help_features, 0 },
	{ "bench", "time kernels and policies over sizes, alignments, distances, caches",
	  cmd_bench, help_bench, CLI_ENV_CHECK | CLI_ENV_PROFILE },
	{ "compare", "A/B two policies on a workload or a whole program: ratio, verdict",
	  cmd_compare, help_compare, CLI_ENV_CHECK | CLI_ENV_PROFILE },
	{ "calibrate", "measure this machine, derive the calibrated policy, save a profile",
	  cmd_calibrate, help_calibrate, CLI_ENV_CHECK },
	{ "run", "run a program with ucopy's memcpy (libucopy-preload.so)",
	  cmd_run, help_run, CLI_ENV_CHECK | CLI_ENV_PROFILE },
	{ "trace", "record a program's copies (sizes, alignments, order); summarize",
	  cmd_trace, help_trace, CLI_ENV_CHECK | CLI_ENV_PROFILE },
	{ "report", "run the lab and write one self-contained HTML report with charts",
	  cmd_report, help_report, CLI_ENV_CHECK | CLI_ENV_PROFILE },
	{ "derive", "the policy a machine's saved reports derive, without the machine",
	  cmd_derive, help_derive, 0 },
	{ "regret", "what auto's choice costs on each measured machine of the corpus",
	  cmd_regret, help_regret, 0 },
	{ "fleet", "many machines' saved reports side by side, on one page",
	  cmd_fleet, help_fleet, 0 },
	{ "kbuild", "build a kernel's usercopy source, as it is, into a routine to check",
	  cmd_kbuild, help_kbuild, 0 },
	{ "check", "check a copy routine of your own: copies, overlaps, faults, crashes",
	  cmd_check, help_check, 0 },
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static const struct command *find(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: ucopy COMMAND [OPTIONS]\n"
		   "       ucopy help COMMAND | --help | --version\n\n"
		   "ucopy is a copy-performance lab for libucopy %s.\n\ncommands:\n",
		ucopy_version_string());
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fputs("\nenvironment:\n"
	      "  UCOPY_POLICY    policy for ucopy_memcpy (a name or policy text)\n"
	      "  UCOPY_PROFILE   calibration profile to load\n"
	      "  UCOPY_FEATURES  CPU features the library may not use (-avx512f,-fsrm)\n"
	      "  UCOPY_DATA_DIR  the size distributions (default: those shipped)\n"
	      "  UCOPY_PRELOAD   libucopy-preload.so for run, trace and compare -- CMD\n"
	      "A UCOPY_POLICY, UCOPY_PROFILE or UCOPY_FEATURES the library would ignore,\n"
	      "or a UCOPY_POLICY naming a kernel this CPU does not run, is refused\n"
	      "(exit 2); `ucopy features` shows it and why.\n"
	      "\nexit status: 0 done, 1 the work failed (output that could not be\n"
	      "written included), 2 bad input (command line, environment, files)\n", f);
}

/* Every command's output ends here: what is still buffered is written, and
 * a write that failed at any point (a full disk, a closed pipe) makes the
 * run fail with one message, whatever the command returned. */
static int finish(int rc)
{
	int wrc = cli_stdout_check();
	return wrc ? wrc : rc;
}

static int run(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	const char *a = argv[1];
	int alone = !strcmp(a, "--help") || !strcmp(a, "-h") || !strcmp(a, "--version");
	if (alone && argc > 2)
		return cli_usage_error(NULL, "unexpected argument '%s' after '%s'", argv[2], a);
	if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(a, "--version")) {
		printf("ucopy %s\nbuilt from %s\n", ucopy_version_string(), machine_commit());
		return EXIT_OK;
	}
	if (!strcmp(a, "help")) {
		/* "ucopy help --help" asks for the same page as "ucopy help". */
		if (argc == 2 || (argc == 3 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h")))) {
			usage(stdout);
			return EXIT_OK;
		}
		if (argc > 3)
			return cli_usage_error(NULL, "unexpected argument '%s'", argv[3]);
		const struct command *c = find(argv[2]);
		if (!c)
			return cli_usage_error(NULL, "unknown command '%s'", argv[2]);
		c->help(stdout);
		return EXIT_OK;
	}
	if (a[0] == '-')
		return cli_usage_error(NULL, "unknown option '%s'", a);
	const struct command *c = find(a);
	if (!c)
		return cli_usage_error(NULL, "unknown command '%s'", a);
	/* Past "--" the words are the program's (ucopy run -- CMD --help). */
	for (int i = 2; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			c->help(stdout);
			return EXIT_OK;
		}
	if (c->env) {
		int rc = cli_env_check(c->env);
		if (rc)
			return rc;
	}
	return c->run(argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
	return finish(run(argc, argv));
}
