/*
 * check_case.c - a case run and judged (check_case.h).
 */
#define _GNU_SOURCE
#include "check_case.h"
#include "errmsg.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* PROT_NONE pages before a side's first page and after its last: a
 * routine that reads or writes up to 64 KiB (4 KiB pages) beyond its
 * buffers faults rather than touching the other side. */
#define GUARD_PAGES 16

struct side {
	unsigned char *base;   /* the first page a case may use */
	size_t rw;             /* pages from base read-write (anonymous) */
	size_t file;           /* bytes from base mapped from the file, or 0 */
};

struct check_arena {
	size_t page, pages;    /* pages a side may use */
	unsigned char *map[2];
	size_t map_len;
	struct side s[2];
	/* pat[page + j]: the source's byte j (j from -page); can[page + j]:
	 * the canary at dst + j */
	unsigned char *pat, *can;
	size_t len;
	int fd;                /* the SIGBUS cases' file */
};

static unsigned char pattern_byte(int64_t j)
{
	uint32_t x = (uint32_t)j * 0x9e3779b1u;
	x ^= x >> 16;
	x *= 0x85ebca6bu;
	x ^= x >> 13;
	return (unsigned char)(x >> 24);
}

static int open_file(char *err, size_t errlen)
{
	int fd = memfd_create("ucopy-check", MFD_CLOEXEC);
	if (fd >= 0)
		return fd;
	/* A kernel without memfd: a temporary file, gone once closed. */
	FILE *f = tmpfile();
	if (f) {
		fd = fcntl(fileno(f), F_DUPFD_CLOEXEC, 0);
		fclose(f);
	}
	if (fd < 0)
		return errmsg(err, errlen, "cannot create a file for the SIGBUS cases: %s",
			      strerror(errno));
	return fd;
}

