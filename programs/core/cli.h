/*
 * cli.h - what the ucopy commands share: the command table, error reporting,
 * exit statuses, and the parsing of the options every command has.
 */
#ifndef UCOPY_CLI_H
#define UCOPY_CLI_H

#include <stdint.h>
#include <stdio.h>

/* Exit statuses. */
#define EXIT_OK    0
#define EXIT_FAIL  1  /* the work failed (I/O error, measurement impossible) */
#define EXIT_USAGE 2  /* bad input: command line, environment or files */

struct command {
	const char *name;
	const char *summary;              /* one line for `ucopy --help` */
	int (*run)(int argc, char **argv);  /* argv[0] is the command name */
	void (*help)(FILE *f);            /* the command's --help text */
	unsigned env;                     /* CLI_ENV_*: what main() checks first */
};

/* The environment the library reads: main() refuses, before the command
 * runs, a UCOPY_FEATURES or UCOPY_POLICY that the library would ignore or
 * a UCOPY_POLICY naming a kernel this CPU does not run (CLI_ENV_CHECK),
 * and a UCOPY_PROFILE that does not load (CLI_ENV_PROFILE too).
 * `calibrate` skips the profile, which it is there to write; `features`
 * checks after its report, which shows why a setting is ignored. */
#define CLI_ENV_CHECK   1u
#define CLI_ENV_PROFILE 2u
/* One message naming the variable and what was expected (env.c).
 * @return : 0, or EXIT_USAGE. */
int cli_env_check(unsigned what);

/* A policy naming a kernel this CPU does not run: the library would run
 * another in its place, and a lab result would carry the wrong name.  So
 * the commands refuse it (env.c).
 * cli_policy_fits() : 0, or -1 with "it names kernels this CPU does not
 * run: avx512 -> avx2 (CPU lacks avx512f)" in err, and what UCOPY_FEATURES
 * removed where the mask is the cause.
 * cli_policy_runnable() : ucopy_policy_resolve() for this CPU, then
 * cli_policy_fits(); -1 with the reason in err.
 * cli_mask_note() : " (UCOPY_FEATURES removed avx512f)" in buf where the CPU
 * runs k and only the mask stops it, else "". */
struct ucopy_policy;
struct ucopy_kernel;
int cli_policy_fits(const struct ucopy_policy *p, char *err, size_t errlen);
int cli_policy_runnable(const char *spec, char *err, size_t errlen);
void cli_mask_note(const struct ucopy_kernel *k, char *buf, size_t len);

/* preload_find() (child.h), its failure said on stderr: a bad
 * UCOPY_PRELOAD shown as the other variables are.
 * @return : 0, or EXIT_USAGE. */
int cli_preload_find(char *path, size_t len);

/* Each command, in its own file. */
int cmd_features(int argc, char **argv);
void help_features(FILE *f);
int cmd_bench(int argc, char **argv);
void help_bench(FILE *f);
int cmd_compare(int argc, char **argv);
void help_compare(FILE *f);
int cmd_calibrate(int argc, char **argv);
void help_calibrate(FILE *f);
int cmd_run(int argc, char **argv);
void help_run(FILE *f);
int cmd_trace(int argc, char **argv);
void help_trace(FILE *f);
int cmd_report(int argc, char **argv);
void help_report(FILE *f);
int cmd_derive(int argc, char **argv);
void help_derive(FILE *f);
int cmd_regret(int argc, char **argv);
void help_regret(FILE *f);
int cmd_fleet(int argc, char **argv);
void help_fleet(FILE *f);
int cmd_kbuild(int argc, char **argv);
void help_kbuild(FILE *f);
int cmd_check(int argc, char **argv);
void help_check(FILE *f);

/* Prints "ucopy: <message>" on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* cli_error() plus " (try 'ucopy help CMD')" (" (try 'ucopy --help')" when
 * cmd is NULL) and returns EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Writes what stdout still buffers and checks that every write to it
 * succeeded; prints "ucopy: cannot write to stdout: REASON" the first time
 * one did not.  main() calls it once every command is done.
 * @return : 0, or EXIT_FAIL. */
int cli_stdout_check(void);

/*=====   Options   =====*/

