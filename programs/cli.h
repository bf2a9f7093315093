/*
 * cli.h - what the ucopy commands share: the command table, error reporting
 * and exit statuses.
 */
#ifndef UCOPY_CLI_H
#define UCOPY_CLI_H

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
};

/* Each command, in its own file. */
int cmd_features(int argc, char **argv);
void help_features(FILE *f);
int cmd_bench(int argc, char **argv);
void help_bench(FILE *f);
int cmd_compare(int argc, char **argv);
void help_compare(FILE *f);
int cmd_calibrate(int argc, char **argv);
void help_calibrate(FILE *f);
int cmd_report(int argc, char **argv);
void help_report(FILE *f);

/* Prints "ucopy: <message>" on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* cli_error() plus "Try 'ucopy help CMD'." and returns EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
