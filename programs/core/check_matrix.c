/*
 * check_matrix.c - the cases of `ucopy check` and their text
 * (check_matrix.h).  docs/check.md explains the choice of each list.
 */
#include "check_matrix.h"
#include "errmsg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Past a page: odd sizes around one and two pages, then a few of many
 * pages up to 4 MiB, where routines change strategy (rep movsb,
 * non-temporal stores). */
static const uint32_t large_full[] = {
	4097, 4099, 6000, 8191, 8192, 8195, 12289, 16389, 65543, 131071,
	1048579, 4194309,
};
static const uint32_t every_quick_more[] = {
	511, 512, 513, 1023, 1024, 4095, 4096, 4097, 8191, 65543, 1048579,
};
/* Every source and destination alignment pair at these: every short size
 * (a routine's head and tail code) and each side of the usual block
 * sizes. */
static const uint32_t pairs_full[] = {
	1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 24, 31, 32, 33,
	48, 63, 64, 65, 96, 127, 128, 129, 255, 256, 257, 511, 512, 513, 1000,
	1023, 1024, 2051, 4095, 4096, 4097, 8191,
};
static const uint32_t pairs_quick[] = { 1, 7, 16, 33, 64, 129 };
static const uint32_t pairs_quick_dst[] = { 0, 1, 7, 8, 31, 32, 33, 63 };
/* (dst - src) mod 4096: where a CPU takes a load for an alias of an
 * earlier store (4K aliasing) and where rep movsb on AMD Zen 3 crawls, so
 * where a routine tuned for speed may take another path. */
static const uint32_t dist_sizes_full[] = {
	8, 64, 100, 256, 1000, 2048, 4096, 4352, 8201, 65543, 1048579,
};
static const uint32_t dist_sizes_quick[] = { 64, 4352 };
static const uint32_t dist_quick[] = { 0, 1, 2, 3, 31, 32, 63, 64, 2048, 4032, 4064, 4095 };
static const uint32_t overlap_full[] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100,
	127, 128, 129, 255, 256, 257, 511, 512, 513, 1000, 2048, 4095, 4096,
	4097, 8201, 65543, 1048579,
};
static const uint32_t overlap_quick[] = {
	0, 1, 2, 3, 4, 7, 8, 9, 16, 17, 33, 64, 65, 128, 129, 257, 1000, 4097,
};
/* Faults: every offset of every size to 300 (to 48 quick), then these at
 * strided offsets. */
static const uint32_t fault_full[] = {
	301, 383, 512, 513, 1000, 1024, 2049, 4095, 4096, 4097, 8191, 8193,
	16389, 65543,
};
static const uint32_t fault_quick[] = { 64, 100, 257, 4097 };

int check_matrix_add(struct check_matrix *m, const struct check_case *c)
{
	struct check_place p;
	check_case_place(c, m->page, &p);
	for (int s = CHECK_SRC; s <= CHECK_DST; s++)
		if (p.off[s] + p.span[s] > m->max_span)
			m->max_span = p.off[s] + p.span[s];
	if (m->n == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 4096;
		struct check_case *v = realloc(m->v, cap * sizeof *v);
		if (!v)
			return -1;
		m->v = v;
		m->cap = cap;
	}
	m->v[m->n++] = *c;
	return 0;
}

void check_matrix_free(struct check_matrix *m)
{
	free(m->v);
	m->v = NULL;
	m->n = m->cap = m->max_span = 0;
}

/* The offset in a page at which span bytes end at the page's end. */
static uint32_t end_off(uint64_t span, size_t page)
{
	return (uint32_t)((page - span % page) % page);
}

/* The offset with alignment a mod 64 at which span bytes end closest
 * before a page's end (less than 64 bytes before it). */
static uint32_t end_at(uint64_t span, uint32_t a, size_t page)
{
	uint32_t e = end_off(span, page);
	return (uint32_t)((e + page - ((e - a) & 63)) % page);
}

static int copy(struct check_matrix *m, uint32_t n, uint32_t a, uint32_t b)
{
	struct check_case c = { .kind = CHECK_COPY, .size = n, .src_align = a, .dst_align = b };
	return check_matrix_add(m, &c);
}

