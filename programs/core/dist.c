/*
 * dist.c - distribution readers and copy-sequence sampler (dist.h).
 *
 * Files are read whole into memory and parsed from there, so the fuzzer and
 * the tests exercise exactly the code the command runs.
 */
#include "dist.h"
#include "errmsg.h"
#include "stats.h"
#include "ucopy.h"

#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct pair {
	size_t size;
	double w;
};

struct parser {
	const char *name;
	const char *p, *end;   /* the rest of the buffer */
	unsigned line;         /* of the line last returned */
	char *err;
	size_t errlen;
	struct pair *pair;     /* accumulated before sorting */
	size_t n, cap;
};

struct span {
	const char *s;
	size_t len;
};

static int perr(struct parser *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int perr(struct parser *ps, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verrmsg_at(ps->err, ps->errlen, ps->name, ps->line, fmt, ap);
	va_end(ap);
	return -1;
}

/* The next line without its terminator; *ended says whether it had one.
 * @return : 0, or -1 at the end of the buffer. */
static int next_line(struct parser *ps, struct span *l, int *ended)
{
	if (ps->p >= ps->end)
		return -1;
	const char *nl = memchr(ps->p, '\n', (size_t)(ps->end - ps->p));
	l->s = ps->p;
	l->len = (size_t)((nl ? nl : ps->end) - ps->p);
	*ended = nl != NULL;
	ps->p = nl ? nl + 1 : ps->end;
	ps->line++;
	return 0;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static struct span trim(struct span t)
{
	while (t.len && is_space(t.s[0])) {
		t.s++;
		t.len--;
	}
	while (t.len && is_space(t.s[t.len - 1]))
		t.len--;
	return t;
}

/* Splits off the text before `sep` (or all of *rest). */
static struct span split(struct span *rest, char sep)
{
	struct span t = *rest;
	const char *q = memchr(rest->s, sep, rest->len);
	if (q) {
		t.len = (size_t)(q - rest->s);
		rest->s = q + 1;
		rest->len -= t.len + 1;
	} else {
		rest->s += rest->len;
		rest->len = 0;
	}
	return t;
}

static int span_weight(struct span t, double *out)
{
	char buf[64], *e;
	if (t.len == 0 || t.len >= sizeof buf)
		return -1;
	memcpy(buf, t.s, t.len);
	buf[t.len] = '\0';
	/* strtod would take "inf", "nan" and hex; a probability is none of those. */
	for (size_t i = 0; i < t.len; i++)
		if (!strchr("0123456789.eE+-", buf[i]))
			return -1;
	errno = 0;
	double v = strtod(buf, &e);
	/* ERANGE also flags an underflow ("1e-320" is subnormal, "1e-400" is
	 * 0): a tiny weight is still a weight.  Only an overflow is bad. */
	if (errno == ERANGE && fabs(v) < DBL_MIN)
		errno = 0;
	if (*e || errno || !isfinite(v) || v < 0)
		return -1;
	*out = v;
	return 0;
}

/* @return : 0, -1 when t is no size, -2 when it is digits past any size
 * (the caller says "too large", not "bad"). */
static int span_size(struct span t, size_t *out)
{
	char buf[32];
	if (t.len == 0)
		return -1;
	while (t.len > 1 && t.s[0] == '0' && t.s[1] >= '0' && t.s[1] <= '9') {
		t.s++;   /* zeros in front are no reason to be too large */
		t.len--;
	}
	if (t.len < sizeof buf) {
		memcpy(buf, t.s, t.len);
		buf[t.len] = '\0';
		if (ucopy_size_parse(buf, out, NULL, 0) == 0)
			return 0;
	}
	for (size_t i = 0; i < t.len; i++)
		if (t.s[i] < '0' || t.s[i] > '9')
			return -1;
	return -2;
}

static int too_large(struct parser *ps, struct span t)
{
	return perr(ps, "size '%s' is too large (at most %zu)", errmsg_show(t.s, t.len).s,
		    (size_t)DIST_MAX_SIZE);
}

static int push(struct parser *ps, size_t size, double w)
{
	if (size > DIST_MAX_SIZE)
		return perr(ps, "size %zu is too large (at most %zu)", size,
			    (size_t)DIST_MAX_SIZE);
	if (w == 0)
		return 0;
	if (ps->n == ps->cap) {
		size_t cap = ps->cap ? 2 * ps->cap : 256;
		struct pair *q = realloc(ps->pair, cap * sizeof *q);
		if (!q)
			return perr(ps, "out of memory");
		ps->pair = q;
		ps->cap = cap;
	}
	ps->pair[ps->n++] = (struct pair){ size, w };
	return 0;
}

/* The line without its '#' comment; *only says the comment was all there
 * was (the line is then skipped, as blank lines before the first are). */
static struct span uncomment(struct span l, int *only)
{
	struct span t = l;
	const char *hash = memchr(l.s, '#', l.len);
	if (hash)
		t.len = (size_t)(hash - l.s);
	*only = hash && trim(t).len == 0;
	return t;
}

/* A line of "KEY:VALUE" pairs; calls back with each. */
static int pairs(struct parser *ps, struct span line, const char *what,
		 int (*each)(struct parser *, size_t, double, void *), void *ctx)
{
	struct span rest = trim(line);
	if (rest.len == 0)
		return perr(ps, "empty %s line (expected SIZE:PROBABILITY pairs)", what);
	while (rest.len) {
		struct span item = trim(split(&rest, ','));
		if (item.len == 0) {
			if (rest.len == 0)
				break;  /* a trailing comma */
			return perr(ps, "empty entry in the %s line (expected SIZE:PROBABILITY)",
				    what);
		}
		struct span val = item;
		struct span key = trim(split(&val, ':'));
		val = trim(val);
		size_t k;
		double w;
		int sr = key.len == item.len ? -1 : span_size(key, &k);
		if (sr == -2)
			return too_large(ps, key);
		if (sr < 0 || span_weight(val, &w) < 0)
			return perr(ps, "bad entry '%s' in the %s line (expected SIZE:PROBABILITY)",
				    errmsg_show(item.s, item.len).s, what);
		if (each(ps, k, w, ctx) < 0)
			return -1;
	}
	return 0;
}

static int each_size(struct parser *ps, size_t k, double w, void *ctx)
{
	(void)ctx;
	return push(ps, k, w);
}

static int each_overlap(struct parser *ps, size_t k, double w, void *ctx)
{
	(void)ps, (void)k, (void)w, (void)ctx;
	return 0;
}

static int align_index(struct parser *ps, size_t k)
{
	for (int i = 0; i < 7; i++)
		if (k == (size_t)1 << i)
			return i;
	return perr(ps, "bad alignment %zu (expected 1, 2, 4, 8, 16, 32 or 64)", k);
}

static int each_align_max(struct parser *ps, size_t k, double w, void *ctx)
{
	double *max = ctx;
	if (align_index(ps, k) < 0)
		return -1;
	if (w > *max)
		*max = w;
	return 0;
}

struct align_acc {
	double *align;
	double max;
};

static int each_align(struct parser *ps, size_t k, double w, void *ctx)
{
	struct align_acc *a = ctx;
	a->align[align_index(ps, k)] += w / a->max;
	return 0;
}

/* The alignment line, in two passes: the largest weight first, so that the
 * sums are of weights scaled to at most 1 each and cannot overflow (two
 * weights of 1e308 are a fair half each, not an infinite sum that would
 * leave every probability 0). */
static int parse_align(struct parser *ps, struct span l, struct dist *d)
{
	struct align_acc a = { d->align, 0 };
	if (pairs(ps, l, "alignment", each_align_max, &a.max) < 0)
		return -1;
	if (!(a.max > 0))
		return perr(ps, "every alignment has probability 0");
	if (pairs(ps, l, "alignment", each_align, &a) < 0)
		return -1;
	double sum = 0;
	for (int i = 0; i < 7; i++)
		sum += d->align[i];
	for (int i = 0; i < 7; i++)
		d->align[i] /= sum;
	d->has_align = 1;
	return 0;
}

static int parse_fleetbench(struct parser *ps, struct span first, int ended,
			    struct dist *d)
{
	if (pairs(ps, first, "size", each_size, NULL) < 0)
		return -1;
	struct span l;
	int more = 0, only;
	while (ended && next_line(ps, &l, &ended) == 0) {
		l = uncomment(l, &only);
		if (only)
			continue;
		if (trim(l).len == 0 && ps->p >= ps->end)
			break;
		if (more == 0) {
			if (pairs(ps, l, "overlap", each_overlap, NULL) < 0)
				return -1;
		} else if (more == 1) {
			if (parse_align(ps, l, d) < 0)
				return -1;
		} else if (trim(l).len) {
			return perr(ps, "unexpected line %u (a fleetbench file has 3 lines: sizes, overlap, alignment)",
				    ps->line);
		}
		more++;
	}
	/* The real files end with a newline: a missing one means the file was
	 * cut short, possibly in the middle of a number. */
	if (!ended)
		return perr(ps, "truncated: the line has no end (expected a newline)");
	/* Without an alignment line (with or without the overlap line before
	 * it) offsets are uniform, as for the other formats. */
	return 0;
}

static int parse_llvm(struct parser *ps, struct span first, int ended)
{
	size_t index = 0;
	struct span l = first;
	for (;;) {
		int only;
		struct span rest = trim(uncomment(l, &only));
		while (rest.len) {
			struct span item = trim(split(&rest, ','));
			double w;
			if (item.len == 0) {
				if (rest.len == 0)
					break;
				return perr(ps, "empty entry for size %zu (expected a probability)",
					    index);
			}
			if (span_weight(item, &w) < 0)
				return perr(ps, "bad probability '%s' for size %zu (expected a number >= 0)",
					    errmsg_show(item.s, item.len).s, index);
			/* A "SIZE,WEIGHT" file also has a comma on its first
			 * line, and read as probabilities it would be sizes 0, 1,
			 * 2...: its sizes give it away. */
			if (w > 1)
				return perr(ps, "probability '%s' for size %zu is above 1 (expected "
					    "LLVM libc's comma-separated probabilities of sizes 0, 1, 2...; "
					    "sizes with weights are 'SIZE WEIGHT' lines)",
					    errmsg_show(item.s, item.len).s, index);
			if (push(ps, index, w) < 0)
				return -1;
			index++;
		}
		if (!ended || next_line(ps, &l, &ended) < 0)
			break;
	}
	return 0;
}

static int parse_plain(struct parser *ps, struct span first, int ended)
{
	struct span l = first;
	for (;;) {
		struct span body = l;
		const char *hash = memchr(l.s, '#', l.len);
		if (hash)
			body.len = (size_t)(hash - l.s);
		body = trim(body);
		if (body.len) {
			size_t k = 0;
			while (k < body.len && !is_space(body.s[k]))
				k++;
			struct span a = { body.s, k };
			struct span b = trim((struct span){ body.s + k, body.len - k });
			size_t size;
			double w;
			int sr = span_size(a, &size);
			if (sr == -2 && b.len)
				return too_large(ps, a);
			if (b.len == 0 || memchr(b.s, ' ', b.len) || memchr(b.s, '\t', b.len) ||
			    sr < 0 || span_weight(b, &w) < 0)
				return perr(ps, "bad line '%s' (expected SIZE WEIGHT)",
					    errmsg_show(body.s, body.len).s);
			if (push(ps, size, w) < 0)
				return -1;
		}
		if (!ended || next_line(ps, &l, &ended) < 0)
			break;
	}
	return 0;
}

static int cmp_pair(const void *a, const void *b)
{
	size_t x = ((const struct pair *)a)->size, y = ((const struct pair *)b)->size;
	return (x > y) - (x < y);
}

/* Sorts the pairs by size, merges repeats, and fills d. */
static int finish(struct parser *ps, struct dist *d)
{
	size_t n = ps->n;
	ps->line = 0;   /* what fails here is the whole file's, no line's */
	d->size = malloc((n ? n : 1) * sizeof *d->size);
	d->cdf = malloc((n ? n : 1) * sizeof *d->cdf);
	if (!d->size || !d->cdf)
		return perr(ps, "out of memory");
	if (n)
		qsort(ps->pair, n, sizeof *ps->pair, cmp_pair);
	/* Weights scaled to the largest, so that no sum overflows: "8 1e308"
	 * and "16 1e308" are half each. */
	double max = 0;
	for (size_t i = 0; i < n; i++)
		if (ps->pair[i].w > max)
			max = ps->pair[i].w;
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		size_t s = ps->pair[i].size;
		double w = ps->pair[i].w / max;
		if (m && d->size[m - 1] == s) {
			d->cdf[m - 1] += w;
		} else if (w > 0) {   /* 0 when it underflowed beside the largest */
			d->size[m] = s;
			d->cdf[m++] = w;
		}
	}
	if (m == 0)
		return perr(ps, "no size has a weight above 0 (expected at least one)");
	/* Running sums divided by the last: rising, and exactly 1 at the end
	 * (dividing each weight first, the sum of the quotients may pass 1). */
	double acc = 0, mean = 0;
	for (size_t i = 0; i < m; i++) {
		mean += d->cdf[i] * (double)d->size[i];
		acc += d->cdf[i];
		d->cdf[i] = acc;
	}
	for (size_t i = 0; i < m; i++)
		d->cdf[i] /= acc;
	mean /= acc;
	if (mean > (double)d->size[m - 1])   /* by rounding */
		mean = (double)d->size[m - 1];
	d->n = m;
	d->mean = mean;
	d->max_size = d->size[m - 1];
	return 0;
}

int dist_parse(const char *name, const char *buf, size_t len, struct dist *d,
	       char *err, size_t errlen)
{
	memset(d, 0, sizeof *d);
	struct parser ps = { .name = name, .p = buf, .end = buf + len,
			     .err = err, .errlen = errlen };
	if (memchr(buf, '\0', len)) {
		ps.line = 1;
		for (const char *q = buf; *q; q++)
			ps.line += *q == '\n';
		return perr(&ps, "a NUL byte (expected a text file)");
	}

	/* The format is told by the first line that says something. */
	struct span l, t;
	int ended = 0, rc;
	unsigned blank = 0;   /* the first blank line before it, if any */
	for (;;) {
		if (next_line(&ps, &l, &ended) < 0) {
			if (errlen)
				snprintf(err, errlen,
					 "%s: empty distribution file (expected fleetbench, LLVM libc or 'SIZE WEIGHT' lines)",
					 name);
			return -1;
		}
		t = l;
		const char *hash = memchr(t.s, '#', t.len);
		if (hash)
			t.len = (size_t)(hash - t.s);
		t = trim(t);
		if (t.len)
			break;
		if (!hash && !blank)
			blank = ps.line;
	}
	/* The line as told, its comment gone: "1:0.5,8:0.5 # c" is sizes. */
	if (memchr(t.s, ':', t.len)) {
		d->format = DIST_FLEETBENCH;
		/* Its lines are told by their place (sizes, overlap,
		 * alignment): a blank line before the sizes is an empty size
		 * line, refused as an empty overlap line is.  Skipped, it made
		 * the overlap line "0:1" the sizes: one size, of 0 bytes. */
		if (blank) {
			ps.line = blank;
			rc = perr(&ps, "empty size line (expected SIZE:PROBABILITY pairs)");
		} else {
			rc = parse_fleetbench(&ps, t, ended, d);
		}
	} else if (memchr(t.s, ',', t.len)) {
		d->format = DIST_LLVM;
		rc = parse_llvm(&ps, t, ended);
	} else {
		d->format = DIST_PLAIN;
		rc = parse_plain(&ps, l, ended);
	}
	if (rc == 0)
		rc = finish(&ps, d);
	free(ps.pair);
	if (rc < 0)
		dist_free(d);
	return rc;
}

static const char *file_kind(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISCHR(m) ? "a character device"
	     : S_ISBLK(m) ? "a block device" : S_ISFIFO(m) ? "a FIFO"
	     : S_ISSOCK(m) ? "a socket" : "a file of an unknown type";
}

int text_file_read(const char *path, const char *what, size_t max, char **out,
		   size_t *outlen, char *err, size_t errlen)
{
	*out = NULL;
	*outlen = 0;
	/* Only a regular file, as the library's profile loader: a FIFO with no
	 * writer would hang the command (O_NONBLOCK, which a regular file
	 * ignores, keeps open() from waiting for one) and a device may never
	 * end.  The fstat() checks what was opened: the path may have changed
	 * since the stat(). */
	struct stat st;
	int fd = -1;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		goto not_regular;
	do
		fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	while (fd < 0 && errno == EINTR);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "rb");
	if (!f) {
		if (errlen)
			snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (fstat(fd, &st) == 0 && !S_ISREG(st.st_mode)) {
		fclose(f);
		goto not_regular;
	}
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap);
	int rc = -1;
	while (buf) {
		size_t k = fread(buf + len, 1, cap - len, f);
		len += k;
		if (ferror(f)) {
			if (errlen)
				snprintf(err, errlen, "cannot read '%s': %s", path,
					 strerror(errno ? errno : EIO));
			goto out;
		}
		if (len < cap)
			break;
		if (cap >= max) {
			if (errlen)
				snprintf(err, errlen, "'%s' is too large for a %s (at most %zu MiB)",
					 path, what, max >> 20);
			goto out;
		}
		char *nb = realloc(buf, cap * 2);
		if (!nb)
			break;
		buf = nb;
		cap *= 2;
	}
	if (!buf) {
		if (errlen)
			snprintf(err, errlen, "out of memory reading '%s'", path);
		goto out;
	}
	*out = buf;
	*outlen = len;
	buf = NULL;
	rc = 0;
out:
	free(buf);
	fclose(f);
	return rc;
not_regular:
	if (errlen)
		snprintf(err, errlen, "bad %s file '%s' (expected a regular file, not %s)",
			 what, path, file_kind(st.st_mode));
	return -1;
}

