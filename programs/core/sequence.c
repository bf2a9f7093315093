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
		char range[32];
		snprintf(range, sizeof range, "0..%llu", (unsigned long long)max[i]);
		if (i < 4 && !sp)
			return rerr(rd, "%d field%s in '%s' (expected 5: " FIELDS ")", i + 1,
				    i ? "s" : "", errmsg_show(s, len).s);
		if (i == 4 && memchr(s + at, ' ', len - at))
			return rerr(rd, "more than 5 fields, or more than one space between "
				    "two, in '%s' (expected " FIELDS ")", errmsg_show(s, len).s);
		if (field(s + at, end - at, max[i], &v[i], &big) < 0)
			return big ? rerr(rd, "%s '%s' is out of range (expected %s)", what[i],
					  errmsg_show(s + at, end - at).s, range)
				   : rerr(rd, "bad %s '%s' (expected a decimal number, %s; "
					  "fields are separated by one space)", what[i],
					  errmsg_show(s + at, end - at).s, range);
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
 * says of thread T (sequence.h).  Any other '#' line is a free comment.
 * Kept by thread number until T's calls come. */
struct meta {
	unsigned thread;
	uint64_t pid, tid, first_ns, calls, every;
};

static int parse_meta(const char *line, size_t l, struct meta *m)
{
	char buf[256];
	unsigned long long t, pid, tid, first, calls, every;
	int end = 0;
	if (l >= sizeof buf)
		return 0;
	memcpy(buf, line, l);
	buf[l] = 0;
	if (sscanf(buf, "# thread %llu pid %llu tid %llu first_ns %llu calls %llu every %llu%n",
		   &t, &pid, &tid, &first, &calls, &every, &end) != 6 || buf[end] ||
	    t >= SEQ_MAX_THREADS || !every)
		return 0;
	*m = (struct meta){ (unsigned)t, pid, tid, first, calls, every };
	return 1;
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
	/* Per thread number: whether its calls have been read (so that a
	 * thread that comes back is caught), and its "# thread" line. */
	unsigned char *seen = calloc(SEQ_MAX_THREADS, 1);
	struct meta *meta = NULL;
	size_t nmeta = 0, capmeta = 0, tcap = 0, ccap = 0, total = 0;
	struct seq_thread *cur = NULL;
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
				continue;
			}
			if (!parse_meta(line, l, &m))
				continue;
			if (room((void **)&meta, &capmeta, nmeta, sizeof *meta, 16) < 0)
				goto oom;
			meta[nmeta++] = m;
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
			if (seen[t]) {
				rc = rerr(&rd, "thread %u's calls again after another thread's "
					  "(expected each thread's calls on consecutive lines)", t);
				goto out;
			}
			seen[t] = 1;
			if (room((void **)&s->thread, &tcap, s->nthreads, sizeof *s->thread, 4) < 0)
				goto oom;
			cur = &s->thread[s->nthreads++];
			memset(cur, 0, sizeof *cur);
			cur->index = t;
			ccap = 0;
		}
		if (total == lim.max_calls) {
			rc = rerr(&rd, "more than %zu calls (expected at most that many: a "
				  "longer trace is to be sampled)", lim.max_calls);
			goto out;
		}
		if (room((void **)&cur->call, &ccap, cur->n, sizeof *cur->call, 1024) < 0)
			goto oom;
		cur->call[cur->n++] = c;
		total++;
	}
	if (total == 0 && !lim.allow_empty) {
		rc = rerr(&rd, "no calls (expected at least one line of " FIELDS ")");
		goto out;
	}
	/* A "# thread" line for a thread with no calls describes nothing. */
	for (size_t i = 0; i < nmeta; i++)
		for (size_t j = 0; j < s->nthreads; j++)
			if (s->thread[j].index == meta[i].thread) {
				struct seq_thread *th = &s->thread[j];
				th->has_meta = 1;
				th->pid = meta[i].pid;
				th->tid = meta[i].tid;
				th->first_ns = meta[i].first_ns;
				th->calls = meta[i].calls;
				th->every = meta[i].every;
			}
	goto out;
oom:
	rc = errmsg(err, errlen, "out of memory reading '%s'", name);
out:
	free(seen);
	free(meta);
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
	for (size_t i = 0; i < s->nthreads; i++)
		free(s->thread[i].call);
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
