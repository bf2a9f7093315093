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
		unsigned d = (unsigned)(s[i] - '0');
		/* Past max the value is only "too large": stop before it wraps. */
		if (*big || v > (max - d) / 10) {
			*big = 1;
			continue;
		}
		v = v * 10 + d;
	}
	if (*big)
		return -1;
	*out = v;
	return 0;
}

/* One call's line into c; *thread is its thread. */
static int parse_call(struct reader *rd, const char *s, size_t len, uint64_t max_size,
		      unsigned *thread, struct seq_call *c)
{
	static const char *const what[5] = { "thread", "size", "source alignment",
					      "destination alignment", "distance" };
	const uint64_t max[5] = { SEQ_MAX_THREADS - 1, max_size, 63, 63, 4095 };
	uint64_t v[5];
	size_t at = 0;
	for (int i = 0; i < 5; i++) {
		const char *sp = memchr(s + at, ' ', len - at);
		size_t end = i < 4 ? (sp ? (size_t)(sp - s) : len) : len;
		int big;
		if (i < 4 && !sp)
			return rerr(rd, "%d field%s in '%s' (expected 5: " FIELDS ")", i + 1,
				    i ? "s" : "", errmsg_show(s, len).s);
		if (i == 4 && memchr(s + at, ' ', len - at))
			return rerr(rd, "more than 5 fields, or more than one space between "
				    "two, in '%s' (expected " FIELDS ")", errmsg_show(s, len).s);
		if (field(s + at, end - at, max[i], &v[i], &big) < 0)
			return big ? rerr(rd, "%s '%s' is out of range (expected 0..%llu)",
					  what[i], errmsg_show(s + at, end - at).s,
					  (unsigned long long)max[i])
				   : rerr(rd, "bad %s '%s' (expected a decimal number, 0..%llu; "
					  "fields are separated by one space)", what[i],
					  errmsg_show(s + at, end - at).s,
					  (unsigned long long)max[i]);
		at = end + 1;
	}
	if ((v[2] + v[4]) % 64 != v[3])
		return rerr(rd, "destination alignment %llu does not match source alignment "
			    "%llu and distance %llu (expected (%llu + %llu) mod 64 = %llu)",
			    (unsigned long long)v[3], (unsigned long long)v[2],
			    (unsigned long long)v[4], (unsigned long long)v[2],
			    (unsigned long long)v[4], (unsigned long long)((v[2] + v[4]) % 64));
	*thread = (unsigned)v[0];
	c->size = v[1];
	c->src_align = (uint8_t)v[2];
	c->dst_align = (uint8_t)v[3];
	c->distance = (uint16_t)v[4];
	return 0;
}

/* "# thread T pid P tid X first_ns N calls C every K": what `ucopy trace`
 * says of thread T (sequence.h).  Any other '#' line is a free comment. */
struct meta {
	unsigned thread;
	uint64_t pid, tid, first_ns, calls, every;
};

/* The line as `ucopy trace` writes it, one space between fields: read
 * field by field, as a million of them may come (sscanf took most of the
 * reading). */
static int parse_meta(const char *line, size_t l, struct meta *m)
{
	static const char *const key[6] = { "# thread ", " pid ", " tid ", " first_ns ",
					     " calls ", " every " };
	uint64_t v[6];
	size_t at = 0;
	for (int i = 0; i < 6; i++) {
		size_t k = strlen(key[i]), d = 0;
		int big;
		if (l - at < k || memcmp(line + at, key[i], k))
			return 0;
		at += k;
		while (at + d < l && line[at + d] >= '0' && line[at + d] <= '9')
			d++;
		if (field(line + at, d, i ? UINT64_MAX : SEQ_MAX_THREADS - 1, &v[i], &big) < 0)
			return 0;
		at += d;
	}
	if (at != l || !v[5])
		return 0;
	*m = (struct meta){ (unsigned)v[0], v[1], v[2], v[3], v[4], v[5] };
	return 1;
}

static void set_meta(struct seq_thread *th, const struct meta *m)
{
	th->has_meta = 1;
	th->pid = m->pid;
	th->tid = m->tid;
	th->first_ns = m->first_ns;
	th->calls = m->calls;
	th->every = m->every;
}

/* "# lost: N calls of M thread(s) ...": what the interposer could not
 * record for want of memory. */
