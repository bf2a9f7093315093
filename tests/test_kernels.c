/*
 * test_kernels.c - every copy kernel, plain body and try body, over sizes,
 * alignments and guard bytes, the kernel table, and the exception table the
 * try bodies emit (and the plain bodies do not).
 *
 * Sizes 0..256 run every source x destination alignment 0..63; sizes
 * 257..2048 every destination alignment with a random source alignment;
 * larger sizes (powers of two +-1 up to 16 MiB, and a few odd ones) a few
 * fixed and random pairs.  The random choices come from one seed, printed
 * first; UCOPY_TEST_SEED=<seed> replays them.
 */
#define _GNU_SOURCE
#include "check.h"
#include "internal.h"
#ifdef UCOPY_PORT_x86_64
#include "x86_64.h"
#endif
#ifdef UCOPY_PORT_aarch64
#include "aarch64.h"
#endif

#include <inttypes.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define GUARD 64          /* checked bytes before and after dst */
#define FILL 0xA5         /* what dst holds before a copy; src never has it */
#define ALIGN 64
#define MAXN (16u << 20)
#define SLACK (ALIGN + 2 * GUARD)

static unsigned char *srcbuf, *srcref, *dstbuf;
static uint64_t seed, rs;

static uint64_t rnd(void)
{
	return check_rnd(&rs);
}

static void *map(size_t len)
{
	return check_map(len, PROT_READ | PROT_WRITE);
}

/* Copies n bytes with k's plain body (try 0) or try body (try 1) at source
 * alignment sa and destination alignment da, both counted from GUARD bytes
 * past a page start (so 0 is 64-byte aligned, and page offset GUARD + da),
 * and checks everything; returns 0 or -1 after recording the failure. */
static int copy_check(const struct ucopy_kernel *k, int try, size_t n,
		      unsigned sa, unsigned da)
{
	unsigned char *s = srcbuf + GUARD + sa;
	unsigned char *d = dstbuf + GUARD + da;
	const char *body = try ? "try body" : "plain body";
	memset(d - GUARD, FILL, n + 2 * GUARD);
	if (try) {
		size_t left = k->try_fn(d, s, n);
		if (left != 0) {
			CHECK(0, "%s %s n=%zu sa=%u da=%u: returned %zu, expected 0",
			      k->name, body, n, sa, da, left);
			return -1;
		}
	} else {
		struct ucopy_ret r = k->fn(d, s, n);
		if (r.dst != d || r.left != 0) {
			CHECK(0, "%s %s n=%zu sa=%u da=%u: returned {%p, %zu}, "
			      "expected {%p, 0}", k->name, body, n, sa, da, r.dst,
			      r.left, (void *)d);
			return -1;
		}
	}
	for (ptrdiff_t i = 1; i <= GUARD; i++) {
		ptrdiff_t at = d[-i] != FILL ? -i : d[n - 1 + i] != FILL ? (ptrdiff_t)n - 1 + i : 0;
		if (at) {
			CHECK(0, "%s %s n=%zu sa=%u da=%u: guard byte dst[%td] written",
			      k->name, body, n, sa, da, at);
			return -1;
		}
	}
	if (memcmp(d, s, n) != 0) {
		size_t i = 0;
		while (d[i] == s[i])
			i++;
		CHECK(0, "%s %s n=%zu sa=%u da=%u: dst[%zu] = %#x, expected %#x",
		      k->name, body, n, sa, da, i, d[i], s[i]);
		return -1;
	}
	return 0;
}

static const size_t large[] = {
	/* 4352: the size of docs/design.md's rep movsb cliff measurement; 32 KiB:
	 * the tcp_sendmsg copy of the 2023 regression */
	2049, 2500, 3000, 4352, 5000, 12345, 32u << 10, 65537 * 3, 1000003,
};

