/*
 * buffers.c - the measuring core's buffers: mapping and writing them, the
 * walks over their slots, and flushing a batch's lines from the caches
 * (batch.h).
 */
#include "batch.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <emmintrin.h>
#endif

static size_t gcd(size_t a, size_t b)
{
	while (b) {
		size_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* A step through n slots that visits each once per pass and jumps far
 * enough (about 0.618 n, coprime with n) that no prefetcher follows. */
static size_t scatter_step(size_t n)
{
	if (n <= 2)
		return n == 2 ? 1 : 0;
	size_t s = (size_t)((double)n * 0.6180339887) | 1;
	while (gcd(s, n) != 1)
		s += 2;
	return s % n;
}

int map_side(struct mapping *m, size_t need, char *err, size_t errlen)
{
	need = size_round_up(need, 4096);
	if (m->len >= need)
		return 0;
	if (m->p)
		munmap(m->p, m->len);
	m->p = NULL;
	m->len = 0;
	/* Large regions (cold) get transparent huge pages where the system
	 * allows: mapping them takes a fraction of the time, and a cold copy
	 * then measures cache misses rather than page walks. */
	int huge = need >= ((size_t)64 << 20);
	void *p = mmap(NULL, need, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | (huge ? 0 : MAP_POPULATE), -1, 0);
	if (p == MAP_FAILED) {
		snprintf(err, errlen, "cannot map %zu MiB of buffers: %s", need >> 20,
			 strerror(errno));
		return -1;
	}
#ifdef MADV_HUGEPAGE
	if (huge)
		madvise(p, need, MADV_HUGEPAGE);
#endif
	/* Written, not just mapped: every page is faulted in and private
	 * before anything is timed (no zero page, no copy-on-write).  For the
	 * large regions one write per page does that; the kernel has zeroed
	 * the rest, and writing it all again would double the setup time. */
	if (huge)
		for (size_t off = 0; off < need; off += 4096)
			((volatile char *)p)[off] = 0x5a;
	else
		memset(p, 0x5a, need);
	m->p = p;
	m->len = need;
	return 0;
}

void walk_setup(struct walk *w, const struct mapping *m,
		       const struct side *s, size_t stride, int sequential)
{
	w->base = m->p + s->offset;
	w->stride = stride;
	w->n = s->region ? s->region / stride : 1;
	if (w->n == 0)
		w->n = 1;
	w->step = w->n == 1 ? 0 : sequential ? 1 : scatter_step(w->n);
	w->cur = 0;
}

#if defined(__x86_64__)
/* clflushopt where the CPU has it (CPUID 7.0 EBX bit 23): clflush is ordered
 * with every other clflush, and a flushed cell spends most of its time
 * flushing (docs/bench.md, "Where the measuring core's numbers come from"). */
static int have_clflushopt(void)
{
	static int have = -1;
	if (have < 0) {
		unsigned a, b, c, d;
		have = __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 23));
	}
	return have;
}
#endif

static void flush_lines(const char *p, size_t n)
{
	if (n == 0)
		return;
	uintptr_t a = (uintptr_t)p & ~(uintptr_t)63, end = (uintptr_t)p + n;
#if defined(__x86_64__)
	if (have_clflushopt()) {
		for (; a < end; a += 64)
			__asm__ volatile("clflushopt (%0)" : : "r"(a) : "memory");
		return;
	}
#endif
	for (; a < end; a += 64) {
#if defined(__x86_64__)
		_mm_clflush((const void *)a);
#elif defined(__aarch64__)
		__asm__ volatile("dc civac, %0" : : "r"(a) : "memory");
#else
		(void)a;
#endif
	}
}

static void flush_fence(void)
{
#if defined(__x86_64__)
	_mm_mfence();
#elif defined(__aarch64__)
	__asm__ volatile("dsb ish" : : : "memory");
#endif
}

/* Flushes what the next k copies from op index j will touch. */
void flush_batch(const struct cell *c, struct walk ws, struct walk wd,
			size_t j, size_t k)
{
	const struct copy_op *op = c->seq->op;
	size_t len = c->seq->len;
	for (size_t i = 0; i < k; i++) {
		const struct copy_op *o = &op[j];
		if (++j == len)
			j = 0;
		char *s = walk_next(&ws) + o->src_off;
		char *d = walk_next(&wd) + o->dst_off;
		if (c->src.flush)
			flush_lines(s, o->n);
		if (c->dst.flush)
			flush_lines(d, o->n);
	}
	flush_fence();
}