static int parse_lost(const char *line, size_t l, uint64_t *calls, uint64_t *threads)
{
	char buf[256];
	unsigned long long c, t;
	if (l >= sizeof buf || l < 8 || memcmp(line, "# lost: ", 8))
		return 0;
	memcpy(buf, line, l);
	buf[l] = 0;
	if (sscanf(buf, "# lost: %llu calls of %llu thread", &c, &t) != 2)
		return 0;
	*calls = c;
	*threads = t;
	return 1;
}

/* Room in the array *p (*cap elements of `size`) for element n: doubles it
 * when full, starting at `first`. */
static int room(void **p, size_t *cap, size_t n, size_t size, size_t first)
{
	if (n < *cap)
		return 0;
	size_t nc = *cap ? 2 * *cap : first;
	void *q = realloc(*p, nc * size);
	if (!q)
		return -1;
	*p = q;
	*cap = nc;
	return 0;
}

/* Over 100 lines: one pass, a branch per kind of line, sharing the per-thread state. */
int seq_parse(const char *name, const char *buf, size_t len, struct seq_limits lim,
	      struct seq_file *s, char *err, size_t errlen)
{
	memset(s, 0, sizeof *s);
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
	/* Per thread number: its place in s->thread plus 1 (0: its calls not
	 * read yet, so that a thread that comes back is caught), and where
	 * its last "# thread" line starts in buf plus 1, kept until its calls
	 * come (a line for a thread with no calls describes nothing).  Both
	 * are looked up, never scanned: a file may number 2^20 threads.
	 * calloc's pages stay untouched, so unused numbers cost no memory. */
	uint32_t *place = calloc(SEQ_MAX_THREADS, sizeof *place);
	size_t *meta_at = NULL;   /* at the first line that needs it */
	/* Every call in file order, in one array: a thread's calls are
	 * consecutive lines, so each thread is a slice of it (set at the
	 * end, when the array no longer moves).  An array per thread cost
	 * 4 KiB and 15-30 us a thread before its first call: 17-33 s and
	 * 4.2 GB for 2^20 one-call threads (docs/trace.md, "Reading cost"). */
	size_t tcap = 0, ccap = 0, total = 0;
	struct seq_thread *cur = NULL;
	const char *p = buf, *end = buf + len;
	int rc = 0;
	if (!place)
		goto oom;
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
		/* Said first: quoted, the line's \r would hide the cause. */
		if (l && line[l - 1] == '\r') {
			rc = rerr(&rd, "a CRLF line ending (expected LF alone: "
				  "tr -d '\\r' converts the file)");
			goto out;
		}
		if (rd.line == 1) {
			if (l != strlen(SEQ_HEADER) || memcmp(line, SEQ_HEADER, l)) {
				rc = rerr(&rd, "'%s' is not a sequence header (expected '"
					  SEQ_HEADER "')", errmsg_show(line, l).s);
				goto out;
			}
			continue;
		}
		if (l && line[0] == '#') {
			struct meta m;
			uint64_t lc, lt;
			if (parse_lost(line, l, &lc, &lt)) {
				s->lost_calls += lc;
				s->lost_threads += lt;
			} else if (parse_meta(line, l, &m)) {
				/* The last line of a thread's says what it was. */
				if (place[m.thread]) {
					set_meta(&s->thread[place[m.thread] - 1], &m);
				} else {
					if (!meta_at &&
					    !(meta_at = calloc(SEQ_MAX_THREADS, sizeof *meta_at)))
						goto oom;
					meta_at[m.thread] = (size_t)(line - buf) + 1;
				}
			}
			continue;
		}
		if (l == 0) {
			rc = rerr(&rd, "empty line (expected " FIELDS ", or a '#' comment)");
			goto out;
		}
		struct seq_call c;
		unsigned t = 0;
		if ((rc = parse_call(&rd, line, l, lim.max_size, &t, &c)) < 0)
			goto out;
		if (!cur || t != cur->index) {
			if (place[t]) {
				rc = rerr(&rd, "thread %u's calls again after another thread's "
					  "(expected each thread's calls on consecutive lines)", t);
				goto out;
			}
			if (room((void **)&s->thread, &tcap, s->nthreads, sizeof *s->thread, 16) < 0)
				goto oom;
			cur = &s->thread[s->nthreads++];
			memset(cur, 0, sizeof *cur);
			cur->index = t;
			place[t] = (uint32_t)s->nthreads;
			if (meta_at && meta_at[t]) {
				const char *ml = buf + meta_at[t] - 1;
				const char *me = memchr(ml, '\n', (size_t)(end - ml));
				struct meta m;
				if (parse_meta(ml, (size_t)(me - ml), &m))   /* it did before */
					set_meta(cur, &m);
			}
		}
		if (total == lim.max_calls) {
			rc = rerr(&rd, "more than %zu calls (expected at most that many: a "
				  "longer trace is to be sampled)", lim.max_calls);
			goto out;
		}
		if (room((void **)&s->calls, &ccap, total, sizeof *s->calls, 1024) < 0)
			goto oom;
		s->calls[total++] = c;
		cur->n++;
	}
	if (total == 0 && !lim.allow_empty) {
		rc = rerr(&rd, "no calls (expected at least one line of " FIELDS ")");
		goto out;
	}
	for (size_t i = 0, at = 0; i < s->nthreads; at += s->thread[i++].n)
		s->thread[i].call = s->calls + at;
	goto out;