int dist_read_file(const char *path, struct dist *d, char *err, size_t errlen)
{
	memset(d, 0, sizeof *d);
	char *buf;
	size_t len;
	if (text_file_read(path, "distribution", DIST_MAX_FILE, &buf, &len, err, errlen) < 0)
		return -1;
	int rc = dist_parse(path, buf, len, d, err, errlen);
	free(buf);
	return rc;
}

void dist_free(struct dist *d)
{
	free(d->size);
	free(d->cdf);
	memset(d, 0, sizeof *d);
}

const char *dist_format_name(enum dist_format f)
{
	switch (f) {
	case DIST_FLEETBENCH: return "fleetbench";
	case DIST_LLVM: return "llvm-libc";
	case DIST_PLAIN: return "plain";
	}
	return "?";
}

const char *dist_regime_name(enum dist_regime g)
{
	return g == REGIME_REPEATED ? "repeated" : "unlearnable";
}

int dist_regime_parse(const char *s, enum dist_regime *g)
{
	for (int i = REGIME_UNLEARNABLE; i <= REGIME_REPEATED; i++)
		if (!strcmp(s, dist_regime_name((enum dist_regime)i))) {
			*g = (enum dist_regime)i;
			return 0;
		}
	return -1;
}

void dist_regime_condition(enum dist_regime g, size_t len, size_t scrub_every, char *buf,
			   size_t n)
{
	char company[96] = ", each variant at its steady state";
	if (scrub_every)
		snprintf(company, sizeof company, ", the scrubber after every %zu copies",
			 scrub_every);
	if (g == REGIME_REPEATED)
		snprintf(buf, n, "a repeated sequence of %zu copies%s", len, company);
	else
		snprintf(buf, n, "sizes in an order no predictor learns (%zu copies)%s", len,
			 scrub_every ? company : "");
}

