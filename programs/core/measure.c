/*
 * measure.c - timer, variants, buffers and interleaved rounds (measure.h).
 */
#include "measure.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <emmintrin.h>
#endif

#include "scrub.h"

/* Where the scrubber's checksums go, so that no run of it is dropped. */
static volatile uint64_t scrub_sink;

/*=====   Timer   =====*/

static int use_tsc;
static double ns_per_tick = 1.0;
static double tsc_ghz = NAN;
static pthread_once_t timer_once = PTHREAD_ONCE_INIT;
static int timer_ready;   /* set, with release, once calibrated */

double clock_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#if defined(__x86_64__)
/* rdtscp waits for every earlier instruction to finish; the lfence keeps
 * later ones from starting before the stamp is taken. */
static inline uint64_t rdtscp_fenced(void)
{
	uint32_t lo, hi, aux;
	__asm__ volatile("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* A TSC stamp and a CLOCK_MONOTONIC stamp taken as close together as the
 * best of a few tries allows. */
static void paired_stamp(uint64_t *tsc, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;
	for (int i = 0; i < 16; i++) {
		uint64_t a = rdtscp_fenced();
		uint64_t t = mono_ns();
		uint64_t b = rdtscp_fenced();
		if (b - a < best) {
			best = b - a;
			*tsc = a + (b - a) / 2;
			*ns = t;
		}
	}
}
#endif

#if defined(__aarch64__)
/* The generic timer's virtual count, which Linux lets EL0 read
 * (CNTKCTL_EL1.EL0VCTEN) at the fixed frequency CNTFRQ_EL0 says: a clock,
 * not a cycle counter (commonly 1-100 MHz, 1 GHz from Armv8.6).  The isb
 * keeps the read from being taken before earlier instructions. */
static inline uint64_t cntvct_read(void)
{
	uint64_t v;
	__asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v) : : "memory");
	return v;
}

static uint64_t cntfrq_read(void)
{
	uint64_t f;
	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(f));
	return f;
}
#endif

static void tsc_calibrate(void)
{
#if defined(__x86_64__)
	if (!(ucopy_cpu()->features & UCOPY_F(INVARIANT_TSC)))
		return;
	uint64_t t0, n0, t1, n1;
	paired_stamp(&t0, &n0);
	/* 20 ms puts a stamp error of ~100 ns at 5 parts per million. */
	while (mono_ns() - n0 < 20000000)
		;
	paired_stamp(&t1, &n1);
	if (t1 <= t0 || n1 <= n0)
		return;
	ns_per_tick = (double)(n1 - n0) / (double)(t1 - t0);
	tsc_ghz = 1.0 / ns_per_tick;
	use_tsc = 1;
#elif defined(__aarch64__)
	/* Coarser than clock_gettime's nanoseconds only when the counter runs
	 * below 10 MHz; then clock_gettime, which reads the same counter. */
	uint64_t f = cntfrq_read();
	if (f < 10000000)
		return;
	ns_per_tick = 1e9 / (double)f;
	use_tsc = 1;
#endif
}

static void timer_calibrate(void)
{
	tsc_calibrate();
	__atomic_store_n(&timer_ready, 1, __ATOMIC_RELEASE);
}

void timer_init(void)
{
	pthread_once(&timer_once, timer_calibrate);
}

uint64_t timer_now(void)
{
	if (!__atomic_load_n(&timer_ready, __ATOMIC_ACQUIRE))
		timer_init();
#if defined(__x86_64__)
	if (use_tsc)
		return rdtscp_fenced();
#elif defined(__aarch64__)
	if (use_tsc)
		return cntvct_read();
#endif
	return mono_ns();
}

double timer_ns(uint64_t ticks)
{
	return (double)ticks * ns_per_tick;
}

const char *timer_name(void)
{
	timer_init();
#if defined(__aarch64__)
	return use_tsc ? "cntvct" : "clock_gettime";
#else
	return use_tsc ? "tsc" : "clock_gettime";
#endif
}

double timer_tsc_ghz(void)
{
	timer_init();
	return tsc_ghz;
}

/*=====   Variants   =====*/

static void variant_clear(struct variant *v, const char *name,
			  enum variant_kind kind)
{
	memset(v, 0, sizeof *v);
	snprintf(v->name, sizeof v->name, "%s", name);
	v->kind = kind;
}

void variant_kernel(struct variant *v, const struct ucopy_kernel *k)
{
	/* The libc kernel is memcpy inside a C wrapper (lib/kernel.c): timing
	 * memcpy itself spares it the wrapper's call and frame, which neither
	 * the assembly kernels nor a program calling memcpy pay. */
	int libc = !strcmp(k->name, "libc");
	variant_clear(v, k->name, libc ? VARIANT_MEMCPY : VARIANT_KERNEL);
	v->kernel = k->fn;
	if (libc)
		v->memcpy_fn = memcpy;
}

void variant_memcpy(struct variant *v, const char *name,
		    void *(*fn)(void *, const void *, size_t))
{
	variant_clear(v, name, VARIANT_MEMCPY);
	v->memcpy_fn = fn;
}

void variant_try(struct variant *v, const char *name,
		 size_t (*fn)(void *, const void *, size_t))
{
	variant_clear(v, name, VARIANT_TRY);
	v->try_fn = fn;
}

void variant_policy(struct variant *v, const char *name,
		    const struct ucopy_policy *p, int fault_tolerant)
{
	variant_clear(v, name, fault_tolerant ? VARIANT_POLICY_TRY : VARIANT_POLICY);
	v->policy = p;
}

void variant_call(struct variant *v, const char *name,
		  void (*call)(void *, void *, const void *, size_t), void *ctx)
{
	variant_clear(v, name, VARIANT_CALL);
	v->call = call;
	v->ctx = ctx;
}

/*=====   Cells   =====*/

static const char *const cache_names[] = { "hot", "warm", "cold" };

const char *cache_name(enum cache_state c)
{
	return (unsigned)c < 3 ? cache_names[c] : "?";
}

int cache_parse(const char *s, enum cache_state *c)
{
	for (unsigned i = 0; i < 3; i++)
		if (!strcmp(s, cache_names[i])) {
			*c = (enum cache_state)i;
			return 0;
		}
	return -1;
}

size_t cell_slot_stride(const struct copy_seq *s)
{
	size_t need = s->max_n + s->max_off;
	return need ? size_round_up(need, 64) : 64;
}