oom:
	rc = errmsg(err, errlen, "out of memory reading '%s'", name);
out:
	free(place);
	free(meta_at);
	if (rc < 0)
		seq_free(s);
	return rc;
}

int seq_read(const char *path, struct seq_limits lim, struct seq_file *s, char *err,
	     size_t errlen)
{
	memset(s, 0, sizeof *s);
	char *buf;
	size_t len;
	if (text_file_read(path, "sequence", lim.max_calls == SIZE_MAX ? SIZE_MAX : SEQ_MAX_FILE,
			   &buf, &len, err, errlen) < 0)
		return -1;
	int rc = seq_parse(path, buf, len, lim, s, err, errlen);
	free(buf);
	return rc;
}

void seq_free(struct seq_file *s)
{
	free(s->calls);
	free(s->thread);
	memset(s, 0, sizeof *s);
}

/* The replay of s: every thread's calls, thread after thread. */
static int replay_of(const struct seq_file *f, struct replay *r, char *err, size_t errlen)
{
	struct copy_seq *s = &r->seq;
	size_t n = 0;
	for (size_t t = 0; t < f->nthreads; t++)
		n += f->thread[t].n;
	s->op = malloc(n * sizeof *s->op);
	if (!s->op)
		return errmsg(err, errlen, "out of memory");
	for (size_t t = 0; t < f->nthreads; t++)
		for (size_t i = 0; i < f->thread[t].n; i++) {
			const struct seq_call *c = &f->thread[t].call[i];
			struct copy_op *op = &s->op[s->len++];
			op->n = (size_t)c->size;
			op->src_off = c->src_align;
			op->dst_off = (uint32_t)((c->src_align + c->distance) % 4096);
			r->bytes += (double)op->n;
			if (op->n > s->max_n)
				s->max_n = op->n;
			if (op->src_off > s->max_off)
				s->max_off = op->src_off;
			if (op->dst_off > s->max_off)
				s->max_off = op->dst_off;
		}
	r->nthreads = f->nthreads;
	s->mean_n = r->bytes / (double)s->len;
	return 0;
}

/* r from f, which is freed; rc is what read it. */
static int replay_from(int rc, struct seq_file *f, struct replay *r, char *err, size_t errlen)
{
	if (rc == 0)
		rc = replay_of(f, r, err, errlen);
	seq_free(f);
	if (rc < 0)
		replay_free(r);
	return rc;
}

int replay_parse(const char *name, const char *buf, size_t len, struct replay *r,
		 char *err, size_t errlen)
{
	struct seq_file f;
	memset(r, 0, sizeof *r);
	return replay_from(seq_parse(name, buf, len, SEQ_REPLAY_LIMITS, &f, err, errlen), &f, r,
			   err, errlen);
}

int replay_read_file(const char *path, struct replay *r, char *err, size_t errlen)
{
	struct seq_file f;
	memset(r, 0, sizeof *r);
	return replay_from(seq_read(path, SEQ_REPLAY_LIMITS, &f, err, errlen), &f, r, err, errlen);
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