/* An offset within a cache line whose alignment is exactly `a` (a power of
 * two up to 64): an odd multiple of a, or 0 for 64. */
static uint32_t offset_for(struct rng *r, unsigned a)
{
	if (a >= 64)
		return 0;
	unsigned odd = 64 / a / 2;  /* how many odd multiples fit below 64 */
	return (uint32_t)(a * (2 * rng_below(r, odd) + 1));
}

static uint32_t draw_offset(const struct dist *d, struct rng *r)
{
	if (!d->has_align)
		return (uint32_t)rng_below(r, 64);
	double u = rng_unit(r), acc = 0;
	for (int i = 0; i < 7; i++) {
		acc += d->align[i];
		if (u < acc)
			return offset_for(r, 1u << i);
	}
	return 0;
}

int dist_sample(const struct dist *d, size_t len, uint64_t seed,
		struct copy_seq *out)
{
	memset(out, 0, sizeof *out);
	if (len == 0 || d->n == 0)
		return -1;
	out->op = malloc(len * sizeof *out->op);
	if (!out->op)
		return -1;
	struct rng r;
	rng_seed(&r, seed);
	double sum = 0;
	for (size_t i = 0; i < len; i++) {
		double u = rng_unit(&r);
		size_t lo = 0, hi = d->n - 1;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (u < d->cdf[mid])
				hi = mid;
			else
				lo = mid + 1;
		}
		struct copy_op *o = &out->op[i];
		o->n = d->size[lo];
		o->src_off = draw_offset(d, &r);
		o->dst_off = draw_offset(d, &r);
		sum += (double)o->n;
		if (o->n > out->max_n)
			out->max_n = o->n;
		if (o->src_off > out->max_off)
			out->max_off = o->src_off;
		if (o->dst_off > out->max_off)
			out->max_off = o->dst_off;
	}
	out->len = len;
	out->mean_n = sum / (double)len;
	out->seed = seed;
	return 0;
}