static void test_kernel(const struct ucopy_kernel *k, int try)
{
	char name[64];
	snprintf(name, sizeof name, "copy %s%s", k->name, try ? " (try body)" : "");
	if (!ucopy_kernel_supported(k, ucopy_cpu()->features)) {
		check_skip(name, "the CPU cannot run this kernel");
		return;
	}
	int bad = 0;
	for (size_t n = 0; n <= 256 && !bad; n++)
		for (unsigned sa = 0; sa < ALIGN && !bad; sa++)
			for (unsigned da = 0; da < ALIGN && !bad; da++)
				bad = copy_check(k, try, n, sa, da);
	for (size_t n = 257; n <= 2048 && !bad; n++)
		for (unsigned da = 0; da < ALIGN && !bad; da++)
			bad = copy_check(k, try, n, (unsigned)(rnd() % ALIGN), da);
	for (size_t p = 4096; p <= MAXN && !bad; p *= 2) {
		for (size_t n = p - 1; n <= p + 1 && n <= MAXN && !bad; n++) {
			/* the slow kernels get fewer big copies */
			int pairs = n > (1u << 20) ? 2 : 4;
			bad = copy_check(k, try, n, 0, 0) ||
			      copy_check(k, try, n, 63, 1);
			for (int i = 2; i < pairs && !bad; i++)
				bad = copy_check(k, try, n, (unsigned)(rnd() % ALIGN),
						 (unsigned)(rnd() % ALIGN));
		}
	}
	/* Destinations that end 0..300 bytes into a page, where avx512 stores
	 * its last 256 bytes aligned instead of from the end, and avx2 its
	 * last 128 (from 257 bytes, its loop's first size): every end offset
	 * to 136, so that avx2's page tail starts with each of its 1..128
	 * bytes left (32, 64, 96, 128 among them), then every fifth.  The
	 * random source alignment also runs avx512's source-edge variant. */
	for (size_t n = 257; n <= 4200 && !bad; n += 41)
		for (unsigned e = 0; e <= 300 && !bad; e += e < 136 ? 1 : 5)
			bad = copy_check(k, try, n, (unsigned)(rnd() % ALIGN),
					 (unsigned)((e + 2 * 4096 - GUARD - n % 4096) % 4096));
	for (size_t i = 0; i < sizeof large / sizeof large[0] && !bad; i++)
		for (size_t n = large[i] - 1; n <= large[i] + 1 && !bad; n++)
			bad = copy_check(k, try, n, (unsigned)(rnd() % ALIGN),
					 (unsigned)(rnd() % ALIGN));
	CHECK(memcmp(srcbuf, srcref, MAXN + SLACK) == 0,
	      "%s wrote to its source", name);
	check_group(name);
}