struct check_arena *check_arena_new(size_t max_span, size_t page, char *err, size_t errlen)
{
	struct check_arena *a = calloc(1, sizeof *a);
	if (!a) {
		errmsg(err, errlen, "out of memory");
		return NULL;
	}
	a->page = page;
	a->pages = (max_span + page - 1) / page + 1;
	a->map_len = (a->pages + 2 * GUARD_PAGES) * page;
	a->len = max_span + 3 * page;
	a->fd = -1;
	a->pat = malloc(a->len);
	a->can = malloc(a->len);
	for (int s = 0; s < 2; s++) {
		a->map[s] = mmap(NULL, a->map_len, PROT_NONE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (a->map[s] == MAP_FAILED) {
			a->map[s] = NULL;
			errmsg(err, errlen, "cannot reserve %zu MiB of address space: %s",
			       a->map_len >> 20, strerror(errno));
			check_arena_free(a);
			return NULL;
		}
		a->s[s].base = a->map[s] + GUARD_PAGES * page;
	}
	if (!a->pat || !a->can) {
		errmsg(err, errlen, "out of memory for %zu MiB of patterns", 2 * a->len >> 20);
		check_arena_free(a);
		return NULL;
	}
	for (size_t i = 0; i < a->len; i++) {
		a->pat[i] = pattern_byte((int64_t)i - (int64_t)page);
		a->can[i] = (unsigned char)~a->pat[i];
	}
	if ((a->fd = open_file(err, errlen)) < 0) {
		check_arena_free(a);
		return NULL;
	}
	return a;
}

void check_arena_free(struct check_arena *a)
{
	if (!a)
		return;
	for (int s = 0; s < 2; s++)
		if (a->map[s])
			munmap(a->map[s], a->map_len);
	if (a->fd >= 0)
		close(a->fd);
	free(a->pat);
	free(a->can);
	free(a);
}

/*=====   Placing a side   =====*/

/* Side s read-write for its first `pages` pages, PROT_NONE after them
 * (a file mapping left by the case before put back first). */
static int side_anon(struct check_arena *a, int s, size_t pages, char *msg, size_t len)
{
	struct side *d = &a->s[s];
	size_t pg = a->page;
	if (d->file) {
		if (mmap(d->base, d->file, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED |
			 MAP_NORESERVE, -1, 0) == MAP_FAILED)
			return errmsg(msg, len, "mmap: %s", strerror(errno));
		d->file = 0;
	}
	if (pages > d->rw && mprotect(d->base + d->rw * pg, (pages - d->rw) * pg,
				      PROT_READ | PROT_WRITE))
		return errmsg(msg, len, "mprotect: %s", strerror(errno));
	if (pages < d->rw && mprotect(d->base + pages * pg, (d->rw - pages) * pg, PROT_NONE))
		return errmsg(msg, len, "mprotect: %s", strerror(errno));
	d->rw = pages;
	return 0;
}

/* Side s mapped from the file for `mapped` pages, the file `pages` pages
 * long: an access to a page past them raises SIGBUS. */
static int side_file(struct check_arena *a, int s, size_t pages, size_t mapped, char *msg,
		     size_t len)
{
	struct side *d = &a->s[s];
	if (side_anon(a, s, 0, msg, len))
		return -1;
	if (ftruncate(a->fd, (off_t)(pages * a->page)))
		return errmsg(msg, len, "ftruncate: %s", strerror(errno));
	if (mmap(d->base, mapped * a->page, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
		 a->fd, 0) == MAP_FAILED)
		return errmsg(msg, len, "mmap of the SIGBUS file: %s", strerror(errno));
	d->file = mapped * a->page;
	return 0;
}

static size_t pages_for(size_t bytes, size_t page)
{
	return (bytes + page - 1) / page;
}

/* Places side s of case c: the pages its bytes lie in (at least one), or
 * for the faulting side those before the fault, and fills the usable
 * bytes (the pattern on the source side, canaries on the destination's).
 * @return : the usable bytes from base, or (size_t)-1 with why in msg. */
static size_t place(struct check_arena *a, const struct check_case *c,
		    const struct check_place *p, int s, char *msg, size_t len)
{
	size_t pg = a->page, off = p->off[s], end = off + p->span[s];
	size_t usable = pages_for(end, pg) * pg;
	int rc;
	if (!usable)
		usable = pg;
	if (c->kind == CHECK_FAULT && c->side == s) {
		usable = off + c->at;   /* a page boundary */
		if (c->sig == CHECK_SEGV)
			rc = side_anon(a, s, usable / pg, msg, len);
		else
			rc = side_file(a, s, usable / pg, pages_for(end, pg), msg, len);
	} else {
		rc = side_anon(a, s, usable / pg, msg, len);
	}
	if (rc)
		return (size_t)-1;
	const unsigned char *fill = s == CHECK_SRC ? a->pat : a->can;
	memcpy(a->s[s].base, fill + pg - off, usable);
	if (c->kind == CHECK_OVERLAP)
		memcpy(a->s[s].base + off, a->pat + pg, p->span[s]);
	return usable;
}

/*=====   Judging   =====*/

struct diff {
	size_t count, first, last;   /* positions from the side's base */
};

static void diff_range(const unsigned char *got, const unsigned char *want, size_t from,
		       size_t to, struct diff *d)
{
	if (to <= from || !memcmp(got + from, want + from, to - from))
		return;
	for (size_t i = from; i < to; i++)
		if (got[i] != want[i]) {
			if (!d->count++)
				d->first = i;
			d->last = i;
		}
}

/* The destination side's bytes in [from, to), outside dst: canaries, and
 * an overlap's source bytes where they lie. */
static void diff_outside(const struct check_arena *a, const struct check_case *c,
			 const struct check_place *p, size_t from, size_t to, struct diff *d)
{
	const unsigned char *got = a->s[CHECK_DST].base;
	size_t pg = a->page, off = p->off[CHECK_DST];
	const unsigned char *can = a->can + pg - off, *pat = a->pat + pg - off;
	size_t lo = off, hi = c->kind == CHECK_OVERLAP ? off + p->span[CHECK_DST] : off;
	size_t x = from < lo ? lo : from, y = to < hi ? to : hi;
	diff_range(got, can, from, to < lo ? to : lo, d);
	if (x < y)
		diff_range(got, pat, x, y, d);
	diff_range(got, can, from > hi ? from : hi, to, d);
}

static size_t say_range(char *msg, size_t len, const char *what, const struct diff *d,
			size_t dst)
{
	long long f = (long long)d->first - (long long)dst, l = (long long)d->last - (long long)dst;
	if (d->count == 1)
		return (size_t)snprintf(msg, len, "wrote 1 byte %s (dst[%lld])", what, f);
	return (size_t)snprintf(msg, len, "wrote %zu bytes %s (dst[%lld] to dst[%lld])", d->count,
				what, f, l);
}

/* How a pointer a routine returned relates to dst and src. */
static void say_pointer(char *buf, size_t len, const void *ret, const unsigned char *dst,
			const unsigned char *src)
{
	intptr_t r = (intptr_t)ret, dd = r - (intptr_t)dst, ds = r - (intptr_t)src;
	if (!ret)
		snprintf(buf, len, "NULL");
	else if (!dd || !ds)
		snprintf(buf, len, "%s", dd ? "src" : "dst");
	else if (dd >= -(1 << 20) && dd <= 1 << 20)
		snprintf(buf, len, "dst%+ld", (long)dd);
	else if (ds >= -(1 << 20) && ds <= 1 << 20)
		snprintf(buf, len, "src%+ld", (long)ds);
	else
		snprintf(buf, len, "%p", ret);
}

struct call {
	unsigned char *src, *dst;
	size_t n;
	const void *ret;     /* memcpy, memmove */
	size_t left;         /* try */
};

/* The return, against the contract; *good: the bytes of dst to judge. */
static int judge_return(const struct routine *r, const struct check_case *c, int at_least,
			const struct call *k, size_t *good, char *msg, size_t len)
{
	size_t n = k->n;
	*good = n;
	if (r->contract != ROUTINE_TRY) {
		if (k->ret == k->dst)
			return 0;
		char p[64];
		say_pointer(p, sizeof p, k->ret, k->dst, k->src);
		snprintf(msg, len, "returned %s, expected dst", p);
		return 1;
	}
	int fault = c->kind == CHECK_FAULT;
	size_t want = fault ? n - c->at : 0;
	*good = k->left <= n ? n - k->left : 0;
	/* Without a fault every byte is copied, whatever --count says. */
	if (k->left == want || (at_least && fault && k->left > want && k->left <= n))
		return 0;
	if (at_least && fault)
		snprintf(msg, len, "returned %zu, expected %zu to %zu (--count at-least)", k->left,
			 want, n);
	else
		snprintf(msg, len, "returned %zu, expected %zu", k->left, want);
	return 1;
}

static int judge(const struct check_arena *a, const struct routine *r,
		 const struct check_case *c, int at_least, const struct check_place *p,
		 const struct call *k, const size_t usable[2], char *msg, size_t len)
{
	size_t pg = a->page, n = k->n, good;
	size_t dst = p->off[CHECK_DST] + p->dst;     /* from the destination's base */
	struct diff before = { 0 }, after = { 0 }, inside = { 0 }, src = { 0 };
	diff_outside(a, c, p, 0, dst, &before);
	diff_outside(a, c, p, dst + n, usable[CHECK_DST], &after);
	if (before.count) {
		say_range(msg, len, "before the start", &before, dst);
		return 1;
	}
	if (after.count) {
		say_range(msg, len, "past the end", &after, dst);
		return 1;
	}
	if (judge_return(r, c, at_least, k, &good, msg, len))
		return 1;
	/* The bytes copied: the source's, as far as the destination can be
	 * read (a destination fault's page cannot). */
	if (dst + good > usable[CHECK_DST])
		good = usable[CHECK_DST] - dst;
	const unsigned char *want = a->pat + pg + p->src;
	diff_range(k->dst, want, 0, good, &inside);
	if (inside.count) {
		snprintf(msg, len, "dst[%zu] is 0x%02x, expected 0x%02x (%zu of %zu bytes wrong)",
			 inside.first, k->dst[inside.first], want[inside.first], inside.count, good);
		return 1;
	}
	if (c->kind != CHECK_OVERLAP) {
		size_t off = p->off[CHECK_SRC], end = off + n;
		if (end > usable[CHECK_SRC])
			end = usable[CHECK_SRC];
		diff_range(a->s[CHECK_SRC].base, a->pat + pg - off, off, end, &src);
		if (src.count) {
			snprintf(msg, len, "changed the source (%zu byte%s, src[%zu] first)",
				 src.count, src.count == 1 ? "" : "s", src.first - off);
			return 1;
		}
	}
	return 0;
}

int check_case_run(struct check_arena *a, const struct routine *r, const struct check_case *c,
		   int at_least, char *msg, size_t len)
{
	struct check_place p;
	check_case_place(c, a->page, &p);
	if (p.off[CHECK_SRC] + p.span[CHECK_SRC] > (a->pages - 1) * a->page ||
	    p.off[CHECK_DST] + p.span[CHECK_DST] > (a->pages - 1) * a->page)
		return errmsg(msg, len, "the case is larger than the buffers");
	size_t usable[2] = { 0, 0 };
	if (c->kind != CHECK_OVERLAP &&
	    (usable[CHECK_SRC] = place(a, c, &p, CHECK_SRC, msg, len)) == (size_t)-1)
		return -1;
	if ((usable[CHECK_DST] = place(a, c, &p, CHECK_DST, msg, len)) == (size_t)-1)
		return -1;
	struct call k = { .n = c->size };
	k.dst = a->s[CHECK_DST].base + p.off[CHECK_DST] + p.dst;
	k.src = c->kind == CHECK_OVERLAP ? a->s[CHECK_DST].base + p.off[CHECK_DST] + p.src
					 : a->s[CHECK_SRC].base + p.off[CHECK_SRC];
	if (r->contract == ROUTINE_TRY)
		k.left = r->try_fn(k.dst, k.src, k.n);
	else
		k.ret = r->copy(k.dst, k.src, k.n);
	return judge(a, r, c, at_least, &p, &k, usable, msg, len);
}
