/*
 * cli.c - error reporting shared by the commands.
 */
#include "cli.h"

#include <stdarg.h>

void cli_error(const char *fmt, ...)
{
	va_list ap;
	fputs("ucopy: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fputs("ucopy: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (cmd)
		fprintf(stderr, " (try 'ucopy help %s')\n", cmd);
	else
		fputs(" (try 'ucopy --help')\n", stderr);
	return EXIT_USAGE;
}
