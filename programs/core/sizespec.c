/*
 * sizespec.c - parsing sizes and size lists (sizespec.h).
 */
#include "sizespec.h"
#include "errmsg.h"
#include "ucopy.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parses s[0..len) as SIZE with the library's parser (include/ucopy.h),
 * which names the token in err when it is not one; past 2^64 it says the
 * list's bound too, max (0: none), as a size that fits does. */
static int size_span(const char *s, size_t len, size_t *out, size_t max, char *err,
		     size_t errlen)
{
	char small[64], *tok = len < sizeof small ? small : malloc(len + 1);
	if (!tok)
		return errmsg(err, errlen, "out of memory");
	memcpy(tok, s, len);
	tok[len] = '\0';
	int rc = ucopy_size_parse(tok, out, err, errlen);
	if (tok != small)
		free(tok);
	/* err holds a message only on failure: on success it may be unwritten. */
	if (rc < 0 && max && err && errlen) {
		size_t at = strlen(err);
		if (at >= 13 && !strcmp(err + at - 13, " is too large"))
			snprintf(err + at, errlen - at, " (at most %zu)", max);
	}
	return rc;
}

struct list {
	struct sizes *s;
	size_t cap, max_count, max_size;
	const char *noun;
};

static int too_large(const struct list *l, size_t v, char *err, size_t errlen)
{
	return errmsg(err, errlen, "%s %zu is too large (at most %zu)", l->noun, v,
		      l->max_size);
}

static int add(struct list *l, size_t v, char *err, size_t errlen)
{
	if (v > l->max_size)
		return too_large(l, v, err, errlen);
	if (l->s->n == l->max_count)
		return errmsg(err, errlen, "too many %ss (at most %zu)", l->noun,
			      l->max_count);
	if (l->s->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		size_t *p = realloc(l->s->v, cap * sizeof *p);
		if (!p)
			return errmsg(err, errlen, "out of memory");
		l->s->v = p;
		l->cap = cap;
	}
	l->s->v[l->s->n++] = v;
	return 0;
}

/* One ITEM, s[0..len). */
static int item(struct list *l, const char *s, size_t len, char *err,
		size_t errlen)
{
	int w = (int)(len > 64 ? 64 : len);
	if (len == 0)
		return errmsg(err, errlen, "empty item in size list (expected SIZE or SIZE-SIZE)");
	const char *dash = memchr(s, '-', len);
	if (!dash) {
		size_t v;
		if (size_span(s, len, &v, l->max_size, err, errlen) < 0)
			return -1;
		return add(l, v, err, errlen);
	}
	const char *end = s + len;
	const char *colon = memchr(dash, ':', (size_t)(end - dash));
	const char *hi_end = colon ? colon : end;
	size_t lo, hi;
	/* A missing end ("-5", "1-") is the item's fault, not an empty size's:
	 * quote the item. */
	if (dash == s || hi_end == dash + 1)
		return errmsg(err, errlen,
			    "bad size '%.*s' (expected a number with optional K, M or G, "
			    "or a range SIZE-SIZE)", w, s);
	if (size_span(s, (size_t)(dash - s), &lo, l->max_size, err, errlen) < 0 ||
	    size_span(dash + 1, (size_t)(hi_end - dash - 1), &hi, l->max_size, err, errlen) < 0)
		return -1;
	if (hi < lo)
		return errmsg(err, errlen, "bad range '%.*s' (the end is below the start)",
			    w, s);
	/* The end before the count: "1-2G" is a size too large, not too many. */
	if (hi > l->max_size)
		return too_large(l, hi, err, errlen);

	size_t add_step = 1;
	double factor = 0;
	if (colon) {
		const char *st = colon + 1;
		size_t slen = (size_t)(end - st);
		int sw = (int)(slen > 32 ? 32 : slen);
		int ok = 0;
		if (slen >= 2 && st[0] == '+') {
			ok = size_span(st + 1, slen - 1, &add_step, 0, NULL, 0) == 0 && add_step >= 1;
		} else if (slen >= 2 && (st[0] == 'x' || st[0] == '*')) {
			char buf[40], *e;
			if (slen - 1 < sizeof buf) {
				memcpy(buf, st + 1, slen - 1);
				buf[slen - 1] = '\0';
				errno = 0;
				factor = strtod(buf, &e);
				ok = errno == 0 && *e == '\0' && buf[0] >= '0' &&
				     buf[0] <= '9' && factor > 1 && factor <= 1024;
			}
		}
		if (!ok)
			return errmsg(err, errlen,
				    "bad step '%.*s' in '%.*s' (expected xFACTOR with FACTOR > 1, or +SIZE)",
				    sw, st, w, s);
	}
	if (factor > 0 && lo == 0)
		return errmsg(err, errlen,
			    "bad range '%.*s' (a multiplying range cannot start at 0)", w, s);

	for (size_t v = lo;;) {
		if (add(l, v, err, errlen) < 0)
			return -1;
		size_t next;
		if (factor > 0) {
			double f = nearbyint((double)v * factor);
			if (!(f <= (double)hi) || f >= 0x1p64)
				break;
			next = (size_t)f;
			if (next <= v)
				next = v + 1;
		} else {
			if (hi - v < add_step)
				break;
			next = v + add_step;
		}
		if (next > hi)
			break;
		v = next;
	}
	return 0;
}

static int cmp_pos(const void *pa, const void *pb)
{
	const size_t *a = pa, *b = pb;
	if (a[0] != b[0])
		return a[0] < b[0] ? -1 : 1;
	return (a[1] > b[1]) - (a[1] < b[1]);
}

/* Drops repeats, keeping each size where it first appeared: sorting
 * (value, position) pairs keeps this O(n log n) for "1-1M"-sized lists. */
static int dedupe(struct sizes *s)
{
	size_t n = s->n;
	if (n < 2)
		return 0;
	size_t *pair = malloc(2 * n * sizeof *pair);
	if (!pair)
		return -1;
	for (size_t i = 0; i < n; i++) {
		pair[2 * i] = s->v[i];
		pair[2 * i + 1] = i;
	}
	qsort(pair, n, 2 * sizeof *pair, cmp_pos);
	unsigned char *drop = calloc(n, 1);
	if (!drop) {
		free(pair);
		return -1;
	}
	for (size_t i = 1; i < n; i++)
		if (pair[2 * i] == pair[2 * i - 2])
			drop[pair[2 * i + 1]] = 1;
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (!drop[i])
			s->v[k++] = s->v[i];
	s->n = k;
	free(drop);
	free(pair);
	return 0;
}

int sizespec_parse(const char *spec, const char *noun, size_t max_count,
		   size_t max_size, struct sizes *out, char *err, size_t errlen)
{
	out->v = NULL;
	out->n = 0;
	struct list l = { out, 0, max_count ? max_count : 1000000,
			  max_size ? max_size : SIZE_MAX, noun ? noun : "size" };
	if (!spec[0])
		return errmsg(err, errlen, "empty size list (expected e.g. 64,4K or 1K-1M:x2)");
	for (const char *p = spec;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		if (item(&l, p, len, err, errlen) < 0) {
			sizes_free(out);
			return -1;
		}
		if (!comma)
			break;
		p = comma + 1;
	}
	if (dedupe(out) < 0) {
		sizes_free(out);
		return errmsg(err, errlen, "out of memory");
	}
	return 0;
}

void sizes_free(struct sizes *s)
{
	free(s->v);
	s->v = NULL;
	s->n = 0;
}