/* Each size at the placements against the guard pages: both flush
 * against the page before, both against the page after, one of each
 * either way, and an odd pair that moves with the size. */
static int every_size(struct check_matrix *m, uint32_t n, size_t page)
{
	uint32_t e = end_off(n, page);
	uint32_t p[5][2] = { { 0, 0 }, { e, e }, { e, 0 }, { 0, e },
			     { 1 + n % 63, 63 - n % 61 } };
	for (int i = 0; i < 5; i++) {
		int seen = 0;
		for (int j = 0; j < i; j++)
			seen |= p[j][0] == p[i][0] && p[j][1] == p[i][1];
		if (!seen && copy(m, n, p[i][0], p[i][1]))
			return -1;
	}
	return 0;
}

static int copy_sizes(struct check_matrix *m, int quick, size_t page)
{
	uint32_t top = quick ? 300 : 4096;
	for (uint32_t n = 0; n <= top; n++)
		if (every_size(m, n, page))
			return -1;
	const uint32_t *more = quick ? every_quick_more : large_full;
	size_t nmore = quick ? ARRAY_LEN(every_quick_more) : ARRAY_LEN(large_full);
	for (size_t i = 0; i < nmore; i++)
		if (more[i] > top && every_size(m, more[i], page))
			return -1;
	return 0;
}

/* Each pair twice: from near the page's start, and ending less than 64
 * bytes before a page's end. */
static int copy_pairs(struct check_matrix *m, int quick, size_t page)
{
	const uint32_t *ns = quick ? pairs_quick : pairs_full;
	size_t nns = quick ? ARRAY_LEN(pairs_quick) : ARRAY_LEN(pairs_full);
	size_t nb = quick ? ARRAY_LEN(pairs_quick_dst) : 64;
	for (size_t i = 0; i < nns; i++)
		for (uint32_t a = 0; a < 64; a++)
			for (size_t j = 0; j < nb; j++) {
				uint32_t b = quick ? pairs_quick_dst[j] : (uint32_t)j;
				if (copy(m, ns[i], a, b) ||
				    copy(m, ns[i], end_at(ns[i], a, page), end_at(ns[i], b, page)))
					return -1;
			}
	return 0;
}

static int copy_distances(struct check_matrix *m, int quick, size_t page)
{
	const uint32_t *ns = quick ? dist_sizes_quick : dist_sizes_full;
	size_t nns = quick ? ARRAY_LEN(dist_sizes_quick) : ARRAY_LEN(dist_sizes_full);
	uint32_t dist[130];
	size_t nd = 0;
	if (quick) {
		memcpy(dist, dist_quick, sizeof dist_quick);
		nd = ARRAY_LEN(dist_quick);
	} else {
		for (uint32_t d = 0; d <= 64; d++)
			dist[nd++] = d;
		dist[nd++] = 2048;
		for (uint32_t d = 4032; d < 4096; d++)
			dist[nd++] = d;
	}
	static const uint32_t srcs[2] = { 0, 37 };
	for (size_t i = 0; i < nns; i++)
		for (int s = 0; s < (quick ? 1 : 2); s++)
			for (size_t j = 0; j < nd; j++)
				if (copy(m, ns[i], srcs[s], (uint32_t)((srcs[s] + dist[j]) % page)))
					return -1;
	return 0;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* Sorts v[0..n) and drops repeats.  @return : the count left. */
static size_t sort_unique(int64_t *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_i64);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (!k || v[i] != v[k - 1])
			v[k++] = v[i];
	return k;
}

/* dst = src + d for every |d| <= reach, and overlaps of about the size
 * either way (half, a third, one short of none, none, one past). */