static size_t cache_l2(void)
{
	size_t l2 = ucopy_cpu()->l2;
	return l2 ? l2 : (size_t)1 << 20;
}

size_t cache_llc(void)
{
	const struct ucopy_cpu *c = ucopy_cpu();
	return c->l3 ? c->l3 : c->l2 ? c->l2 : (size_t)32 << 20;
}

void cell_init_drawn(struct cell *c, const struct copy_seq *seq, enum cache_state cache)
{
	cell_init(c, seq, cache, 0, CELL_DRAWN_DST);
}

int cell_init(struct cell *c, const struct copy_seq *seq, enum cache_state cache,
	      uint32_t src_offset, uint32_t dst_offset)
{
	memset(c, 0, sizeof *c);
	if (src_offset >= 4096 || dst_offset >= 4096)
		return -1;
	c->seq = seq;
	c->src.offset = src_offset;
	c->dst.offset = dst_offset;
	size_t stride = cell_slot_stride(seq);
	if (cache == CACHE_WARM) {
		c->src.region = c->dst.region = cache_l2() / 4;
	} else if (cache == CACHE_COLD) {
		/* Each copy touches about this many bytes of cache lines: a
		 * fixed copy's offset decides whether it spills into one more
		 * line; random offsets spill half a line on average. */
		size_t spill = seq->len == 1 ? (src_offset > dst_offset ? src_offset : dst_offset) % 64
					     : 32;
		size_t touched = size_round_up((size_t)seq->mean_n + spill, 64);
		if (touched == 0)
			touched = 64;
		size_t llc = cache_llc();
		size_t slots = (2 * llc + touched - 1) / touched;
		size_t region = slots * stride;
		if (region > 4 * llc)
			region = 4 * llc / stride * stride;
		if (region < stride)
			region = stride;
		c->src.region = c->dst.region = region;
		/* A pass must push 4x the LLC through the caches before a line
		 * comes round again; when it cannot, flush instead. */
		if (2 * (region / stride) * touched < 4 * llc)
			c->src.flush = c->dst.flush = 1;
	}
	return 0;
}

/*=====   Buffers and walks   =====*/

struct mapping {
	char *p;
	size_t len;
};

struct measure {
	struct mapping src, dst;   /* grown as cells need, reused between them */
};

struct walk {
	char *base;
	size_t stride, n, step, cur;
};

static inline char *walk_next(struct walk *w)
{
	char *p = w->base + w->cur * w->stride;
	w->cur += w->step;
	if (w->cur >= w->n)
		w->cur -= w->n;
	return p;
}

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

static int map_side(struct mapping *m, size_t need, char *err, size_t errlen)
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

/* A side's buffer: its base offset, its slots (one when hot) and the 64
 * bytes a copy's own offset may add past the last. */
static size_t side_bytes(const struct side *s, size_t stride)
{
	size_t nslots = s->region ? s->region / stride : 1;
	return size_round_up(s->offset + (nslots ? nslots : 1) * stride + 64, 4096);
}

void cell_map_bytes(const struct cell *c, size_t *src, size_t *dst)
{
	size_t stride = cell_slot_stride(c->seq);
	*src = side_bytes(&c->src, stride);
	*dst = side_bytes(&c->dst, stride);
}

static void walk_setup(struct walk *w, const struct mapping *m,
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
static void flush_batch(const struct cell *c, struct walk ws, struct walk wd,
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

/* The timed loop of one kind of variant, as a function of its own (the
 * sites below): DECL declares `fn` (and what else CALL needs) from the
 * variant, CALL makes the copy.  The function pointer goes through an empty
 * asm: a compiler that could see its value (LTO, a variant set up in the
 * same file) might call or inline it directly instead.  The walks' cursors
 * go to memory around every (opaque) call: kept in this frame, which
 * run_batch_shifted moves, not in the caller's. */
#define RUN_BATCH_KIND(kind, DECL, CALL)                                        \
	static inline __attribute__((always_inline)) uint64_t                   \
	run_batch_##kind(const struct variant *v, const struct copy_seq *seq,    \
			 struct walk *ws_io, struct walk *wd_io, size_t j, size_t k) \
	{                                                                       \
		struct walk ws_local = *ws_io, wd_local = *wd_io;               \
		struct walk *ws = &ws_local, *wd = &wd_local;                   \
		const struct copy_op *op = seq->op;                             \
		size_t len = seq->len;                                          \
		DECL;                                                           \
		__asm__ volatile("" : "+r"(fn));                                \
		uint64_t t0 = timer_now();                                      \
		for (size_t i = 0; i < k; i++) {                                \
			const struct copy_op *o = &op[j];                       \
			if (++j == len)                                         \
				j = 0;                                          \
			char *s = walk_next(ws) + o->src_off;                   \
			char *d = walk_next(wd) + o->dst_off;                   \
			CALL;                                                   \
		}                                                               \
		uint64_t t1 = timer_now();                                      \
		*ws_io = ws_local;                                              \
		*wd_io = wd_local;                                              \
		return t1 - t0;                                                 \
	}

typedef void *memcpy_fn(void *, const void *, size_t);
typedef size_t try_fn(void *, const void *, size_t);
typedef void call_fn(void *, void *, const void *, size_t);
RUN_BATCH_KIND(kernel, ucopy_kernel_fn fn = v->kernel, fn(d, s, o->n))
RUN_BATCH_KIND(copy, memcpy_fn *fn = v->memcpy_fn, fn(d, s, o->n))
RUN_BATCH_KIND(try, try_fn *fn = v->try_fn, fn(d, s, o->n))
RUN_BATCH_KIND(policy, const struct ucopy_policy *fn = v->policy,
	       ucopy_policy_copy(fn, d, s, o->n))
RUN_BATCH_KIND(policy_try, const struct ucopy_policy *fn = v->policy,
	       ucopy_policy_try(fn, d, s, o->n))
RUN_BATCH_KIND(call, call_fn *fn = v->call; void *ctx = v->ctx, fn(ctx, d, s, o->n))

/* The timed loops once per kind, call site and placement.  Each variant of
 * a cell calls through sites of its own (a slot), in its warm-up and in
 * every round, so that no call instruction sees two functions: a shared
 * site was fast for the first function it called and a cycle slower for
 * any other, for the rest of the process, though the rounds already take
 * the variants in turn; so a slot keeps its function from cell to cell
 * (batch_slot_kept()).  And where a site's loop lies moves a short copy's
 * time, so each slot has its loop at BATCH_PLACES placements,
 * BATCH_STEP_TEXT bytes apart (16 bytes on within a line, and the line moves
 * too), and round r runs every variant at placement r mod BATCH_PLACES: a
 * median over rounds is one over placements, as run_batch_shifted makes it
 * one over stack placements (docs/performance-zen5.md, "One call site per
 * variant").
 *
 * A site holds one kind's loop and nothing else, so that the kernel, copy
 * and try kinds, whose loops differ only in the callee's type, compile to
 * the same instructions at the same offsets (tests/cli/sites.sh checks it):
 * loops compiled and placed each its own way, behind a switch on the kind,
 * had their own cost read as the callee's (docs/bench.md, "The loop of each
 * kind"; docs/performance-zen5.md, "Session 27").  The asm's operand, the
 * kind, slot and placement, keeps the compiler and the linker from folding
 * the copies into one. */
#define BATCH_KINDS (VARIANT_CALL + 1)
#define BATCH_SLOTS 16
#define BATCH_PLACES 4
#define BATCH_STEP_TEXT "208"
/* The jump over a placement's padding: at least 128 bytes, so that x86's
 * jump is the same 5-byte one at every placement, and a multiple of 4, as
 * aarch64's instructions need; elsewhere the placements are one place.  The
 * padding starts with the site's number (the asm's operand) as the
 * immediate of a move that never runs, so that no two sites are the same
 * bytes (a linker folding identical functions, lld's --icf=all, merged each
 * kind's sites of one placement into one) and a disassembler reads every
 * site's padding as the same instructions (tests/cli/sites.sh). */
#if defined(__x86_64__)
#define BATCH_SKIP(place)                                                      \
	"jmp 1f\n\tmovl $%c0, %%eax\n\t.skip 123 + " #place " * " BATCH_STEP_TEXT \
	", 0xcc\n1:"
#elif defined(__aarch64__)
#define BATCH_SKIP(place)                                                      \
	"b 1f\n\tmovz w0, #%c0\n\t.skip 124 + " #place " * " BATCH_STEP_TEXT "\n1:"
#else
#define BATCH_SKIP(place) ""
#endif
#define BATCH_SITE(kind, e, slot, place)                                        \
	static __attribute__((noinline, aligned(64))) uint64_t                  \
	run_batch_##kind##_##slot##_##place(const struct variant *v,            \
					    const struct copy_seq *seq,         \
					    struct walk *ws, struct walk *wd,   \
					    size_t j, size_t k)                 \
	{                                                                       \
		__asm__ volatile(BATCH_SKIP(place)                              \
				 : : "i"(((e) * BATCH_SLOTS + (slot)) * BATCH_PLACES + (place))); \
		return run_batch_##kind(v, seq, ws, wd, j, k);                  \
	}
