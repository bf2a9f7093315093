/*
 * sequence.c - the recorded-sequence reader (sequence.h).
 *
 * Strict where dist.c is lenient: a sequence is written by `ucopy trace`,
 * not by hand, so anything off the format (a tab, a second space, a sign, a
 * blank line) says the file is not what it claims to be, and replaying it
 * would time something else without a word.
 */
#include "sequence.h"
#include "errmsg.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIELDS "THREAD SIZE SRC_ALIGN DST_ALIGN DISTANCE"

struct reader {
	const char *name;
	unsigned long line;
	char *err;
	size_t errlen;
};

static int rerr(struct reader *rd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int rerr(struct reader *rd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verrmsg_at(rd->err, rd->errlen, rd->name, rd->line, fmt, ap);
	va_end(ap);
	return -1;
}

/* A decimal field of s[0..len): digits only, at most `max`.
 * @return : 0, or -1 (not a number, or too large: *big says which). */
static int field(const char *s, size_t len, uint64_t max, uint64_t *out, int *big)
{
	uint64_t v = 0;
	*big = 0;
	if (len == 0)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		/* Past max the value is only "too large": stop before it wraps. */
		if (v > max) {
			*big = 1;
			continue;
		}
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (v > max) {
		*big = 1;
		return -1;
	}
	*out = v;
	return 0;
}

static int show(size_t len)
{
	return (int)(len > 40 ? 40 : len);
}

/* One call's line into op; *thread is its thread. */
static int parse_call(struct reader *rd, const char *s, size_t len, size_t *thread,
		      struct copy_op *op)
{
	static const char *const what[5] = { "thread", "size", "source alignment",
					      "destination alignment", "distance" };
	const uint64_t max[5] = { SEQ_MAX_THREADS - 1, SEQ_MAX_SIZE, 63, 63, 4095 };
	uint64_t v[5];
	size_t at = 0;
	for (int i = 0; i < 5; i++) {
		const char *sp = memchr(s + at, ' ', len - at);
		size_t end = i < 4 ? (sp ? (size_t)(sp - s) : len) : len;
		int big;
		char range[32];
		snprintf(range, sizeof range, "0..%llu", (unsigned long long)max[i]);
		if (i < 4 && !sp)
			return rerr(rd, "%d field%s in '%.*s' (expected 5: " FIELDS ")", i + 1,
				    i ? "s" : "", show(len), s);
		if (i == 4 && memchr(s + at, ' ', len - at))
			return rerr(rd, "more than 5 fields, or more than one space between "
				    "two, in '%.*s' (expected " FIELDS ")", show(len), s);
		if (field(s + at, end - at, max[i], &v[i], &big) < 0)
			return big ? rerr(rd, "%s '%.*s' is out of range (expected %s)", what[i],
					  show(end - at), s + at, range)
				   : rerr(rd, "bad %s '%.*s' (expected a decimal number, %s; "
					  "fields are separated by one space)", what[i],
					  show(end - at), s + at, range);
		at = end + 1;
	}
	if ((v[2] + v[4]) % 64 != v[3])
		return rerr(rd, "destination alignment %llu does not match source alignment "
			    "%llu and distance %llu (expected (%llu + %llu) mod 64 = %llu)",
			    (unsigned long long)v[3], (unsigned long long)v[2],
			    (unsigned long long)v[4], (unsigned long long)v[2],
			    (unsigned long long)v[4], (unsigned long long)((v[2] + v[4]) % 64));
	*thread = (size_t)v[0];
	op->n = (size_t)v[1];
	op->src_off = (uint32_t)v[2];
	op->dst_off = (uint32_t)((v[2] + v[4]) % 4096);
	return 0;
}

int replay_parse(const char *name, const char *buf, size_t len, struct replay *r,
		 char *err, size_t errlen)
{
	memset(r, 0, sizeof *r);
	struct reader rd = { name, 0, err, errlen };
	if (len == 0)
		return errmsg(err, errlen, "%s: empty sequence file (expected '" SEQ_HEADER
			      "' on the first line)", name);
	const char *nul = memchr(buf, '\0', len);
	if (nul) {
		rd.line = 1;
		for (const char *q = buf; q < nul; q++)
			rd.line += *q == '\n';
		return rerr(&rd, "a NUL byte (expected a text file)");
	}
	/* A byte for each of the thread table's flags: which threads' calls
	 * have been read, so that a thread that comes back is caught. */
	unsigned char *seen = calloc(SEQ_MAX_THREADS, 1);
	size_t cap = 0, cur = SIZE_MAX;
	struct copy_seq *s = &r->seq;
	const char *p = buf, *end = buf + len;
	int rc = 0;
	if (!seen) {
		rc = errmsg(err, errlen, "out of memory");
		goto out;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = (size_t)((nl ? nl : end) - p);
		rd.line++;
		if (!nl) {
			rc = rerr(&rd, "truncated: the line has no end (expected a newline)");
			goto out;
		}
		const char *line = p;
		p = nl + 1;
		if (rd.line == 1) {
			if (l != strlen(SEQ_HEADER) || memcmp(line, SEQ_HEADER, l)) {
				rc = rerr(&rd, "'%.*s' is not a sequence header (expected '"
					  SEQ_HEADER "')", show(l), line);
				goto out;
			}
			continue;
		}
		if (l && line[0] == '#')
			continue;
		if (l == 0) {
			rc = rerr(&rd, "empty line (expected " FIELDS ", or a '#' comment)");
			goto out;
		}
		struct copy_op op;
		size_t t = 0;
		if ((rc = parse_call(&rd, line, l, &t, &op)) < 0)
			goto out;
		if (t != cur) {
			if (seen[t]) {
				rc = rerr(&rd, "thread %zu's calls again after another thread's "
					  "(expected each thread's calls on consecutive lines)", t);
				goto out;
			}
			seen[t] = 1;
			cur = t;
			r->nthreads++;
		}
		if (s->len == SEQ_MAX_CALLS) {
			rc = rerr(&rd, "more than %zu calls (expected at most that many: a "
				  "longer trace is to be sampled)", (size_t)SEQ_MAX_CALLS);
			goto out;
		}
		if (s->len == cap) {
			size_t nc = cap ? 2 * cap : 1024;
			struct copy_op *q = realloc(s->op, nc * sizeof *q);
			if (!q) {
				rc = errmsg(err, errlen, "out of memory reading '%s'", name);
				goto out;
			}
			s->op = q;
			cap = nc;
		}
		s->op[s->len++] = op;
		r->bytes += (double)op.n;
		if (op.n > s->max_n)
			s->max_n = op.n;
		if (op.src_off > s->max_off)
			s->max_off = op.src_off;
		if (op.dst_off > s->max_off)
			s->max_off = op.dst_off;
	}
	if (s->len == 0) {
		rc = rerr(&rd, "no calls (expected at least one line of " FIELDS ")");
		goto out;
	}
	s->mean_n = r->bytes / (double)s->len;
out:
	free(seen);
	if (rc < 0)
		replay_free(r);
	return rc;
}

int replay_read_file(const char *path, struct replay *r, char *err, size_t errlen)
{
	memset(r, 0, sizeof *r);
	char *buf;
	size_t len;
	if (text_file_read(path, "sequence", SEQ_MAX_FILE, &buf, &len, err, errlen) < 0)
		return -1;
	int rc = replay_parse(path, buf, len, r, err, errlen);
	free(buf);
	return rc;
}

void replay_free(struct replay *r)
{
	copy_seq_free(&r->seq);
	memset(r, 0, sizeof *r);
}

void replay_cell(struct cell *c, const struct replay *r, enum cache_state cache)
{
	/* Base offsets 0: the per-call offsets carry the alignments and the
	 * distance, and both sides' regions are equal, so the walks stay in
	 * step and dst - src is the same in every slot. */
	cell_init(c, &r->seq, cache, 0, 0);
}