int dist_regime_sample(const struct dist *d, enum dist_regime g, size_t repeat_len,
		       uint64_t seed, struct copy_seq *out)
{
	size_t len = g == REGIME_REPEATED ? (repeat_len ? repeat_len : DIST_SEQ_REPEAT_DEFAULT)
					  : DIST_SEQ_UNLEARNABLE;
	return dist_sample(d, len, seed, out);
}

int copy_seq_fixed(struct copy_seq *s, size_t n, uint32_t src_off,
		   uint32_t dst_off)
{
	memset(s, 0, sizeof *s);
	s->op = malloc(sizeof *s->op);
	if (!s->op)
		return -1;
	s->op[0] = (struct copy_op){ n, src_off, dst_off };
	s->len = 1;
	s->max_n = n;
	s->max_off = src_off > dst_off ? src_off : dst_off;
	s->mean_n = (double)n;
	return 0;
}

int copy_seq_sizes(struct copy_seq *s, const size_t *n, size_t len)
{
	memset(s, 0, sizeof *s);
	if (len == 0)
		return -1;
	s->op = malloc(len * sizeof *s->op);
	if (!s->op)
		return -1;
	double sum = 0;
	for (size_t i = 0; i < len; i++) {
		s->op[i] = (struct copy_op){ n[i], 0, 0 };
		sum += (double)n[i];
		if (n[i] > s->max_n)
			s->max_n = n[i];
	}
	s->len = len;
	s->mean_n = sum / (double)len;
	return 0;
}

void copy_seq_free(struct copy_seq *s)
{
	free(s->op);
	memset(s, 0, sizeof *s);
}