#define BATCH_SLOT(kind, e, s)                                                  \
	BATCH_SITE(kind, e, s, 0) BATCH_SITE(kind, e, s, 1)                     \
	BATCH_SITE(kind, e, s, 2) BATCH_SITE(kind, e, s, 3)
#define BATCH_KIND(kind, e)                                                     \
	BATCH_SLOT(kind, e, 0) BATCH_SLOT(kind, e, 1) BATCH_SLOT(kind, e, 2)    \
	BATCH_SLOT(kind, e, 3) BATCH_SLOT(kind, e, 4) BATCH_SLOT(kind, e, 5)    \
	BATCH_SLOT(kind, e, 6) BATCH_SLOT(kind, e, 7) BATCH_SLOT(kind, e, 8)    \
	BATCH_SLOT(kind, e, 9) BATCH_SLOT(kind, e, 10) BATCH_SLOT(kind, e, 11)  \
	BATCH_SLOT(kind, e, 12) BATCH_SLOT(kind, e, 13) BATCH_SLOT(kind, e, 14) \
	BATCH_SLOT(kind, e, 15)
/* Each kind's loop (RUN_BATCH_KIND's name) and its variant_kind: the
 * sites and the table below both come from this one list. */
#define BATCH_KIND_LIST(X)                                                      \
	X(kernel, VARIANT_KERNEL) X(copy, VARIANT_MEMCPY) X(try, VARIANT_TRY)   \
	X(policy, VARIANT_POLICY) X(policy_try, VARIANT_POLICY_TRY)             \
	X(call, VARIANT_CALL)
BATCH_KIND_LIST(BATCH_KIND)

typedef uint64_t batch_fn(const struct variant *, const struct copy_seq *, struct walk *,
			  struct walk *, size_t, size_t);