static int overlap_matrix(struct check_matrix *m, int quick, size_t page)
{
	int64_t reach = quick ? 64 : 256;
	int64_t *d = malloc((size_t)(2 * reach + 1 + 12) * sizeof *d);
	if (!d)
		return -1;
	const uint32_t *ns = quick ? overlap_quick : overlap_full;
	size_t nns = quick ? ARRAY_LEN(overlap_quick) : ARRAY_LEN(overlap_full);
	for (size_t i = 0; i < nns; i++) {
		int64_t n = ns[i];
		size_t nd = 0;
		for (int64_t x = -reach; x <= reach; x++)
			d[nd++] = x;
		int64_t far[6] = { n / 3, n / 2, n - 1, n, n + 1, 2 * n };
		for (int j = 0; j < 6; j++)
			if (far[j] > reach) {
				d[nd++] = far[j];
				d[nd++] = -far[j];
			}
		nd = sort_unique(d, nd);
		for (size_t j = 0; j < nd; j++) {
			uint64_t span = (uint64_t)n + (uint64_t)(d[j] < 0 ? -d[j] : d[j]);
			uint32_t lo[2] = { 0, end_off(span, page) };
			for (int p = 0; p < (quick || lo[1] == 0 ? 1 : 2); p++) {
				struct check_case c = {
					.kind = CHECK_OVERLAP, .size = (uint32_t)n,
					.delta = (int32_t)d[j],
					.src_align = (uint32_t)((lo[p] + (d[j] < 0 ? -d[j] : 0)) % page),
				};
				if (check_matrix_add(m, &c)) {
					free(d);
					return -1;
				}
			}
		}
	}
	free(d);
	return 0;
}

/* The four faults at byte k of an n-byte copy, the other side's
 * alignment moving with both. */
static int faults_at(struct check_matrix *m, uint32_t n, uint32_t k)
{
	static const uint8_t order[4][2] = {
		{ CHECK_SRC, CHECK_SEGV }, { CHECK_DST, CHECK_SEGV },
		{ CHECK_SRC, CHECK_BUS }, { CHECK_DST, CHECK_BUS },
	};
	uint32_t other = (n + 3 * k) & 63;
	for (int i = 0; i < 4; i++) {
		struct check_case c = {
			.kind = CHECK_FAULT, .size = n, .at = k,
			.side = order[i][0], .sig = order[i][1],
			.src_align = order[i][0] == CHECK_DST ? other : 0,
			.dst_align = order[i][0] == CHECK_SRC ? other : 0,
		};
		if (check_matrix_add(m, &c))
			return -1;
	}
	return 0;
}

static int fault_matrix(struct check_matrix *m, int quick, size_t page)
{
	uint32_t top = quick ? 48 : 300;
	for (uint32_t n = 1; n <= top; n++)
		for (uint32_t k = 0; k < n; k++)
			if (faults_at(m, n, k))
				return -1;
	const uint32_t *ns = quick ? fault_quick : fault_full;
	size_t nns = quick ? ARRAY_LEN(fault_quick) : ARRAY_LEN(fault_full);
	int64_t edge = quick ? 8 : 64, strides = quick ? 2 : 64;
	int64_t *ks = malloc((size_t)(4 * edge + strides + 8) * sizeof *ks);
	if (!ks)
		return -1;
	for (size_t i = 0; i < nns; i++) {
		int64_t n = ns[i];
		size_t nk = 0;
		/* The first and last bytes, a stride across, and both sides of
		 * the page boundaries a copy from a page's start crosses. */
		for (int64_t k = 0; k < edge; k++) {
			ks[nk++] = k;
			ks[nk++] = n - 1 - k;
		}
		for (int64_t j = 1; j < strides; j++)
			ks[nk++] = n * j / strides;
		for (int64_t p = 1; p <= 2; p++)
			for (int64_t x = -1; x <= 1; x++)
				ks[nk++] = p * (int64_t)page + x;
		nk = sort_unique(ks, nk);
		for (size_t j = 0; j < nk; j++)
			if (ks[j] >= 0 && ks[j] < n && faults_at(m, (uint32_t)n, (uint32_t)ks[j])) {
				free(ks);
				return -1;
			}
	}
	free(ks);
	return 0;
}

void check_case_place(const struct check_case *c, size_t page, struct check_place *p)
{
	size_t n = c->size;
	memset(p, 0, sizeof *p);
	p->off[CHECK_SRC] = c->src_align;
	p->off[CHECK_DST] = c->dst_align;
	p->span[CHECK_SRC] = p->span[CHECK_DST] = n;
	if (c->kind == CHECK_OVERLAP) {
		size_t back = c->delta < 0 ? (size_t)-(int64_t)c->delta : 0;
		size_t fwd = c->delta > 0 ? (size_t)c->delta : 0;
		p->span[CHECK_SRC] = 0;
		p->off[CHECK_SRC] = 0;
		p->off[CHECK_DST] = (c->src_align + page - back % page) % page;
		p->span[CHECK_DST] = n + back + fwd;
		p->src = back;
		p->dst = fwd;
	} else if (c->kind == CHECK_FAULT) {
		p->off[c->side] = end_off(c->at, page);
	}
}

