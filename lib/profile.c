/*
 * profile.c - reading the calibration profile `ucopy calibrate` writes.
 *
 * Assumptions: Linux (open/read); the profile was written by the same
 * machine.  The reader is strict because a profile steers every copy of every
 * program linked with libucopy: it is used only when it parses completely,
 * ends with its "end" line (a write cut short is caught), was measured on a
 * CPU with the same identity and features as this one, and names only kernels
 * this CPU runs.  Anything else rejects the whole file with "PATH:LINE: why".
 *
 * It allocates nothing and uses no stdio: it runs at the first ucopy_memcpy(),
 * which may be inside an allocator or a program that interposes malloc.
 * Numbers are parsed by hand, not with strtod(), so that a program's
 * LC_NUMERIC cannot change what a profile means.
 *
 * The format (docs/calibrate.md): one "KEY VALUE..." per line, fields
 * separated by single spaces or tabs, '#' comment lines and blank lines
 * allowed anywhere after the first line, after 'end' too.
 */
#include "internal.h"
#include "profile_keys.h"
#include "env.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Far more than a profile needs (about 20 KiB), little enough to read at
 * startup. */
#define PROFILE_MAX_BYTES ((size_t)1 << 20)
#define MAX_FIELDS 64

/*=====   Default path   =====*/

int ucopy_profile_default_path(char *buf, size_t len)
{
	const char *xdg = ucopy_getenv("XDG_CACHE_HOME");
	const char *home = ucopy_getenv("HOME");
	int n;

	if (!buf || !len)
		return -1;
	buf[0] = 0;
	/* The XDG base directory spec: a relative XDG_CACHE_HOME is invalid
	 * and is to be ignored. */
	if (xdg && xdg[0] == '/')
		n = snprintf(buf, len, "%s/ucopy/profile", xdg);
	else if (home && home[0] == '/')
		n = snprintf(buf, len, "%s/.cache/ucopy/profile", home);
	else
		return -1;
	if (n < 0 || (size_t)n >= len) {
		buf[0] = 0;
		return -1;
	}
	return 0;
}

int ucopy_profile_find(char *buf, size_t len)
{
	const char *env = ucopy_getenv("UCOPY_PROFILE");

	if (!buf || !len)
		return 0;
	buf[0] = 0;
	if (env && env[0]) {
		int n = snprintf(buf, len, "%s", env);
		return n >= 0 && (size_t)n < len ? 1 : -1;
	}
	if (ucopy_profile_default_path(buf, len) != 0)
		return 0;
	/* Absent at the default path is the normal case, not an error.
	 * Anything else there is found, whatever its type: the loader says
	 * why a directory or a FIFO is no profile, and `ucopy features`
	 * shows it. */
	struct stat st;
	if (stat(buf, &st) != 0) {
		buf[0] = 0;
		return 0;
	}
	return 1;
}

/*=====   Messages   =====*/

struct reader {
	const char *path;
	unsigned line;      /* 1-based number of the line being parsed */
	char *why;
	size_t whylen;
};