#define BATCH_ROW(kind, s)                                                      \
	{ run_batch_##kind##_##s##_0, run_batch_##kind##_##s##_1,              \
	  run_batch_##kind##_##s##_2, run_batch_##kind##_##s##_3 }
#define BATCH_ROWS(kind)                                                        \
	{ BATCH_ROW(kind, 0), BATCH_ROW(kind, 1), BATCH_ROW(kind, 2),           \
	  BATCH_ROW(kind, 3), BATCH_ROW(kind, 4), BATCH_ROW(kind, 5),           \
	  BATCH_ROW(kind, 6), BATCH_ROW(kind, 7), BATCH_ROW(kind, 8),           \
	  BATCH_ROW(kind, 9), BATCH_ROW(kind, 10), BATCH_ROW(kind, 11),         \
	  BATCH_ROW(kind, 12), BATCH_ROW(kind, 13), BATCH_ROW(kind, 14),        \
	  BATCH_ROW(kind, 15) }
#define BATCH_KIND_ROWS(kind, e) [e] = BATCH_ROWS(kind),
static batch_fn *const batch_site[BATCH_KINDS][BATCH_SLOTS][BATCH_PLACES] = {
	BATCH_KIND_LIST(BATCH_KIND_ROWS)
};

/* The slots, each with the function that calls from it (a CALL variant's
 * function is the pair of call and ctx: bench_bars' wrappers differ by
 * ctx) and the last cell that called from it. */
static struct {
	enum variant_kind kind;
	uintptr_t fn, ctx;
	uint64_t cell;
} batch_owner[BATCH_SLOTS];
static size_t batch_owners;

static void batch_key(const struct variant *v, uintptr_t *fn, uintptr_t *ctx)
{
	*fn = *ctx = 0;
	switch (v->kind) {
	case VARIANT_KERNEL: *fn = (uintptr_t)v->kernel; break;
	case VARIANT_MEMCPY: *fn = (uintptr_t)v->memcpy_fn; break;
	case VARIANT_TRY: *fn = (uintptr_t)v->try_fn; break;
	case VARIANT_POLICY:
	case VARIANT_POLICY_TRY: *fn = (uintptr_t)v->policy; break;
	case VARIANT_CALL: *fn = (uintptr_t)v->call; *ctx = (uintptr_t)v->ctx; break;
	}
}

/* The slot v's function had in an earlier cell, now stamped with `cell`;
 * or BATCH_SLOTS when it has none. */
static size_t batch_slot_kept(const struct variant *v, uint64_t cell)
{
	uintptr_t fn, ctx;
	batch_key(v, &fn, &ctx);
	for (size_t s = 0; s < batch_owners; s++)
		if (batch_owner[s].kind == v->kind && batch_owner[s].fn == fn &&
		    batch_owner[s].ctx == ctx) {
			batch_owner[s].cell = cell;
			return s;
		}
	return BATCH_SLOTS;
}

/* A slot for v: the one its function has (batch_slot_kept()), else the
 * next unowned one, else the one used longest ago, taken over for good.
 * The cell's own functions were stamped first, so no slot another variant
 * of the cell calls from is taken while one is left; past that (more than
 * BATCH_SLOTS variants in one cell) the variant's index's.  By index
 * alone, calibrate's three policies called from the sites of kernels its
 * sweep had timed, beside one another. */
static size_t batch_slot_new(const struct variant *v, size_t index, uint64_t cell)
{
	size_t s = batch_slot_kept(v, cell);   /* an earlier variant's function */
	if (s < BATCH_SLOTS)
		return s;
	s = batch_owners;
	if (s < BATCH_SLOTS) {
		batch_owners++;
	} else {
		s = 0;
		for (size_t i = 1; i < BATCH_SLOTS; i++)
			if (batch_owner[i].cell < batch_owner[s].cell)
				s = i;
		if (batch_owner[s].cell == cell)
			return index % BATCH_SLOTS;
	}
	batch_owner[s].kind = v->kind;
	batch_key(v, &batch_owner[s].fn, &batch_owner[s].ctx);
	batch_owner[s].cell = cell;
	return s;
}

/* The slots of a cell's nv variants: those their functions keep first,
 * then new ones. */
static void batch_slots(const struct variant *v, size_t nv, size_t *slot)
{
	static uint64_t cells;
	cells++;
	for (size_t i = 0; i < nv; i++)
		slot[i] = batch_slot_kept(&v[i], cells);
	for (size_t i = 0; i < nv; i++)
		if (slot[i] == BATCH_SLOTS)
			slot[i] = batch_slot_new(&v[i], i, cells);
}

/* k copies through slot `slot`'s loop at placement `place`. */
static uint64_t run_batch(size_t slot, size_t place, const struct variant *v,
			  const struct copy_seq *seq, struct walk *ws, struct walk *wd,
			  size_t j, size_t k)
{
	return batch_site[v->kind][slot][place](v, seq, ws, wd, j, k);
}

/* run_batch with the stack SHIFT bytes lower.  Where the stack lies in its
 * page decides which copies 4K-alias with the return address and the
 * timing loop's spills, and so a short copy's time (docs/bench.md, "The
 * stack"; the effect Mytkowicz et al. measured in "Producing wrong data
 * without doing anything obviously wrong!", ASPLOS 2009).  Each round moves
 * the stack, the same for every variant in it, so a median over rounds is
 * one over placements, not the one this process started with. */
static __attribute__((noinline)) uint64_t
run_batch_shifted(size_t shift, size_t slot, size_t place, const struct variant *v,
		  const struct copy_seq *seq, struct walk *ws, struct walk *wd, size_t j,
		  size_t k)
{
	char pad[shift + 1];
	__asm__ volatile("" : : "r"(pad) : "memory");
	uint64_t ticks = run_batch(slot, place, v, seq, ws, wd, j, k);
	/* pad lives until here: no tail call frees it before the batch. */
	__asm__ volatile("" : : "r"(pad) : "memory");
	return ticks;
}

struct measure *measure_new(void)
{
	timer_init();
	return calloc(1, sizeof(struct measure));
}

void measure_free(struct measure *m)
{
	if (!m)
		return;
	if (m->src.p)
		munmap(m->src.p, m->src.len);
	if (m->dst.p)
		munmap(m->dst.p, m->dst.len);
	free(m);
}

void cell_result_free(struct cell_result *r)
{
	if (r->v)
		for (size_t i = 0; i < r->nvariants; i++)
			free(r->v[i].ns);
	free(r->v);
	memset(r, 0, sizeof *r);
}

/* Bytes copied by `rounds` batches of k copies, round r starting at
 * r * k mod len as measure_cell() does. */
static double seq_bytes(const struct copy_seq *seq, size_t k, size_t rounds)
{
	size_t len = seq->len;
	double *prefix = malloc((len + 1) * sizeof *prefix);
	if (!prefix)
		return seq->mean_n * (double)k * (double)rounds;
	prefix[0] = 0;
	for (size_t i = 0; i < len; i++)
		prefix[i + 1] = prefix[i] + (double)seq->op[i].n;
	double total = 0;
	for (size_t r = 0; r < rounds; r++) {
		size_t j = (size_t)(((unsigned long long)r * k) % len);
		size_t left = k;
		total += (double)(left / len) * prefix[len];
		left %= len;
		if (j + left <= len) {
			total += prefix[j + left] - prefix[j];
		} else {
			total += prefix[len] - prefix[j];
			total += prefix[j + left - len];
		}
	}
	free(prefix);
	return total;
}

/* Shortest batch worth timing: the two stamps cost some tens of ns, which
 * should stay around 1% of it. */
#define MIN_BATCH_NS 2000.0
/* Longest batch: short enough that most batches see no timer interrupt
 * (250-1000 Hz) and the median is a clean one. */
#define MAX_BATCH_NS 1000000.0
/* A warm-up batch grows fourfold until it lasts this long. */
#define WARM_BATCH_NS 5000.0
/* ...and then, for a sequence of sizes, to one whole pass of it where a
 * pass takes at most this long.  A 5 us batch of a --dist sequence is its
 * first ~1000 copies, met for the first time: the branch predictor has not
 * learned them and they need not be the distribution's mix, and batches
 * planned on them came out a tenth as long as the same cell's after an
 * unlearnable one, mostly spent relearning (docs/bench.md, "Regimes";
 * docs/performance.md, "Code placement, the steady state and the page-end
 * tests"). */
#define WARM_PASS_NS 2000000.0
/* The most copies a warm-up batch grows to, either way. */
#define WARM_MAX_COPIES ((size_t)1 << 20)
/* The budget is planned for this many rounds when the batch limits allow:
 * enough for an interval (at 64 rounds the 95% one spans the 24th to the
 * 41st ratio), with batches as long as the budget allows. */
#define TARGET_ROUNDS 64
/* Each round's stack placement: one of STACK_SLOTS 16-byte steps over a
 * page, drawn from a fixed seed so that a rerun draws the same ones. */
#define STACK_STEP 16
#define STACK_SLOTS 256
#define STACK_SEED 0x5eed57ac
/* What a cell costs beyond its batches' floor: set-up and summary, and per
 * variant opening and closing its counters (five perf_event_open calls),
 * the warm-up's shorter batches and the counters' ioctls around each batch.
 * These keep measure_floor_seconds() just below the least a cell of 8-byte
 * copies was measured to take (docs/bench.md, "Where the measuring core's
 * numbers come from"), so that it stays a floor: a grid it refuses could not
 * have kept its budget. */
#define CELL_FIXED_NS 5000.0
#define VARIANT_FIXED_NS 12000.0

double measure_floor_seconds(size_t nv, unsigned min_rounds)
{
	if (min_rounds == 0)
		min_rounds = MEASURE_MIN_ROUNDS;
	double per_variant = VARIANT_FIXED_NS + 2 * WARM_BATCH_NS +
			     (double)min_rounds * MIN_BATCH_NS;
	return (CELL_FIXED_NS + (double)nv * per_variant) * 1e-9;
}

/* The most bytes a copy moves per nanosecond, with its data in a cache and
 * from memory: bounds no core reaches (64 bytes stored a cycle at 6 GHz is
 * 384; one core copies some 10-50 GB/s from DRAM), so that the floors below
 * stay floors on any machine. */
#define CACHE_BYTES_PER_NS 400.0
#define MEMORY_BYTES_PER_NS 100.0

/* The least time moving `bytes` takes when `footprint` bytes are in play. */
static double move_floor_ns(double bytes, size_t footprint)
{
	return bytes / (footprint > cache_llc() ? MEMORY_BYTES_PER_NS : CACHE_BYTES_PER_NS);
}

/* A cell whose smallest copy is `least` bytes, with `footprint` bytes in
 * play: a batch is at least one copy, the warm-up at least two batches. */
static double copies_floor_seconds(size_t least, size_t footprint, size_t nv,
				   unsigned min_rounds)
{
	if (min_rounds == 0)
		min_rounds = MEASURE_MIN_ROUNDS;
	double copy = move_floor_ns((double)least, footprint);
	double per_variant = VARIANT_FIXED_NS + 2 * fmax(WARM_BATCH_NS, copy) +
			     (double)min_rounds * fmax(MIN_BATCH_NS, copy);
	return (CELL_FIXED_NS + (double)nv * per_variant) * 1e-9;
}

double measure_cell_floor_seconds(const struct cell *c, size_t nv, unsigned min_rounds)
{
	const struct copy_seq *seq = c->seq;
	size_t least = seq->len ? SIZE_MAX : 0;
	for (size_t i = 0; i < seq->len; i++)
		if (seq->op[i].n < least)
			least = seq->op[i].n;
	size_t src, dst;
	cell_map_bytes(c, &src, &dst);
	return copies_floor_seconds(least, src + dst, nv, min_rounds);
}

double measure_size_floor_seconds(size_t n, size_t nv)
{
	return copies_floor_seconds(n, 2 * n, nv, 0) + measure_map_floor_seconds(2 * n);
}

double measure_map_floor_seconds(size_t bytes)
{
	return move_floor_ns((double)bytes, bytes) * 1e-9;
}

/* The copies in the warm-up's last batch for a sequence whose first k took
 * ns: all of it (up to WARM_MAX_COPIES) where that fits in WARM_PASS_NS, else as
 * many as do; k for a single copy repeated. */
static size_t warm_pass(const struct copy_seq *seq, size_t k, double ns)
{
	size_t len = seq->len < WARM_MAX_COPIES ? seq->len : WARM_MAX_COPIES;
	if (len <= k || !(ns > 0))
		return k;
	double fit = (double)k * WARM_PASS_NS / ns;
	return fit < (double)len ? (size_t)fit : len;
}

/* One warm-up batch of k copies from the sequence's start: the copies' time
 * in ns, and in *all the time with the flush before them. */
static double warm_batch(size_t slot, size_t place, const struct variant *v,
			 const struct cell *c, struct walk *ws, struct walk *wd, int flush,
			 size_t k, double *all)
{
	uint64_t t0 = timer_now();
	if (flush)
		flush_batch(c, *ws, *wd, 0, k);
	uint64_t copy = run_batch(slot, place, v, c->seq, ws, wd, 0, k);
	*all = timer_ns(timer_now() - t0);
	return timer_ns(copy);
}

/* Doubles every variant's sample array, up to max entries.
 * @return : 0, or -1 when out of memory (*cap is then unchanged, and every
 *           array still holds at least *cap). */
static int grow_samples(struct cell_result *out, size_t *cap, size_t max)
{
	size_t n = *cap * 2 < max ? *cap * 2 : max;
	for (size_t i = 0; i < out->nvariants; i++) {
		double *p = realloc(out->v[i].ns, n * sizeof *p);
		if (!p)
			return -1;
		out->v[i].ns = p;
	}
	*cap = n;
	return 0;
}

/* A cell being measured: where its copies walk, its budget, and each
 * variant's counters and warm-up estimate. */
struct cell_run {
	const struct variant *v;
	size_t nv;
	const struct cell *c;
	struct walk ws, wd;
	int flush;
	double seconds, start, deadline;
	size_t min_rounds, max_rounds;
	size_t cap;               /* samples each variant's array holds */
	struct counters *ctr;
	double *est;              /* ns per copy, from the warm-up */
	double sum, fast, slow;   /* the estimates' sum with the flush, least, most */
	size_t places;            /* loop placements its rounds go over (run_batch) */
	size_t scrub_every;       /* measure_opts' */
	double scrub_ns;          /* one run of the scrubber, from the warm-up */
	size_t *slot;             /* each variant's (batch_slots()) */
};

/* How many placements a cell's rounds go over: every one when all its copies
 * are of one size, else one.  A sequence of sizes is timed for how well a
 * predictor learns it (dist.h's repeated regime), and a predictor learns it
 * per placement: over four placements the repeated sequences were timed
 * unlearnt (docs/performance-zen5.md, "One call site per variant").  Where
 * code placement moves a sequence's time, `make bench-layouts` measures it
 * (docs/bench.md, "Code placement"). */
static size_t cell_places(const struct copy_seq *seq)
{
	for (size_t i = 1; i < seq->len; i++)
		if (seq->op[i].n != seq->op[0].n)
			return 1;
	return BATCH_PLACES;
}

/* Checks the cell and maps its buffers.
 * @return : 0, or -1 with err set. */
static int cell_prepare(struct measure *m, struct cell_run *run, char *err,
			size_t errlen)
{
	const struct cell *c = run->c;
	if (run->nv == 0 || !c->seq || c->seq->len == 0) {
		snprintf(err, errlen, "nothing to measure");
		return -1;
	}
	if (c->src.offset >= 4096 || c->dst.offset >= 4096) {
		snprintf(err, errlen, "offset %u is not within a page (expected 0..4095)",
			 c->src.offset >= 4096 ? c->src.offset : c->dst.offset);
		return -1;
	}
	size_t stride = cell_slot_stride(c->seq);
	struct mapping *ms = &m->src, *md = &m->dst;
	size_t need_s, need_d;
	cell_map_bytes(c, &need_s, &need_d);
	if (map_side(ms, need_s, err, errlen) < 0 || map_side(md, need_d, err, errlen) < 0)
		return -1;
	walk_setup(&run->ws, ms, &c->src, stride, c->sequential);
	walk_setup(&run->wd, md, &c->dst, stride, c->sequential);
	run->flush = c->src.flush || c->dst.flush;
	return 0;
}

/* Starts the cell's budget (everything from now on is the cell's) and sets
 * its rounds' limits. */
static void cell_budget_start(struct cell_run *run, const struct measure_opts *o)
{
	run->seconds = o->seconds > 0 ? o->seconds : 0;
	run->start = clock_seconds();
	run->deadline = run->start + run->seconds;
	run->max_rounds = o->max_rounds ? o->max_rounds : MEASURE_MAX_ROUNDS;
	run->min_rounds = o->min_rounds ? o->min_rounds : MEASURE_MIN_ROUNDS;
	if (run->min_rounds > run->max_rounds)
		run->min_rounds = run->max_rounds;
	run->cap = run->min_rounds > TARGET_ROUNDS ? run->min_rounds : TARGET_ROUNDS;
	if (run->cap > run->max_rounds)
		run->cap = run->max_rounds;
}

/* The result's arrays and the run's counters and estimates.
 * @return : 0, or -1 when out of memory (what was allocated is left for
 *           the caller to free). */
static int cell_alloc(struct cell_run *run, struct cell_result *out)
{
	size_t nv = run->nv;
	out->v = calloc(nv, sizeof *out->v);
	run->ctr = calloc(nv, sizeof *run->ctr);
	run->est = calloc(nv, sizeof *run->est);
	run->slot = calloc(nv, sizeof *run->slot);
	if (!out->v || !run->ctr || !run->est || !run->slot)
		return -1;
	batch_slots(run->v, nv, run->slot);
	out->nvariants = nv;
	for (size_t i = 0; i < nv; i++) {
		out->v[i].ns = malloc(run->cap * sizeof(double));
		if (!out->v[i].ns)
			return -1;
	}
	return 0;
}

/* Warm-up and estimate: also brings code, page tables and (hot) data into
 * place.  Batches grow until one is long enough to time.  The budget is
 * planned on what a copy costs with its flush (`sum`), the batch's limits
 * on the copy alone (`fast`, `slow`): flushing can cost far more than a
 * cold copy, and a plan on the copy alone overran budgets ~7x. */
static void cell_warm_up(struct cell_run *run)
{
	const struct variant *v = run->v;
	const struct cell *c = run->c;
	double *est = run->est;
	double sum = 0, fast = 0, slow = 0;
	for (size_t i = 0; i < run->nv; i++) {
		size_t k = 1;
		for (;;) {
			double all, ns = warm_batch(run->slot[i], 0, &v[i], c, &run->ws,
						    &run->wd, run->flush, k, &all);
			if (ns >= WARM_BATCH_NS || k >= WARM_MAX_COPIES) {
				size_t pass = warm_pass(c->seq, k, ns);
				if (pass > k) {
					k = pass;
					ns = warm_batch(run->slot[i], 0, &v[i], c, &run->ws,
							&run->wd, run->flush, k, &all);
				}
				/* The batch that ends the warm-up is timed twice
				 * and the faster kept: one interrupt or first touch
				 * in it would otherwise make a fast variant look
				 * slow, and K too small for the timer (docs/bench.md,
				 * "Where the measuring core's numbers come from"). */
				double all2, ns2 = warm_batch(run->slot[i], 0, &v[i], c, &run->ws,
							      &run->wd, run->flush, k, &all2);
				if (ns2 < ns) {
					ns = ns2;
					all = all2;
				}
				est[i] = ns / (double)k;
				sum += all / (double)k;
				/* The other placements once each, untimed: else
				 * the first rounds at them would meet a cold
				 * loop. */
				for (size_t p = 1; p < run->places; p++)
					warm_batch(run->slot[i], p, &v[i], c, &run->ws, &run->wd,
						   run->flush, k, &all2);
				break;
			}
			k *= 4;
		}
		if (!(est[i] > 0))
			est[i] = 0.1;
		if (i == 0 || est[i] < fast)
			fast = est[i];
		if (est[i] > slow)
			slow = est[i];
	}
	if (!(sum > 0))
		sum = 0.1 * (double)run->nv;
	if (run->scrub_every) {
		/* The scrubber's time is the cell's too: the plan counts it.
		 * Run once untimed first: the first run in a process draws its
		 * table. */
		scrub_sink += scrub_run();
		uint64_t t0 = timer_now();
		scrub_sink += scrub_run();
		scrub_sink += scrub_run();
		run->scrub_ns = timer_ns(timer_now() - t0) / 2;
		sum += (double)run->nv * run->scrub_ns / (double)run->scrub_every;
	}
	run->sum = sum;
	run->fast = fast;
	run->slow = slow;
}

/* Opens each variant's counters, noting why any cannot count. */
static void cell_open_counters(struct cell_run *run, const struct measure_opts *o,
			       struct cell_result *out)
{
	for (size_t i = 0; i < run->nv; i++) {
		counters_open(&run->ctr[i], !o->counters || run->scrub_every, o->events);
		for (int e = 0; e < CTR_SLOTS; e++)
			out->v[i].ctr_reason[e] = counters_reason(&run->ctr[i], e);
	}
}

/* K, the copies in a batch: TARGET_ROUNDS rounds in what is left of the
 * budget; the slowest variant's batch under MAX_BATCH_NS; the fastest one's
 * over MIN_BATCH_NS, which wins when the two limits cross (variants more
 * than 500x apart): a sample the timer cannot resolve is worth less than
 * one an interrupt may hit. */
static size_t cell_plan_batch(const struct cell_run *run)
{
	double left_ns = (run->deadline - clock_seconds()) * 1e9;
	double kf = left_ns / TARGET_ROUNDS / run->sum;
	if (kf * run->slow > MAX_BATCH_NS)
		kf = MAX_BATCH_NS / run->slow;
	if (!(kf * run->fast >= MIN_BATCH_NS))
		kf = MIN_BATCH_NS / run->fast;
	if (!(kf <= (double)((size_t)1 << 24)))
		kf = (double)((size_t)1 << 24);
	return kf < 1 ? 1 : (size_t)kf;
}

size_t round_order_rows(size_t nv)
{
	return nv % 2 ? 2 * nv : nv;
}

size_t round_order_at(size_t row, size_t x, size_t nv)
{
	row %= round_order_rows(nv);
	if (row >= nv) {
		/* Backwards through the reversed rows: then no row ends with
		 * the variant the next one starts with (for three variants,
		 * forwards, two of the six changes of order did). */
		row = (2 * nv - row) % nv;
		x = nv - 1 - x;
	}
	size_t w = x == 0 ? 0 : x % 2 ? (x + 1) / 2 : nv - x / 2;
	return (w + row) % nv;
}

/* In a cell whose sequence a predictor learns, before each of its timed
 * batches a variant plays the sequence untimed, a pass at a time from where
 * the batch starts, until it is at its steady state: until STEADY_FLAT
 * passes in a row gain less than STEADY_GAIN on the fastest pass so far.
 * What ran before (the other variants' batches) then no longer moves its
 * time (docs/bench.md, "Steady state").  Bounds: STEADY_MAX_PASSES passes,
 * and no pass that would take the passes past STEADY_MAX_NS; none at all
 * where one pass takes longer than WARM_PASS_NS (a sequence that long is
 * timed as the warm-up times it, not learnt), nor where it takes less than
 * MIN_BATCH_NS (a batch is then many passes).  *capped counts the batches
 * a bound, not the rule, ended.
 * @return : the passes played. */
#define STEADY_GAIN 0.01
#define STEADY_FLAT 2
#define STEADY_MAX_PASSES 32
#define STEADY_MAX_NS (16 * MAX_BATCH_NS)
static size_t steady_state(struct cell_run *run, size_t i, size_t shift, size_t place,
			   size_t j, uint64_t *capped)
{
	const struct copy_seq *seq = run->c->seq;
	double best = INFINITY, spent = 0, pass = run->est[i] * (double)seq->len;
	size_t p, flat = 0;
	if (pass > WARM_PASS_NS) {
		++*capped;
		return 0;
	}
	if (pass < MIN_BATCH_NS)
		return 0;   /* the batch is many passes: its own first ones are it */
	for (p = 0; p < STEADY_MAX_PASSES && flat < STEADY_FLAT; p++) {
		if (spent + (p ? best : pass) > STEADY_MAX_NS)
			break;
		double ns = timer_ns(run_batch_shifted(shift, run->slot[i], place, &run->v[i], seq,
						       &run->ws, &run->wd, j, seq->len));
		spent += ns;
		if (ns < best * (1 - STEADY_GAIN)) {
			best = ns;
			flat = 0;
		} else {
			flat++;
		}
	}
	*capped += flat < STEADY_FLAT;
	return p;
}

/* Variant i's batch of k copies from j under the company condition: timed
 * in stretches of run->scrub_every copies, the scrubber after each (and so
 * before the next stretch and the next batch), untimed.
 * @return : the stretches' ticks. */
static uint64_t scrubbed_batch(struct cell_run *run, size_t i, size_t shift, size_t place,
			       size_t j, size_t k, uint64_t *scrubs)
{
	const struct copy_seq *seq = run->c->seq;
	uint64_t ticks = 0;
	for (size_t done = 0; done < k;) {
		size_t n = k - done < run->scrub_every ? k - done : run->scrub_every;
		ticks += run_batch_shifted(shift, run->slot[i], place, &run->v[i], seq, &run->ws,
					   &run->wd, (j + done) % seq->len, n);
		done += n;
		scrub_sink += scrub_run();
		++*scrubs;
	}
	return ticks;
}

/* Rounds of k copies until the budget is spent: stop when one more round
 * would end further past the deadline than stopping now ends before it.
 * @return : the rounds timed. */
static size_t cell_rounds(struct cell_run *run, const struct measure_opts *o,
			  size_t k, struct cell_result *out)
{
	const struct copy_seq *seq = run->c->seq;
	size_t nv = run->nv;
	double round_start = clock_seconds();
	size_t r;
	struct rng placement;
	rng_seed(&placement, STACK_SEED);
	/* A sequence of sizes shorter than an unlearnable one is one a
	 * predictor may learn (dist.h), and what it learnt wears off while
	 * the others run: with the order moving, a variant's time followed how
	 * many batches of the others came since its own last one.  So such a
	 * cell keeps one order: every variant has the same nv - 1 batches of
	 * others between two of its own (docs/bench.md, "The orders"), and
	 * each batch starts from the variant's steady state (steady_state()).
	 * The length decides, not the batch, which the budget and the speeds
	 * set. */
	int one_order = run->places == 1 && seq->len < DIST_SEQ_UNLEARNABLE;
	for (r = 0; r < run->max_rounds; r++) {
		if (r == run->cap && grow_samples(out, &run->cap, run->max_rounds) < 0)
			break;
		size_t j = (size_t)(((unsigned long long)r * k) % seq->len);
		size_t shift = STACK_STEP * (size_t)rng_below(&placement, STACK_SLOTS);
		for (size_t x = 0; x < nv; x++) {
			/* Else the order moves on every `places` rounds, so
			 * that no placement goes with one order. */
			size_t i = one_order ? x : round_order_at(r / run->places, x, nv);
			struct variant_result *vr = &out->v[i];
			if (one_order && !run->scrub_every)
				vr->steady_passes += steady_state(run, i, shift, r % run->places, j,
								  &vr->steady_capped);
			if (run->flush)
				flush_batch(run->c, run->ws, run->wd, j, k);
			counters_start(&run->ctr[i]);
			uint64_t ticks = 0;
			if (run->scrub_every)
				ticks = scrubbed_batch(run, i, shift, r % run->places, j, k,
						       &vr->scrubs);
			else
				ticks = run_batch_shifted(shift, run->slot[i], r % run->places,
							  &run->v[i], seq, &run->ws, &run->wd, j, k);
			counters_stop(&run->ctr[i]);
			double ns = timer_ns(ticks);
			vr->ns[r] = ns / (double)k;
			vr->ns_total += ns;
			vr->copies += k;
		}
		double now = clock_seconds();
		if (o->progress)
			o->progress(o->progress_ctx,
				    run->seconds > 0 ? fmin(1.0, (now - run->start) / run->seconds)
						     : 1.0);
		if (r + 1 >= run->min_rounds && now + 0.5 * (now - round_start) >= run->deadline) {
			r++;
			break;
		}
		round_start = now;
	}
	return r;
}

/* Each variant's bytes and counter totals; closes the counters. */
static void cell_collect(struct cell_run *run, struct cell_result *out)
{
	double bytes = seq_bytes(run->c->seq, out->batch, out->rounds);
	for (size_t i = 0; i < run->nv; i++) {
		struct counters *ctr = &run->ctr[i];
		out->v[i].bytes = bytes;
		for (int e = 0; e < CTR_SLOTS; e++) {
			out->v[i].ctr[e] = counters_total(ctr, e);
			/* A counter that opened may still not have counted. */
			if (isnan(out->v[i].ctr[e]))
				out->v[i].ctr_reason[e] = counters_reason(ctr, e);
		}
		counters_close(ctr);
	}
}

int measure_cell(struct measure *m, const struct variant *v, size_t nv,
		 const struct cell *c, const struct measure_opts *o,
		 struct cell_result *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	struct cell_run run = { .v = v, .nv = nv, .c = c };
	if (cell_prepare(m, &run, err, errlen) < 0)
		return -1;
	if (o->scrub_every && o->scrub_every < SCRUB_MIN_EVERY) {
		snprintf(err, errlen, "the scrubber every %zu copies: expected at least %d",
			 o->scrub_every, SCRUB_MIN_EVERY);
		return -1;
	}
	run.scrub_every = o->scrub_every;
	run.places = cell_places(c->seq);
	cell_budget_start(&run, o);
	int rc = cell_alloc(&run, out);
	if (rc == 0) {
		cell_warm_up(&run);
		cell_open_counters(&run, o, out);
		out->batch = cell_plan_batch(&run);
		out->rounds = cell_rounds(&run, o, out->batch, out);
		cell_collect(&run, out);
	}
	free(run.ctr);
	free(run.est);
	free(run.slot);
	if (rc < 0) {
		cell_result_free(out);
		snprintf(err, errlen, "out of memory");
	}
	return rc;
}

void measure_summarize(const struct cell_result *r, size_t baseline,
		       double level, struct variant_summary *out)
{
	for (size_t i = 0; i < r->nvariants; i++) {
		const struct variant_result *v = &r->v[i];
		struct variant_summary *s = &out[i];
		stats_summarize(v->ns, r->rounds, &s->ns);
		s->bytes_per_copy = v->copies ? v->bytes / (double)v->copies : NAN;
		s->gbps = s->ns.median > 0 ? s->bytes_per_copy / s->ns.median : NAN;
		s->ratio.est = s->ratio.lo = s->ratio.hi = NAN;
		if (i == baseline && r->rounds > 0)
			s->ratio.est = s->ratio.lo = s->ratio.hi = 1;
		else if (baseline < r->nvariants)
			stats_paired_ratio(r->v[baseline].ns, v->ns, r->rounds, level,
					   &s->ratio);
		for (int e = 0; e < CTR_SLOTS; e++)
			s->per_copy[e] = v->copies ? v->ctr[e] / (double)v->copies : NAN;
	}
}

size_t measure_slow_rounds(const struct cell_result *r)
{
	if (r->rounds < 10 || r->nvariants < 2)
		return 0;
	double *fast = malloc(r->nvariants * sizeof *fast);
	if (!fast)
		return 0;
	for (size_t i = 0; i < r->nvariants; i++)
		fast[i] = stats_quantile(r->v[i].ns, r->rounds, 0.10);
	size_t slow = 0;
	for (size_t k = 0; k < r->rounds; k++) {
		size_t i = 0;
		while (i < r->nvariants && r->v[i].ns[k] >= SLOW_ROUND_FACTOR * fast[i])
			i++;
		slow += i == r->nvariants;
	}
	free(fast);
	return slow;
}

void measure_slow_note(char *buf, size_t len, size_t slow, size_t rounds)
{
	if (!rounds || slow * 4 < rounds) {
		if (len)
			buf[0] = '\0';
		return;
	}
	snprintf(buf, len, "%zu of %zu rounds (%.0f%%) ran on a slowed core (every variant at "
		 ">= %.2fx its fastest tenth): a host that shares the core does that, and a "
		 "ratio can differ between the two states; rerun, or pin (docs/bench.md, "
		 "\"The host, second by second\")",
		 slow, rounds, 100.0 * (double)slow / (double)rounds, SLOW_ROUND_FACTOR);
}