int check_matrix_build(struct check_matrix *m, enum routine_contract c, int quick,
		       size_t page)
{
	memset(m, 0, sizeof *m);
	m->page = page;
	int rc = copy_sizes(m, quick, page) || copy_pairs(m, quick, page) ||
		 copy_distances(m, quick, page) ? -1 : 0;
	if (!rc && c == ROUTINE_MEMMOVE)
		rc = overlap_matrix(m, quick, page);
	if (!rc && c == ROUTINE_TRY)
		rc = fault_matrix(m, quick, page);
	if (rc) {
		check_matrix_free(m);
		return -1;
	}
	return 0;
}

int check_case_fits(const struct check_case *c, enum routine_contract con)
{
	return c->kind == CHECK_COPY || (c->kind == CHECK_OVERLAP && con == ROUTINE_MEMMOVE) ||
	       (c->kind == CHECK_FAULT && con == ROUTINE_TRY);
}

/*=====   As text   =====*/

static const char *const keys[] = { "size", "src_align", "dst_align", "delta", "fault" };
enum { K_SIZE, K_SRC, K_DST, K_DELTA, K_FAULT, NKEYS };

/* A decimal number, '-' allowed when neg, |value| <= max. */
static int number(const char *s, size_t len, int neg, uint64_t max, int64_t *out)
{
	size_t i = neg && len && s[0] == '-';
	if (i == len || len - i > 20)
		return -1;
	uint64_t v = 0;
	for (; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (uint64_t)(s[i] - '0');
		if (v > max)
			return -1;
	}
	*out = s[0] == '-' ? -(int64_t)v : (int64_t)v;
	return 0;
}

/* fault=SIDE-SIG@K */
static int fault_value(const char *s, size_t len, struct check_case *c)
{
	static const char *const names[2][2] = { { "src-segv@", "src-bus@" },
						 { "dst-segv@", "dst-bus@" } };
	for (int side = 0; side < 2; side++)
		for (int sig = 0; sig < 2; sig++) {
			size_t l = strlen(names[side][sig]);
			int64_t k;
			if (len > l && !memcmp(s, names[side][sig], l) &&
			    !number(s + l, len - l, 0, CHECK_MAX_SIZE, &k)) {
				c->side = (uint8_t)side;
				c->sig = (uint8_t)sig;
				c->at = (uint32_t)k;
				return 0;
			}
		}
	return -1;
}

static int item(const char *s, size_t len, size_t page, struct check_case *c, int *have,
		char *err, size_t errlen)
{
	const char *eq = memchr(s, '=', len);
	if (!eq)
		return errmsg(err, errlen, "'%.*s' is not KEY=VALUE", (int)len, s);
	size_t kl = (size_t)(eq - s), vl = len - kl - 1;
	const char *v = eq + 1;
	int k = 0;
	while (k < NKEYS && !(strlen(keys[k]) == kl && !memcmp(keys[k], s, kl)))
		k++;
	if (k == NKEYS)
		return errmsg(err, errlen, "unknown key '%.*s' (expected size, src_align, "
			      "dst_align, delta or fault)", (int)kl, s);
	if (have[k])
		return errmsg(err, errlen, "'%s' given twice", keys[k]);
	have[k] = 1;
	int64_t x = 0;
	switch (k) {
	case K_SIZE:
		if (number(v, vl, 0, CHECK_MAX_SIZE, &x))
			return errmsg(err, errlen, "bad size '%.*s' (expected bytes, 0..%zu)",
				      (int)vl, v, CHECK_MAX_SIZE);
		c->size = (uint32_t)x;
		return 0;
	case K_SRC:
	case K_DST:
		if (number(v, vl, 0, page - 1, &x))
			return errmsg(err, errlen, "bad %s '%.*s' (expected an offset in "
				      "the page, 0..%zu)", keys[k], (int)vl, v, page - 1);
		*(k == K_SRC ? &c->src_align : &c->dst_align) = (uint32_t)x;
		return 0;
	case K_DELTA:
		if (number(v, vl, 1, CHECK_MAX_SIZE, &x))
			return errmsg(err, errlen, "bad delta '%.*s' (expected dst - src in "
				      "bytes, -%zu..%zu)", (int)vl, v, CHECK_MAX_SIZE,
				      CHECK_MAX_SIZE);
		c->delta = (int32_t)x;
		return 0;
	default:
		if (fault_value(v, vl, c))
			return errmsg(err, errlen, "bad fault '%.*s' (expected SIDE-SIGNAL@BYTE: "
				      "src-segv, dst-segv, src-bus or dst-bus, e.g. "
				      "src-segv@9)", (int)vl, v);
		return 0;
	}
}

