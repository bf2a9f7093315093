/*
 * seqfile.c - reading the sequence format (seqfile.h).
 */
#include "seqfile.h"
#include "errmsg.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC "# ucopy sequence 1"

/* One decimal field ending at a space (more follow) or the line's end. */
static int field(const char **p, int last, uint64_t max, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;
	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (x > (UINT64_MAX - 9) / 10)
			return -1;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	if (x > max || (last ? *s != 0 : *s != ' '))
		return -1;
	*p = last ? s : s + 1;
	*v = x;
	return 0;
}

static const char *const what[5] = {
	"a thread index", "a size", "src_align (0-63)", "dst_align (0-63)",
	"distance (0-4095)"
};

static int grow_threads(struct seq_file *s, size_t need)
{
	if (need <= s->nthreads)
		return 0;
	struct seq_thread *t = realloc(s->thread, need * sizeof *t);
	if (!t)
		return -1;
	memset(t + s->nthreads, 0, (need - s->nthreads) * sizeof *t);
	s->thread = t;
	s->nthreads = need;
	return 0;
}

static int push(struct seq_thread *t, size_t *cap, const struct seq_call *c)
{
	if (t->n == *cap) {
		size_t nc = *cap ? 2 * *cap : 1024;
		struct seq_call *p = realloc(t->call, nc * sizeof *p);
		if (!p)
			return -1;
		t->call = p;
		*cap = nc;
	}
	t->call[t->n++] = *c;
	return 0;
}

/* "# thread T pid P tid X first_ns N calls C every K"; anything else that
 * starts with '#' is a free comment. */
static void meta(struct seq_file *s, const char *l)
{
	unsigned long long t, pid, tid, first, calls, every;
	int end = 0;
	if (sscanf(l, "# thread %llu pid %llu tid %llu first_ns %llu calls %llu every %llu%n",
		   &t, &pid, &tid, &first, &calls, &every, &end) != 6 || l[end] ||
	    t > 1u << 20 || !every || grow_threads(s, (size_t)t + 1) < 0)
		return;
	struct seq_thread *th = &s->thread[t];
	th->has_meta = 1;
	th->pid = pid;
	th->tid = tid;
	th->first_ns = first;
	th->calls = calls;
	th->every = every;
}

int seq_read(const char *path, struct seq_file *s, char *err, size_t errlen)
{
	memset(s, 0, sizeof *s);
	FILE *f = fopen(path, "r");
	if (!f)
		return errmsg(err, errlen, "cannot read '%s': %s", path, strerror(errno));
	char *line = NULL;
	size_t lcap = 0, cap = 0, lineno = 0, cur = 0;
	int started = 0, rc = 0;
	ssize_t len;
	while ((len = getline(&line, &lcap, f)) >= 0) {
		lineno++;
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = 0;
		else {
			rc = errmsg(err, errlen, "%s:%zu: the line has no end (expected a newline)",
				    path, lineno);
			break;
		}
		if (lineno == 1) {
			if (strcmp(line, MAGIC)) {
				rc = errmsg(err, errlen, "%s:1: expected '" MAGIC "' (not a sequence file)",
					    path);
				break;
			}
			continue;
		}
		if (line[0] == '#') {
			meta(s, line);
			continue;
		}
		uint64_t v[5];
		const uint64_t max[5] = { UINT32_MAX, UINT64_MAX, 63, 63, 4095 };
		const char *p = line;
		int i;
		for (i = 0; i < 5; i++)
			if (field(&p, i == 4, max[i], &v[i]) < 0)
				break;
		if (i < 5) {
			rc = errmsg(err, errlen, "%s:%zu: expected %s%s (a line is 'THREAD SIZE "
				    "SRC_ALIGN DST_ALIGN DISTANCE', decimal, one space apart)",
				    path, lineno, what[i], i == 4 ? " and the line's end" : "");
			break;
		}
		if (!started ? v[0] != 0 : v[0] != cur && v[0] != cur + 1) {
			rc = errmsg(err, errlen, "%s:%zu: expected thread %zu%s (threads are numbered "
				    "from 0 in order, each one's calls together), not %llu",
				    path, lineno, cur, started ? " or the next one" : "",
				    (unsigned long long)v[0]);
			break;
		}
		if (started && v[0] == cur + 1) {
			cur++;
			cap = 0;
		}
		started = 1;
		struct seq_call c = { v[1], (uint16_t)v[4], (uint8_t)v[2], (uint8_t)v[3] };
		if (grow_threads(s, cur + 1) < 0 || push(&s->thread[cur], &cap, &c) < 0) {
			rc = errmsg(err, errlen, "%s: out of memory", path);
			break;
		}
	}
	if (!rc && ferror(f))
		rc = errmsg(err, errlen, "cannot read '%s': %s", path, strerror(errno));
	if (!rc && lineno == 0)
		rc = errmsg(err, errlen, "%s:1: expected '" MAGIC "' (the file is empty)", path);
	free(line);
	fclose(f);
	/* A "# thread" line for a thread with no calls describes nothing. */
	if (!rc)
		s->nthreads = started ? cur + 1 : 0;
	if (rc)
		seq_free(s);
	return rc;
}

void seq_free(struct seq_file *s)
{
	for (size_t i = 0; i < s->nthreads; i++)
		free(s->thread[i].call);
	free(s->thread);
	memset(s, 0, sizeof *s);
}

unsigned seq_class(uint64_t size)
{
	if (size == 0)
		return 0;
	if (size <= 16)
		return 1;
	unsigned lg = 64 - (unsigned)__builtin_clzll(size - 1);  /* ceil(log2) */
	return lg - 3;
}

static void fmt_size(uint64_t v, char *buf, size_t len)
{
	if (v >= 1u << 20 && v % (1u << 20) == 0)
		snprintf(buf, len, "%lluM", (unsigned long long)(v >> 20));
	else if (v >= 1024 && v % 1024 == 0)
		snprintf(buf, len, "%lluK", (unsigned long long)(v >> 10));
	else
		snprintf(buf, len, "%llu", (unsigned long long)v);
}

void seq_class_name(unsigned c, char *buf, size_t len)
{
	if (c == 0) {
		snprintf(buf, len, "0");
		return;
	}
	if (c == 1) {
		snprintf(buf, len, "1-16");
		return;
	}
	char lo[24], hi[24];
	fmt_size(((uint64_t)1 << (c + 2)) + 1, lo, sizeof lo);
	if (c + 3 >= 64)
		snprintf(hi, sizeof hi, "2^64-1");
	else
		fmt_size((uint64_t)1 << (c + 3), hi, sizeof hi);
	snprintf(buf, len, "%s-%s", lo, hi);
}