static void test_table(void)
{
#ifdef UCOPY_PORT_x86_64
	static const char *const order[] = {
		"byte", "word", "unrolled", "movsq", "movsb", "movsb_aligned",
		"movsb_safe", "movsb_coaligned", "sse2", "avx2", "avx512", "nt", "nt512", "libc",
	};
	const int port_faults = 1;
	/* SSE2 is x86-64's baseline: sse2 stands in even when a mask
	 * (UCOPY_FEATURES=none) hides it. */
	const char *const baseline = "sse2";
	const char *const libc_stand_in = ucopy_cpu()->features & UCOPY_F(AVX2) ? "avx2" : "sse2";
#elif defined(UCOPY_PORT_aarch64)
	static const char *const order[] = {
		"byte", "word", "ldp", "ldtr", "neon", "mops", "libc",
	};
	const int port_faults = 1;
	/* ldp needs no feature: it stands in where a mask hides ASIMD. */
	const char *const baseline = "ldp";
	const char *const libc_stand_in = ucopy_cpu()->features & UCOPY_F(ASIMD) ? "neon" : "ldp";
#else
	static const char *const order[] = { "c", "libc" };
	const char *const baseline = "";
	const char *const libc_stand_in = "";
	const int port_faults = 0;   /* ucopy_try copies without signals */
#endif
	size_t count = ucopy_kernel_count();
	CHECK(count == sizeof order / sizeof order[0], "%zu kernels, expected %zu",
	      count, sizeof order / sizeof order[0]);
	for (size_t i = 0; i < count && i < sizeof order / sizeof order[0]; i++) {
		const struct ucopy_kernel *k = ucopy_kernel_at(i);
		CHECK(k && strcmp(k->name, order[i]) == 0, "kernel %zu is %s, expected %s",
		      i, k ? k->name : "NULL", order[i]);
		if (!k)
			continue;
		CHECK(ucopy_kernel_find(order[i]) == k, "find(%s) is not kernel %zu",
		      order[i], i);
		CHECK(k->summary && *k->summary, "%s has no summary", k->name);
		CHECK(k->fn, "%s has no function", k->name);
		int fc = port_faults && strcmp(k->name, "libc") != 0;
		CHECK(!!k->try_fn == fc, "%s: try body %s", k->name,
		      k->try_fn ? "present" : "missing");
		CHECK(!!(k->flags & UCOPY_KERNEL_FAULT_CAPABLE) == fc,
		      "%s: fault-capable flag %u", k->name, k->flags);
		CHECK(ucopy_kernel_supported(k, k->requires), "%s unsupported with "
		      "exactly what it requires", k->name);
		CHECK(!k->requires || !ucopy_kernel_supported(k, 0),
		      "%s supported with no features", k->name);
		const struct ucopy_kernel *f = ucopy_kernel_fault_capable(k);
		CHECK(port_faults ? f && (f->flags & UCOPY_KERNEL_FAULT_CAPABLE) && f->try_fn
				  : f == k, "%s: fault-capable replacement %s", k->name,
		      f ? f->name : "NULL");
		CHECK(!fc || f == k, "%s replaced although fault-capable", k->name);
		CHECK(!f || f == k || ucopy_kernel_supported(f, ucopy_cpu()->features) ||
		      (port_faults && !strcmp(f->name, baseline)),
		      "%s replaced by %s, which the CPU cannot run", k->name,
		      f ? f->name : "NULL");
	}
	CHECK(ucopy_kernel_at(count) == NULL, "kernel_at(count) is not NULL");
	CHECK(ucopy_kernel_find("nosuchkernel") == NULL, "found nosuchkernel");
	CHECK(ucopy_kernel_find("") == NULL, "found the empty name");
	CHECK(ucopy_kernel_find(NULL) == NULL, "found NULL");
	const struct ucopy_kernel *libc = ucopy_kernel_find("libc");
	if (libc && port_faults)
		CHECK(ucopy_kernel_fault_capable(libc) == ucopy_kernel_find(libc_stand_in),
		      "libc's fault-capable replacement is %s",
		      ucopy_kernel_fault_capable(libc)->name);
	check_group("kernel table");
}

/* Every exception table entry must name an instruction inside a try body or
 * the shared tail, and a fixup in the same function or the tail: an entry
 * pointing elsewhere would let the handler resume a fault that is not a
 * fault-tolerant copy's.  The plain bodies and the memmove helpers must have
 * none, so that a fault in ucopy_memcpy or ucopy_memmove is never recovered
 * (rule 7).  Without the functions' sizes, "inside" is: at or after the
 * nearest function start below it, before the next one, and within 4 KiB of
 * it (the largest body is about 1 KiB). */