/* What a value may look like besides not starting with '-' (which is taken
 * for the next option: "-o -q" is a missing file name, not a file "-q").
 * A negative number ("-1", "-.5") is always a value, for the option's parser
 * to refuse by name ("bad size '-5'"): no option looks like one. */
#define CLI_VALUE_NUMBER 1u  /* kept for the callers that name it: implied */
#define CLI_VALUE_DASH   2u  /* one leading '-' ("-fsrm"), never "--..." */
#define CLI_VALUE_STDIO  4u  /* a lone "-" (standard output) */
/* The option may be given more than once (each adds to a list); any other
 * given twice is refused ("option '--sizes' given twice"). */
#define CLI_REPEAT       8u

/* The value of option `name` at argv[*i], given as "NAME VALUE" (*i then
 * moves past VALUE) or as "NAME=VALUE" (taken as it is, whatever it starts
 * with).  flags: CLI_VALUE_* and CLI_REPEAT above.
 * @return : the value; NULL when argv[*i] is not `name` (*rc unchanged), or
 *           when the value is missing or looks like an option, or the
 *           option was given before (without CLI_REPEAT): then one message
 *           ("option 'NAME' needs a value", naming the option it found
 *           instead and the NAME=VALUE form; "option 'NAME' given twice")
 *           is printed and *rc is EXIT_USAGE.
 *           Does nothing and returns NULL when *rc is already non-zero, so
 *           calls can be chained in one if/else-if. */
const char *cli_opt_value(const char *cmd, int argc, char **argv, int *i,
			  const char *name, unsigned flags, int *rc);
/* cli_opt_value() for an option with two spellings ("-o", "--output"): one
 * given after the other is given twice too. */
const char *cli_opt_value2(const char *cmd, int argc, char **argv, int *i,
			   const char *name, const char *alias, unsigned flags, int *rc);

struct counter_events;
/* An --event value (counters.h: counter_event_parse()), added to ev.
 * @return : 0, or EXIT_USAGE after "--event: bad event 'ARG' (...)", "too
 *           many events" and the like on stderr. */
int cli_parse_event(const char *cmd, const char *arg, struct counter_events *ev);

/* Every time budget (--seconds): decimal, above 0 and at most a day. */
#define CLI_MAX_SECONDS 86400.0

/* A --seconds value: a decimal number (no hex, inf or nan) above 0 and at
 * most CLI_MAX_SECONDS.
 * @return : 0, or EXIT_USAGE after "bad budget 'ARG' (...)" on stderr. */
int cli_parse_seconds(const char *cmd, const char *arg, double *out);
/* The same number without the message, for an option that names itself
 * (check's --timeout).  @return : 0, or -1. */
int cli_seconds(const char *arg, double *out);
/* A --seed value: a decimal number 0..2^64-1 ("010" is ten).
 * @return : 0, or EXIT_USAGE after "bad seed 'ARG' (...)" on stderr. */
int cli_parse_seed(const char *cmd, const char *arg, uint64_t *out);

/* An --assume-features value (compare, features, report): this CPU's
 * features changed by `list` as ucopy_features_parse() reads it ("-fsrm"
 * of a CPU without fsrm changes nothing; "none,sse2" is the whole set).
 * One parser, so that a list one command takes the others take too.
 * @return : 0 and the set in *out, or EXIT_USAGE after "bad
 *           --assume-features 'LIST': unknown feature 'frob'" on stderr. */
int cli_parse_assume(const char *cmd, const char *list, uint64_t *out);

/* A --max-memory value: a size with optional K, M or G, 1M or more.
 * @return : 0, or EXIT_USAGE after "bad memory limit 'ARG' (...)". */
int cli_parse_memory(const char *cmd, const char *arg, size_t *out);
/* The --max-memory of a run that gives none: half the machine's memory
 * (4 GiB when the system does not say). */
size_t cli_default_max_memory(void);
/* Refuses a run whose buffers need `need` bytes when the limit is `limit`
 * (given: it came from --max-memory).
 * @return : 0 when need <= limit, else EXIT_USAGE after "the buffers need N
 *           MiB, more than --max-memory ..." on stderr. */
int cli_check_memory(const char *cmd, size_t need, size_t limit, int given);

#endif
