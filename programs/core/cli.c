/*
 * cli.c - error reporting and option parsing shared by the commands.
 */
#include "cli.h"
#include "counters.h"
#include "ucopy.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The longest quoted value a message shows whole: a path fits; a value
 * pasted by mistake, thousands of bytes, is cut to its start. */
#define QUOTED_MAX 200

/* Whether the ' at q opens a quoted value: at the start or after a space,
 * '(' or '=', not inside a word ("a process's"). */
static int opens(const char *m, const char *q)
{
	return q == m || strchr(" (=", q[-1]);
}

/* Whether the ' at q closes one: at the end or before a space, ':', ',',
 * ')' or '.', so that a value's own apostrophe ("it's") does not. */
static int closes(const char *q)
{
	return !q[1] || strchr(" :,).", q[1]);
}

/* Writes the message with each quoted value ('...') longer than QUOTED_MAX
 * cut to at most its first QUOTED_MAX bytes (never inside a character or
 * an escape) and "...". */
static void put_message(const char *fmt, va_list ap)
{
	va_list again;
	va_copy(again, ap);
	int n = vsnprintf(NULL, 0, fmt, again);
	va_end(again);
	char *m = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (!m) {
		vfprintf(stderr, fmt, ap);
		return;
	}
	vsnprintf(m, (size_t)n + 1, fmt, ap);
	const char *p = m;
	for (const char *q = m; (q = strchr(q, '\'')) != NULL;) {
		const char *end = NULL;
		if (opens(m, q))
			for (const char *e = q + 1; (e = strchr(e, '\'')) != NULL && !end; e++)
				if (closes(e))
					end = e;
		if (!end) {
			q++;
			continue;
		}
		size_t len = (size_t)(end - q - 1);
		if (len > QUOTED_MAX) {
			/* The cut at the end of a whole escape (\xNN, \\) or
			 * UTF-8 sequence, walked from the value's start. */
			size_t cut = 0;
			for (size_t k = 0; k < QUOTED_MAX;) {
				unsigned char c = (unsigned char)q[1 + k];
				size_t step = c == '\\' ? (q[2 + k] == 'x' ? 4 : 2)
					    : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
				if (k + step > QUOTED_MAX)
					break;
				k += step;
				cut = k;
			}
			fwrite(p, 1, (size_t)(q + 1 - p) + cut, stderr);
			fputs("...", stderr);
			p = end;
		}
		q = end + 1;
	}
	fputs(p, stderr);
	free(m);
}