static int fail_at(struct reader *r, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail_at(struct reader *r, unsigned line, const char *fmt, ...)
{
	if (r->why && r->whylen) {
		char path[1024];
		ucopy_show_text(r->path, path, sizeof path);
		int n = line ? snprintf(r->why, r->whylen, "%s:%u: ", path, line)
			     : snprintf(r->why, r->whylen, "%s: ", path);
		if (n >= 0 && (size_t)n < r->whylen) {
			va_list ap;
			va_start(ap, fmt);
			vsnprintf(r->why + n, r->whylen - (size_t)n, fmt, ap);
			va_end(ap);
		}
	}
	return -1;
}

/* A field quoted in a message: bounded, so a 1000-byte token stays
 * readable, and escaped, so a file's control bytes never reach a terminal
 * (ucopy_show_token()). */
static struct ucopy_tok quote(const char *s)
{
	return ucopy_quote(s, strlen(s));
}

/*=====   Numbers   =====*/

static int digit(char c)
{
	return c >= '0' && c <= '9';
}

/* DIGITS, no sign, no overflow. */
static int parse_uint(const char *s, unsigned long long max,
		      unsigned long long *out)
{
	unsigned long long v = 0;
	if (!digit(*s))
		return -1;
	for (; digit(*s); s++) {
		unsigned d = (unsigned)(*s - '0');
		if (v > (max - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	if (*s)
		return -1;
	*out = v;
	return 0;
}

/* SIZE (text.c): a size as the policy text writes it. */
static int parse_size(const char *s, size_t *out)
{
	return ucopy_size_span(s, strlen(s), out) == 0 ? 0 : -1;
}

/* DIGITS [ "." DIGITS ], positive: a time in ns or a ratio. */
static int parse_positive(const char *s, double *out)
{
	double v = 0, scale = 1;
	int nd = 0;

	for (; digit(*s); s++, nd++) {
		if (nd > 15)
			return -1;
		v = v * 10 + (*s - '0');
	}
	if (nd == 0)
		return -1;
	if (*s == '.') {
		s++;
		if (!digit(*s))
			return -1;
		for (int nf = 0; digit(*s); s++, nf++)
			if (nf < 9) {
				scale /= 10;
				v += (*s - '0') * scale;
			}
	}
	if (*s || !(v > 0))
		return -1;
	*out = v;
	return 0;
}

/* SRC/DST page offsets, each 0..4095. */
static int parse_offsets(const char *s)
{
	char a[8];
	const char *slash = strchr(s, '/');
	unsigned long long x, y;

	if (!slash || (size_t)(slash - s) >= sizeof a)
		return -1;
	lib_copy(a, s, (size_t)(slash - s));
	a[slash - s] = 0;
	return parse_uint(a, 4095, &x) || parse_uint(slash + 1, 4095, &y) ? -1 : 0;
}

/*=====   Lines   =====*/

struct profile {
	struct ucopy_policy policy;
	char arch[16], vendor[16], brand[64];
	unsigned long long family, model, stepping;
	uint64_t features;
	unsigned seen;      /* KEY_* bits of the keys given once */
	unsigned at[16];    /* the line each of those was on */
};

/* Splits s in place at runs of spaces and tabs. */
static size_t split(char *s, char **f, size_t max)
{
	size_t n = 0;
	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			return n;
		if (n == max)
			return max + 1;
		f[n++] = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		if (*s)
			*s++ = 0;
	}
}

/* The rest of a line after its key, without surrounding blanks. */
static char *rest_of(char *line, size_t keylen)
{
	char *s = line + keylen, *e;
	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		*--e = 0;
	return s;
}

static int known_kernel(struct reader *r, const char *name)
{
	if (ucopy_kernel_find(name))
		return 0;
	return fail_at(r, r->line, "unknown kernel '%s'", quote(name).s);
}

/* KERNEL=NS pairs from field `from` on. */
static int kernel_times(struct reader *r, char **f, size_t nf, size_t from,
			const char *key)
{
	if (nf <= from)
		return fail_at(r, r->line, "'%s' has no KERNEL=NS measurements", key);
	for (size_t i = from; i < nf; i++) {
		char *eq = strchr(f[i], '=');
		double ns;
		if (!eq)
			return fail_at(r, r->line, "bad measurement '%s' (expected KERNEL=NS)",
				       quote(f[i]).s);
		*eq = 0;
		if (known_kernel(r, f[i]))
			return -1;
		if (parse_positive(eq + 1, &ns))
			return fail_at(r, r->line, "bad time '%s' for %s (expected a positive number of ns)",
				       quote(eq + 1).s, f[i]);
	}
	return 0;
}

static int bad_size(struct reader *r, const char *s)
{
	return fail_at(r, r->line, "bad size '%s' (expected a number with optional K, M or G)",
		       quote(s).s);
}

static int bad_ratio(struct reader *r, const char *s)
{
	return fail_at(r, r->line, "bad ratio '%s' (expected a positive number)",
		       quote(s).s);
}

static int wrong_fields(struct reader *r, const char *key, const char *form)
{
	return fail_at(r, r->line, "malformed '%s' line (expected '%s %s')", key,
		       key, form);
}

/* measure STATE SIZE KERNEL=NS... */
static int measure_line(struct reader *r, char **f, size_t nf, const char *key)
{
	size_t sz;

	if (nf < 3)
		return wrong_fields(r, key, "hot|cold SIZE KERNEL=NS...");
	if (strcmp(f[1], "hot") && strcmp(f[1], "cold"))
		return fail_at(r, r->line, "bad cache state '%s' (expected hot or cold)",
			       quote(f[1]).s);
	if (parse_size(f[2], &sz))
		return bad_size(r, f[2]);
	return kernel_times(r, f, nf, 3, key);
}

/* distance SIZE SRC/DST KERNEL=NS... */
static int distance_line(struct reader *r, char **f, size_t nf, const char *key)
{
	size_t sz;

	if (nf < 3)
		return wrong_fields(r, key, "SIZE SRC/DST KERNEL=NS...");
	if (parse_size(f[1], &sz))
		return bad_size(r, f[1]);
	if (parse_offsets(f[2]))
		return fail_at(r, r->line, "bad offsets '%s' (expected SRC/DST, each 0..4095)",
			       quote(f[2]).s);
	return kernel_times(r, f, nf, 3, key);
}

/* effect KERNEL SIZE distance=RATIO align=RATIO */
static int effect_line(struct reader *r, char **f, size_t nf, const char *key)
{
	size_t sz;
	double x;

	if (nf != 5 || strncmp(f[3], "distance=", 9) || strncmp(f[4], "align=", 6))
		return wrong_fields(r, key, "KERNEL SIZE distance=RATIO align=RATIO");
	if (known_kernel(r, f[1]))
		return -1;
	if (parse_size(f[2], &sz))
		return bad_size(r, f[2]);
	if (parse_positive(f[3] + 9, &x))
		return bad_ratio(r, f[3] + 9);
	if (parse_positive(f[4] + 6, &x))
		return bad_ratio(r, f[4] + 6);
	return 0;
}

/* cliff KERNEL SIZE RATIO SRC/DST */
static int cliff_line(struct reader *r, char **f, size_t nf, const char *key)
{
	size_t sz;
	double x;

	if (nf != 5)
		return wrong_fields(r, key, "KERNEL SIZE RATIO SRC/DST");
	if (known_kernel(r, f[1]))
		return -1;
	if (parse_size(f[2], &sz))
		return bad_size(r, f[2]);
	if (parse_positive(f[3], &x))
		return bad_ratio(r, f[3]);
	if (parse_offsets(f[4]))
		return fail_at(r, r->line, "bad offsets '%s' (expected SRC/DST, each 0..4095)",
			       quote(f[4]).s);
	return 0;
}

/* crossover LIMIT FROM TO (auto | SIZE=RATIO...) */
static int crossover_line(struct reader *r, char **f, size_t nf, const char *key)
{
	size_t sz;
	double x;

	if (nf < 5)
		return wrong_fields(r, key, "LIMIT FROM TO auto|SIZE=RATIO...");
	if (parse_size(f[1], &sz))
		return bad_size(r, f[1]);
	if (known_kernel(r, f[2]) || known_kernel(r, f[3]))
		return -1;
	if (nf == 5 && !strcmp(f[4], "auto"))
		return 0;
	for (size_t i = 4; i < nf; i++) {
		char *eq = strchr(f[i], '=');
		if (!eq)
			return fail_at(r, r->line, "bad evidence '%s' (expected SIZE=RATIO or auto)",
				       quote(f[i]).s);
		*eq = 0;
		if (parse_size(f[i], &sz))
			return bad_size(r, f[i]);
		if (parse_positive(eq + 1, &x))
			return bad_ratio(r, eq + 1);
	}
	return 0;
}

/* gain REFERENCE STATE RATIO */
static int gain_line(struct reader *r, char **f, size_t nf, const char *key)
{
	double x;

	if (nf != 4)
		return wrong_fields(r, key, "auto|libc hot|cold RATIO");
	if (strcmp(f[1], "auto") && strcmp(f[1], "libc"))
		return fail_at(r, r->line, "bad reference '%s' (expected auto or libc)",
			       quote(f[1]).s);
	if (strcmp(f[2], "hot") && strcmp(f[2], "cold"))
		return fail_at(r, r->line, "bad cache state '%s' (expected hot or cold)",
			       quote(f[2]).s);
	if (parse_positive(f[3], &x))
		return bad_ratio(r, f[3]);
	return 0;
}

/* The KEY_* that names key (profile_keys.h), or KEY_ALL for none. */
static int key_find(const char *key)
{
	for (int k = 0; k < KEY_ALL; k++)
		if (k != KEY_COUNT && !strcmp(key, profile_key[k]))
			return k;
	return KEY_ALL;
}

/* The repeated lines: the measurements behind the policy.  Checked as
 * strictly as the rest, though the library needs only the policy, so that a
 * damaged file is never half believed.  k is key's KEY_* (key_find()). */
static int measurement_line(struct reader *r, char *line, int k, const char *key)
{
	char *f[MAX_FIELDS + 1];
	size_t nf = split(line, f, MAX_FIELDS);

	if (nf > MAX_FIELDS)
		return fail_at(r, r->line, "too many fields (at most %d)", MAX_FIELDS);
	switch (k) {
	case KEY_MEASURE: return measure_line(r, f, nf, key);
	case KEY_DISTANCE: return distance_line(r, f, nf, key);
	case KEY_EFFECT: return effect_line(r, f, nf, key);
	case KEY_CLIFF: return cliff_line(r, f, nf, key);
	case KEY_CROSSOVER: return crossover_line(r, f, nf, key);
	case KEY_GAIN: return gain_line(r, f, nf, key);
	case KEY_NOTE: return 0;
	default: return fail_at(r, r->line, "unknown key '%s'", quote(key).s);
	}
}

static unsigned two(const char *s)
{
	return (unsigned)(s[0] - '0') * 10 + (unsigned)(s[1] - '0');
}

/* date YYYY-MM-DDTHH:MM:SSZ, as the writer puts it (UTC): a day of the
 * calendar (a leap second allowed), not just digits in place. */
static int valid_date(const char *s)
{
	static const char form[] = "dddd-dd-ddTdd:dd:ddZ";
	static const unsigned char days[12] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	for (size_t i = 0; i < sizeof form - 1; i++)
		if (form[i] == 'd' ? !digit(s[i]) : s[i] != form[i])
			return 0;
	if (s[sizeof form - 1] != 0)
		return 0;
	unsigned year = two(s) * 100 + two(s + 2), month = two(s + 5), day = two(s + 8);
	int leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
	if (month < 1 || month > 12 || day < 1 || day > days[month - 1] ||
	    (month == 2 && day == 29 && !leap))
		return 0;
	return two(s + 11) <= 23 && two(s + 14) <= 59 && two(s + 17) <= 60;
}

static int valid_version(const char *s)
{
	for (int part = 0; part < 3; part++) {
		if (!digit(*s))
			return 0;
		while (digit(*s))
			s++;
		if (part < 2 && *s++ != '.')
			return 0;
	}
	return *s == 0;
}

static int copy_text(struct reader *r, char *dst, size_t len, const char *s,
		     const char *key)
{
	size_t n = strlen(s);
	if (n >= len)
		return fail_at(r, r->line, "%s '%s' is too long (at most %zu bytes)",
			       key, quote(s).s, len - 1);
	lib_copy(dst, s, n + 1);
	return 0;
}

static int once_line(struct reader *r, struct profile *p, int k, char *val)
{
	unsigned long long v;
	char err[256];

	if (p->seen >> k & 1)
		return fail_at(r, r->line, "'%s' given twice (first on line %u)",
			       profile_key[k], p->at[k]);
	p->seen |= 1u << k;
	p->at[k] = r->line;
	if (!val[0] && k != KEY_BRAND)
		return fail_at(r, r->line, "'%s' has no value", profile_key[k]);
	switch (k) {
	case KEY_VERSION:
		if (!valid_version(val))
			return fail_at(r, r->line, "bad version '%s' (expected MAJOR.MINOR.PATCH)",
				       quote(val).s);
		return 0;
	case KEY_DATE:
		if (!valid_date(val))
			return fail_at(r, r->line, "bad date '%s' (expected YYYY-MM-DDTHH:MM:SSZ)",
				       quote(val).s);
		return 0;
	case KEY_ARCH:
		return copy_text(r, p->arch, sizeof p->arch, val, profile_key[KEY_ARCH]);
	case KEY_VENDOR:
		return copy_text(r, p->vendor, sizeof p->vendor, val, profile_key[KEY_VENDOR]);
	case KEY_BRAND:
		return copy_text(r, p->brand, sizeof p->brand, val, profile_key[KEY_BRAND]);
	case KEY_FAMILY:
	case KEY_MODEL:
	case KEY_STEPPING:
		if (parse_uint(val, 0xffffffffu, &v))
			return fail_at(r, r->line, "bad %s '%s' (expected a number)",
				       profile_key[k], quote(val).s);
		*(k == KEY_FAMILY ? &p->family : k == KEY_MODEL ? &p->model
							      : &p->stepping) = v;
		return 0;
	case KEY_FEATURES:
		if (ucopy_features_parse(val, 0, &p->features, err, sizeof err))
			return fail_at(r, r->line, "%s", err);
		return 0;
	case KEY_POLICY:
		if (ucopy_policy_parse(&p->policy, val, err, sizeof err))
			return fail_at(r, r->line, "bad policy: %s", err);
		return 0;
	}
	return 0;
}

/* One line, NUL-terminated, without its newline. */
static int parse_line(struct reader *r, struct profile *p, char *line,
		      int *ended)
{
	char key[32];
	size_t kl = strcspn(line, " \t");

	if (r->line == 1) {
		/* The magic line first: anything else is not a profile at all
		 * (a path to the wrong file), said before any detail. */
		if (strcmp(rest_of(line, 0), UCOPY_PROFILE_MAGIC)) {
			if (!strncmp(line, "ucopy-profile", 13))
				return fail_at(r, 1, "unsupported profile format '%s' (this library reads '"
					       UCOPY_PROFILE_MAGIC "')",
					       quote(line).s);
			return fail_at(r, 1, "not a ucopy profile (the first line must be '"
				       UCOPY_PROFILE_MAGIC "')");
		}
		return 0;
	}
	if (line[0] == '#' || !line[strspn(line, " \t")])
		return 0;
	/* 'end' is there to tell a whole file from a cut one: comments may
	 * follow it, a key may not. */
	if (*ended)
		return fail_at(r, r->line, "a line after the 'end' line (expected 'end' last, "
			       "but for comments and blank lines)");
	if (kl == 0)
		return fail_at(r, r->line, "line starts with a blank");
	if (kl >= sizeof key)
		return fail_at(r, r->line, "unknown key '%s'", quote(line).s);
	lib_copy(key, line, kl);
	key[kl] = 0;
	int k = key_find(key);
	if (k == KEY_END) {
		if (line[kl] && rest_of(line, kl)[0])
			return fail_at(r, r->line, "'end' takes no value");
		*ended = 1;
		return 0;
	}
	if (k < KEY_COUNT)
		return once_line(r, p, k, rest_of(line, kl));
	return measurement_line(r, line, k, key);
}


static int check_identity(struct reader *r, const struct profile *p)
{
	const struct ucopy_cpu *c = ucopy_cpu();
	char brand[64];
	const char *b = c->brand;

	while (*b == ' ')
		b++;
	snprintf(brand, sizeof brand, "%s", b);
	/* The file's words (and the CPU's brand, which a hypervisor writes)
	 * escaped, as all outside text in a reason. */
	if (strcmp(p->arch, c->arch))
		return fail_at(r, p->at[KEY_ARCH], "measured on %s; this CPU is %s",
			       quote(p->arch).s, c->arch);
	if (strcmp(p->vendor, c->vendor) || p->family != c->family ||
	    p->model != c->model || p->stepping != c->stepping)
		return fail_at(r, p->at[strcmp(p->vendor, c->vendor) ? KEY_VENDOR
					 : p->family != c->family ? KEY_FAMILY
					 : p->model != c->model ? KEY_MODEL
								: KEY_STEPPING],
			       "measured on another CPU (%s family %llu model %llu stepping %llu); this one is %s family %u model %u stepping %u",
			       quote(p->vendor).s, p->family, p->model, p->stepping,
			       quote(c->vendor).s, c->family, c->model, c->stepping);
	if (strcmp(p->brand, brand)) {
		char theirs[4 * sizeof p->brand], ours[4 * sizeof brand];
		return fail_at(r, p->at[KEY_BRAND], "measured on another CPU ('%s'); this one is '%s'",
			       ucopy_show_text(p->brand, theirs, sizeof theirs),
			       ucopy_show_text(brand, ours, sizeof ours));
	}
	if (p->features != c->features) {
		char more[160], less[160];
		uint64_t extra = p->features & ~c->features, lacking = c->features & ~p->features;
		ucopy_features_format(extra, "+", more, sizeof more);
		ucopy_features_format(lacking, "+", less, sizeof less);
		return fail_at(r, p->at[KEY_FEATURES],
			       "measured with other CPU features (the profile has %s%s; this CPU has %s%s)",
			       extra ? more : "nothing more", extra ? " more" : "",
			       lacking ? less : "nothing more", lacking ? " more" : "");
	}
	return 0;
}

static const char *file_kind(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISCHR(m) ? "a character device"
	     : S_ISBLK(m) ? "a block device" : S_ISFIFO(m) ? "a FIFO"
	     : S_ISSOCK(m) ? "a socket" : "of an unknown type";
}

/* Only a regular file is read.  A FIFO would block the first copy of every
 * program linked with the library until a writer came (hence O_NONBLOCK,
 * which a regular file ignores); a device may never end, or act on being
 * opened.  The stat() keeps those from being opened at all; the fstat()
 * checks what was opened, since the path may have changed in between.
 * @return : the descriptor, or -1 with the reason in r. */
static int profile_open(struct reader *r, const char *path)
{
	struct stat st;
	int fd;

	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return fail_at(r, 0, "not a regular file (%s)", file_kind(st.st_mode));
	do
		fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		return fail_at(r, 0, "cannot open: %s", strerror(errno));
	if (fstat(fd, &st) != 0) {
		int e = errno;
		close(fd);
		return fail_at(r, 0, "cannot read: %s", strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return fail_at(r, 0, "not a regular file (%s)", file_kind(st.st_mode));
	}
	return fd;
}

/* Every line of fd into p, *ended once the 'end' line is read; closes fd.
 * @return : 0, or -1 with the reason in r. */
static int profile_read(struct reader *r, int fd, struct profile *p, int *ended)
{
	char buf[4096], line[UCOPY_PROFILE_LINE_MAX];
	size_t ll = 0, total = 0;

	for (;;) {
		ssize_t got = read(fd, buf, sizeof buf);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;
			close(fd);
			return fail_at(r, 0, "cannot read: %s", strerror(e));
		}
		if (got == 0)
			break;
		total += (size_t)got;
		if (total > PROFILE_MAX_BYTES) {
			close(fd);
			return fail_at(r, 0, "larger than %zu KiB: not a profile",
				       PROFILE_MAX_BYTES >> 10);
		}
		for (ssize_t i = 0; i < got; i++) {
			char c = buf[i];
			if (c == 0) {
				close(fd);
				return fail_at(r, r->line + 1, "NUL byte: not a text file");
			}
			if (c != '\n') {
				if (ll + 1 >= sizeof line) {
					close(fd);
					return fail_at(r, r->line + 1, "line longer than %d bytes",
						       UCOPY_PROFILE_LINE_MAX - 1);
				}
				line[ll++] = c;
				continue;
			}
			line[ll] = 0;
			ll = 0;
			r->line++;
			if (parse_line(r, p, line, ended)) {
				close(fd);
				return -1;
			}
		}
	}
	close(fd);

	/* A write cut short ends inside a line or before "end". */
	if (ll)
		return fail_at(r, r->line + 1, "last line has no newline (truncated?)");
	return 0;
}

/* A profile read whole: every key given, 'end' last, this CPU's identity,
 * and only kernels this CPU runs.
 * @return : 0, or -1 with the reason in r. */
static int profile_check(struct reader *r, const struct profile *p, int ended)
{
	if (r->line == 0)
		return fail_at(r, 0, "empty file: not a profile");
	for (int k = 0; k < KEY_COUNT; k++)
		if (!(p->seen >> k & 1))
			return fail_at(r, 0, "no '%s' line (truncated?)", profile_key[k]);
	if (!ended)
		return fail_at(r, r->line, "no 'end' line after line %u (truncated?)",
			       r->line);
	if (check_identity(r, p))
		return -1;
	r->line = p->at[KEY_POLICY];
	for (unsigned i = 0; i < p->policy.nrules; i++) {
		const struct ucopy_kernel *k = p->policy.rule[i].kernel;
		if (!ucopy_kernel_supported(k, ucopy_cpu()->features)) {
			char lack[160];
			ucopy_features_format(k->requires & ~ucopy_cpu()->features, "+", lack, sizeof lack);
			return fail_at(r, r->line, "kernel '%s' needs %s, which this CPU lacks",
				       k->name, lack);
		}
	}
	return 0;
}

int ucopy_profile_load(const char *path, struct ucopy_policy *policy,
		       char *why, size_t whylen)
{
	struct reader r = { path ? path : "(null)", 0, why, whylen };
	struct profile p;
	int ended = 0, fd;

	if (why && whylen)
		why[0] = 0;
	if (!path || !path[0])
		return fail_at(&r, 0, "no profile path");
	memset(&p, 0, sizeof p);
	fd = profile_open(&r, path);
	if (fd < 0 || profile_read(&r, fd, &p, &ended) || profile_check(&r, &p, ended))
		return -1;
	lib_copy(p.policy.name, "calibrated", sizeof "calibrated");
	if (policy)
		lib_copy(policy, &p.policy, sizeof p.policy);
	return 0;
}

/* The named policy "calibrated" (policy.c). */
int ucopy_profile_policy(struct ucopy_policy *p, char *err, size_t errlen)
{
	char path[PATH_MAX_PROFILE];
	int found = ucopy_profile_find(path, sizeof path);

	if (found < 0) {
		snprintf(err, errlen, "policy 'calibrated': UCOPY_PROFILE is too long");
		return -1;
	}
	if (found == 0) {
		char def[PATH_MAX_PROFILE];
		if (ucopy_profile_default_path(def, sizeof def))
			snprintf(err, errlen, "policy 'calibrated' needs a profile: UCOPY_PROFILE is unset, and XDG_CACHE_HOME and HOME are unset, not absolute paths, or too long (run 'ucopy calibrate -o FILE' and set UCOPY_PROFILE)");
		else
			snprintf(err, errlen, "policy 'calibrated' needs a profile: none at %s (run 'ucopy calibrate')",
				 def);
		return -1;
	}
	return ucopy_profile_load(path, p, err, errlen);
}