#if defined(UCOPY_PORT_x86_64) || defined(UCOPY_PORT_aarch64)
#define BODIES(name) \
	{ #name, (uintptr_t)ucopy_k_##name, 0 }, \
	{ #name " (try)", (uintptr_t)ucopy_t_##name, 1 }

static void test_extable(void)
{
	static const struct {
		const char *name;
		uintptr_t at;
		int listed;   /* 1: must have entries, 0: must have none */
	} fns[] = {
#ifdef UCOPY_PORT_x86_64
		BODIES(byte), BODIES(word), BODIES(unrolled), BODIES(movsq),
		BODIES(movsb), BODIES(movsb_aligned), BODIES(movsb_safe),
		BODIES(movsb_coaligned), BODIES(sse2),
		BODIES(avx2), BODIES(avx512), BODIES(nt), BODIES(nt512),
#else
		BODIES(byte), BODIES(word), BODIES(ldp), BODIES(ldtr), BODIES(neon),
		BODIES(mops),
#endif
		{ "fixup tail", (uintptr_t)ucopy_fixup_tail, 1 },
		{ "memmove backward", (uintptr_t)ucopy_copy_backward, 0 },
		{ "memmove forward", (uintptr_t)ucopy_copy_forward_overlap, 0 },
	};
	const size_t nfns = sizeof fns / sizeof fns[0];
	size_t n = (size_t)(__stop_ucopy_extable - __start_ucopy_extable);
	CHECK(n > 100, "only %zu exception table entries", n);
	size_t used[sizeof fns / sizeof fns[0]] = { 0 };
	for (size_t i = 0; i < n; i++) {
		const struct extable_entry *e = &__start_ucopy_extable[i];
		size_t fi = nfns, fx = nfns;
		for (size_t j = 0; j < nfns; j++) {
			if (fns[j].at <= e->insn && (fi == nfns || fns[j].at > fns[fi].at))
				fi = j;
			if (fns[j].at <= e->fixup && (fx == nfns || fns[j].at > fns[fx].at))
				fx = j;
		}
		int ok = fi < nfns && e->insn - fns[fi].at < 4096;
		CHECK(ok, "entry %zu: insn %#" PRIxPTR " is in no kernel", i, e->insn);
		CHECK(fx < nfns && (fx == fi || fns[fx].at == (uintptr_t)ucopy_fixup_tail)
		      && e->fixup - fns[fx].at < 4096, "entry %zu: fixup %#" PRIxPTR
		      " is not in its kernel (%#" PRIxPTR ") or the shared tail",
		      i, e->fixup, e->insn);
		if (ok)
			used[fi]++;
		for (size_t j = 0; j < i; j++)
			if (__start_ucopy_extable[j].insn == e->insn) {
				CHECK(0, "entry %zu: insn %#" PRIxPTR " listed twice", i,
				      e->insn);
				break;
			}
	}
	for (size_t j = 0; j < nfns; j++)
		CHECK(!!used[j] == fns[j].listed, "%s has %zu exception table entries%s",
		      fns[j].name, used[j], fns[j].listed ? "" : ": a fault in it "
		      "would be recovered");
	check_group("exception table: try bodies only");
}
#else
static void test_extable(void)
{
	size_t n = (size_t)(__stop_ucopy_extable - __start_ucopy_extable);
	CHECK(n == 0, "a port without try bodies has %zu exception table entries", n);
	check_group("exception table: none without a port");
}
#endif

#ifdef UCOPY_PORT_x86_64
/* Which way a guarded rep movsb kernel sent a copy, without a timer: the
 * avx2 body ends every copy of 32 bytes or more with vzeroupper, which
 * clears ymm15's upper half, and rep movsb leaves it.  Returns 1 when the
 * upper half survived the call (rep movsb), 0 when it did not (avx2).  The
 * call steps over the red zone, which this function's locals may use. */
static int kept_upper(const struct ucopy_kernel *k, int try, void *dst, const void *src,
		      size_t n)
{
	static const uint64_t ones[4] = { ~0ull, ~0ull, ~0ull, ~0ull };
	void *fn = try ? (void *)k->try_fn : (void *)k->fn;
	uint64_t hi;
	__asm__ volatile("vmovdqu %[ones], %%ymm15\n\t"
			 "sub $128, %%rsp\n\t"
			 "call *%[fn]\n\t"
			 "add $128, %%rsp\n\t"
			 "vextracti128 $1, %%ymm15, %%xmm15\n\t"
			 "vmovq %%xmm15, %[hi]\n\t"
			 "vzeroupper"
			 : [hi] "=&r"(hi), "+D"(dst), "+S"(src), "+d"(n)
			 : [fn] "r"(fn), [ones] "m"(ones)
			 : "rax", "rcx", "r8", "r9", "r10", "r11", "memory", "cc",
			   "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
			   "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14",
			   "xmm15");
	return hi != 0;
}

/* The guards' routing by (dst - src) mod 4096 = d, each kernel's contract:
 * movsb_safe hands 1..63 to avx2; movsb_coaligned runs rep movsb only where
 * d is a multiple of 32 other than 32.  A wrong test copies just as well,
 * so test_kernel cannot see it. */
static int safe_runs_movsb(unsigned d)
{
	return d == 0 || d > 63;
}

static int coaligned_runs_movsb(unsigned d)
{
	return d % 32 == 0 && d != 32;
}

static void test_routing(void)
{
	static const unsigned dist[] = { 0, 1, 8, 16, 31, 32, 33, 48, 63, 64, 65, 96,
					 100, 2048, 2064, 2080, 4032, 4064, 4095 };
	static const struct {
		const char *name;
		int (*runs_movsb)(unsigned d);
	} guards[] = {
		{ "movsb_safe", safe_runs_movsb },
		{ "movsb_coaligned", coaligned_runs_movsb },
	};
	const size_t n = 4113;
	for (size_t g = 0; g < sizeof guards / sizeof guards[0]; g++) {
		const char *kname = guards[g].name;
		const struct ucopy_kernel *k = ucopy_kernel_find(kname);
		char name[64];
		snprintf(name, sizeof name, "routing %s", kname);
		if (!k || !ucopy_kernel_supported(k, ucopy_cpu()->features)) {
			check_skip(name, "the CPU cannot run this kernel");
			continue;
		}
		for (size_t i = 0; i < sizeof dist / sizeof dist[0]; i++)
			for (int try = 0; try < 2; try++) {
				unsigned d = dist[i];
				int movsb = guards[g].runs_movsb(d);
				const char *body = try ? " (try body)" : "";
				/* dstbuf and srcbuf are page-aligned: this is the distance */
				unsigned char *s = srcbuf + GUARD, *t = dstbuf + GUARD + d;
				memset(t, FILL, n);
				int kept = kept_upper(k, try, t, s, n);
				CHECK(kept == movsb, "%s%s, (dst - src) mod 4096 = %u: ran %s, expected %s",
				      kname, body, d, kept ? "rep movsb" : "avx2",
				      movsb ? "rep movsb" : "avx2");
				CHECK(memcmp(t, s, n) == 0, "%s%s, distance %u: the copy differs",
				      kname, body, d);
			}
		check_group(name);
	}
}
#endif

int main(void)
{
	const char *env = getenv("UCOPY_TEST_SEED");
	seed = env ? strtoull(env, NULL, 0) : (uint64_t)time(NULL) ^ (uint64_t)clock();
	rs = seed;
	printf("test_kernels: seed %" PRIu64 " (replay with UCOPY_TEST_SEED=%" PRIu64 ")\n",
	       seed, seed);

	srcbuf = map(MAXN + SLACK);
	srcref = map(MAXN + SLACK);
	dstbuf = map(MAXN + SLACK);
	for (size_t i = 0; i < MAXN + SLACK; i++) {
		unsigned char c = (unsigned char)rnd();
		srcbuf[i] = c == FILL ? (unsigned char)~FILL : c;
	}
	memcpy(srcref, srcbuf, MAXN + SLACK);

	test_table();
	test_extable();
#ifdef UCOPY_PORT_x86_64
	test_routing();
#endif
	for (size_t i = 0; i < ucopy_kernel_count(); i++) {
		const struct ucopy_kernel *k = ucopy_kernel_at(i);
		test_kernel(k, 0);
		if (k->try_fn)
			test_kernel(k, 1);
	}
	return check_exit();
}