/* The keys a kind takes, given have[]. */
static int kind_of(const int *have, struct check_case *c, char *err, size_t errlen)
{
	if (!have[K_SIZE])
		return errmsg(err, errlen, "no size");
	if (have[K_DELTA] && have[K_FAULT])
		return errmsg(err, errlen, "delta and fault together (a case is a copy, "
			      "an overlap or a fault)");
	if (have[K_FAULT]) {
		c->kind = CHECK_FAULT;
		int other = c->side == CHECK_SRC ? K_DST : K_SRC;
		if (have[c->side == CHECK_SRC ? K_SRC : K_DST])
			return errmsg(err, errlen, "%s with a fault on that side (its offset "
				      "is the fault's: the page ends at byte %u)",
				      keys[c->side == CHECK_SRC ? K_SRC : K_DST], c->at);
		if (!have[other])
			return errmsg(err, errlen, "no %s (a fault case is size, fault and "
				      "the other side's offset)", keys[other]);
		if (c->at >= c->size)
			return errmsg(err, errlen, "a fault at byte %u of a %u-byte copy "
				      "(expected a byte below the size)", c->at, c->size);
		return 0;
	}
	if (have[K_DELTA]) {
		c->kind = CHECK_OVERLAP;
		if (have[K_DST])
			return errmsg(err, errlen, "dst_align with delta (an overlap case is "
				      "size, src_align and delta: dst = src + delta)");
		if (!have[K_SRC])
			return errmsg(err, errlen, "no src_align (an overlap case is size, "
				      "src_align and delta)");
		return 0;
	}
	c->kind = CHECK_COPY;
	if (!have[K_SRC] || !have[K_DST])
		return errmsg(err, errlen, "no %s (a copy case is size, src_align and "
			      "dst_align)", have[K_SRC] ? "dst_align" : "src_align");
	return 0;
}

int check_case_parse(const char *s, size_t page, struct check_case *c, char *err,
		     size_t errlen)
{
	int have[NKEYS] = { 0 };
	memset(c, 0, sizeof *c);
	if (!*s)
		return errmsg(err, errlen, "empty (expected KEY=VALUE items, e.g. "
			      "size=17,src_align=3,dst_align=5)");
	for (const char *p = s;;) {
		size_t len = strcspn(p, ", ");
		if (!len)
			return errmsg(err, errlen, "an empty item (expected KEY=VALUE "
				      "items separated by ',')");
		if (item(p, len, page, c, have, err, errlen))
			return -1;
		if (!p[len])
			break;
		p += len + 1;
	}
	return kind_of(have, c, err, errlen);
}

void check_case_format(const struct check_case *c, char sep, char *buf, size_t len)
{
	switch (c->kind) {
	case CHECK_COPY:
		snprintf(buf, len, "size=%u%csrc_align=%u%cdst_align=%u", c->size, sep,
			 c->src_align, sep, c->dst_align);
		break;
	case CHECK_OVERLAP:
		snprintf(buf, len, "size=%u%csrc_align=%u%cdelta=%d", c->size, sep,
			 c->src_align, sep, (int)c->delta);
		break;
	default:
		snprintf(buf, len, "size=%u%c%s=%u%cfault=%s-%s@%u", c->size, sep,
			 c->side == CHECK_SRC ? "dst_align" : "src_align",
			 c->side == CHECK_SRC ? c->dst_align : c->src_align, sep,
			 c->side == CHECK_SRC ? "src" : "dst", c->sig == CHECK_SEGV ? "segv" : "bus",
			 c->at);
	}
}