void cli_error(const char *fmt, ...)
{
	va_list ap;
	fputs("ucopy: ", stderr);
	va_start(ap, fmt);
	put_message(fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fputs("ucopy: ", stderr);
	va_start(ap, fmt);
	put_message(fmt, ap);
	va_end(ap);
	if (cmd)
		fprintf(stderr, " (try 'ucopy help %s')\n", cmd);
	else
		fputs(" (try 'ucopy --help')\n", stderr);
	return EXIT_USAGE;
}

int cli_stdout_check(void)
{
	static int reported;
	errno = 0;
	if (!fflush(stdout) && !ferror(stdout))
		return 0;
	/* errno is the failed flush's; a write that failed earlier left only
	 * the error flag. */
	if (!reported)
		cli_error("cannot write to stdout: %s", errno ? strerror(errno) : "a write failed");
	reported = 1;
	return EXIT_FAIL;
}

static int digit(char c)
{
	return c >= '0' && c <= '9';
}

/* A separate value that starts with '-' is the next option unless it looks
 * like a negative number (no option does: "--sizes -5" is a size for the
 * size parser to refuse by name) or the option says values may look like
 * that. */
static int dash_value_ok(const char *v, unsigned flags)
{
	if (!v[1])
		return (flags & CLI_VALUE_STDIO) != 0;
	if (digit(v[1]) || (v[1] == '.' && digit(v[2])))
		return 1;
	return (flags & CLI_VALUE_DASH) && v[1] != '-';
}

/* Whether word a is option `name`, as "NAME" or "NAME=VALUE". */
static int is_opt(const char *a, const char *name)
{
	size_t n = strlen(name);
	return !strncmp(a, name, n) && (!a[n] || a[n] == '=');
}

/* Given twice, the last would win and the first be dropped unseen.  An
 * earlier word that spells the option is the option: a value never starts
 * with "--", and one like "-o" only where a feature list may
 * (CLI_VALUE_DASH), which its own parser then refuses.
 * @return : 0, or EXIT_USAGE after the message. */
static int given_before(const char *cmd, char **argv, int i, const char *name,
			const char *alias)
{
	for (int j = 1; j < i; j++) {
		if (is_opt(argv[j], name))
			return cli_usage_error(cmd, "option '%s' given twice", name);
		if (alias && is_opt(argv[j], alias))
			return cli_usage_error(cmd, "option '%s' given twice (first as '%s')",
					       name, alias);
	}
	return 0;
}

const char *cli_opt_value2(const char *cmd, int argc, char **argv, int *i,
			   const char *name, const char *alias, unsigned flags, int *rc)
{
	if (*rc)
		return NULL;
	const char *as = is_opt(argv[*i], name) ? name : is_opt(argv[*i], alias) ? alias : NULL;
	if (!as)
		return NULL;
	if ((*rc = given_before(cmd, argv, *i, as, as == name ? alias : name)))
		return NULL;
	return cli_opt_value(cmd, argc, argv, i, as, flags | CLI_REPEAT, rc);
}

const char *cli_opt_value(const char *cmd, int argc, char **argv, int *i,
			  const char *name, unsigned flags, int *rc)
{
	if (*rc)
		return NULL;
	const char *a = argv[*i];
	size_t n = strlen(name);
	if (!is_opt(a, name))
		return NULL;
	if (!(flags & CLI_REPEAT) && (*rc = given_before(cmd, argv, *i, name, NULL)))
		return NULL;
	if (a[n] == '=')
		return a + n + 1;
	const char *v = *i + 1 < argc ? argv[*i + 1] : NULL;
	if (!v) {
		*rc = cli_usage_error(cmd, "option '%s' needs a value", name);
		return NULL;
	}
	if (v[0] == '-' && !dash_value_ok(v, flags)) {
		*rc = cli_usage_error(cmd, "option '%s' needs a value, not the option '%s' "
				      "(a value that starts with '-': %s=%s)", name, v, name, v);
		return NULL;
	}
	++*i;
	return v;
}

int cli_seconds(const char *arg, double *out)
{
	/* Decimal only: strtod also reads hex ("0x1p-3"), "inf", "nan" and
	 * leading blanks, none of which anyone means as a time. */
	size_t len = strlen(arg);
	char *end = NULL;
	double v = NAN;
	if (len && strspn(arg, "0123456789.eE+-") == len && strpbrk(arg, "0123456789")) {
		errno = 0;
		v = strtod(arg, &end);
		if (end != arg + len || errno)
			v = NAN;
	}
	if (!(v > 0) || v > CLI_MAX_SECONDS)
		return -1;
	*out = v;
	return 0;
}

int cli_parse_seconds(const char *cmd, const char *arg, double *out)
{
	if (cli_seconds(arg, out))
		return cli_usage_error(cmd, "bad budget '%s' (expected seconds above 0 and "
				       "at most %.0f, e.g. 2 or 0.5)", arg, CLI_MAX_SECONDS);
	return 0;
}

int cli_parse_seed(const char *cmd, const char *arg, uint64_t *out)
{
	/* Base 10 only: base 0 would read "010" as 8 and "0x10" as 16. */
	size_t len = strlen(arg);
	char *end = NULL;
	unsigned long long v = 0;
	int ok = len && strspn(arg, "0123456789") == len;
	if (ok) {
		errno = 0;
		v = strtoull(arg, &end, 10);
		ok = end == arg + len && !errno;
	}
	if (!ok)
		return cli_usage_error(cmd, "bad seed '%s' (expected a number 0..2^64-1)",
				       arg);
	*out = v;
	return 0;
}

int cli_parse_assume(const char *cmd, const char *list, uint64_t *out)
{
	char err[256];
	if (ucopy_features_parse(list, ucopy_cpu()->features, out, err, sizeof err) < 0)
		return cli_usage_error(cmd, "bad --assume-features '%s': %s", list, err);
	return 0;
}

int cli_parse_memory(const char *cmd, const char *arg, size_t *out)
{
	char err[128] = "";
	size_t v;
	if (ucopy_size_parse(arg, &v, err, sizeof err) < 0 || v < ((size_t)1 << 20))
		return cli_usage_error(cmd, "bad memory limit '%s'%s (expected a size of 1M "
				       "or more, e.g. 512M or 4G)", arg,
				       strlen(err) > 13 && !strcmp(err + strlen(err) - 13, " is too large")
				       ? ": too large for a size" : "");
	*out = v;
	return 0;
}

size_t cli_default_max_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	if (pages <= 0 || page <= 0)
		return (size_t)4 << 30;
	return (size_t)pages / 2 * (size_t)page;
}

static size_t mib_up(size_t n)
{
	return n / (1u << 20) + (n % (1u << 20) != 0);
}

int cli_check_memory(const char *cmd, size_t need, size_t limit, int given)
{
	if (need <= limit)
		return 0;
	return cli_usage_error(cmd, "the buffers need %zu MiB, more than --max-memory %zu MiB%s "
			       "(smaller sizes, or a larger --max-memory)", mib_up(need),
			       limit >> 20, given ? "" : " (the default: half the memory)");
}

int cli_parse_event(const char *cmd, const char *arg, struct counter_events *ev)
{
	char err[512];
	if (counter_events_add(ev, arg, NULL, err, sizeof err) < 0)
		return cli_usage_error(cmd, "--event: %s", err);
	return 0;
}
