/*
 * x86_64/cpu.c - CPU detection on x86-64: CPUID and XGETBV.
 *
 * Assumptions: CPUID and XGETBV are usable from user mode.  The feature set
 * is the input of every policy decision, so it must say what the CPU *and*
 * the OS allow: a vector feature counts only when XCR0 shows the OS saves
 * that register state (xxHash and simdjson check the same way), and
 * REP_GOOD follows the Linux kernel's vendor rules, since the named policies
 * replay what the kernel chose from exactly that bit.
 */
#include <cpuid.h>
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "arch.h"
#include "x86_64.h"

const char ucopy_arch_name[] = "x86_64";

const char *const ucopy_arch_feature_names[UCOPY_FEAT_COUNT] = {
	[UCOPY_FEAT_SSE2] = "sse2",
	[UCOPY_FEAT_AVX] = "avx",
	[UCOPY_FEAT_AVX2] = "avx2",
	[UCOPY_FEAT_AVX512F] = "avx512f",
	[UCOPY_FEAT_AVX512BW] = "avx512bw",
	[UCOPY_FEAT_AVX512VL] = "avx512vl",
	[UCOPY_FEAT_AVX_VNNI] = "avx_vnni",
	[UCOPY_FEAT_ERMS] = "erms",
	[UCOPY_FEAT_FSRM] = "fsrm",
	[UCOPY_FEAT_FZRM] = "fzrm",
	[UCOPY_FEAT_FSRS] = "fsrs",
	[UCOPY_FEAT_FSRC] = "fsrc",
	[UCOPY_FEAT_REP_GOOD] = "rep_good",
	[UCOPY_FEAT_INVARIANT_TSC] = "invariant_tsc",
};

static uint64_t xgetbv0(void)
{
	uint32_t lo, hi;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return (uint64_t)hi << 32 | lo;
}

/* Leaf 4 (Intel) and 0x8000001D (AMD with TOPOEXT) share one layout. */
static void caches_from_leaf(struct ucopy_cpu *c, unsigned leaf)
{
	for (unsigned i = 0; i < 16; i++) {
		unsigned a, b, cx, d;
		__cpuid_count(leaf, i, a, b, cx, d);
		unsigned type = a & 0x1f;
		if (type == 0)
			break;
		if (type != 1 && type != 3) /* data or unified */
			continue;
		size_t ways = ((b >> 22) & 0x3ff) + 1;
		size_t parts = ((b >> 12) & 0x3ff) + 1;
		size_t line = (b & 0xfff) + 1;
		size_t sets = (size_t)cx + 1;
		ucopy_cpu_set_cache(c, (a >> 5) & 7, ways * parts * line * sets);
	}
}

/* Pre-TOPOEXT AMD: the legacy L1/L2/L3 descriptors. */
static void caches_from_amd_legacy(struct ucopy_cpu *c, unsigned maxext)
{
	unsigned a, b, cx, d;
	if (maxext >= 0x80000005) {
		__cpuid(0x80000005, a, b, cx, d);
		ucopy_cpu_set_cache(c, 1, (size_t)(cx >> 24) << 10);
	}
	if (maxext >= 0x80000006) {
		__cpuid(0x80000006, a, b, cx, d);
		ucopy_cpu_set_cache(c, 2, (size_t)(cx >> 16) << 10);
		ucopy_cpu_set_cache(c, 3, (size_t)(d >> 18) << 19);
	}
}

/* X86_FEATURE_REP_GOOD as arch/x86/kernel/cpu/{intel,amd,hygon,centaur,
 * zhaoxin}.c set it on x86-64.  The kernel also clears it (and ERMS) when
 * IA32_MISC_ENABLE has fast strings off; that MSR is not readable from user
 * space, and firmware that disables fast strings is rare enough to ignore. */
int ucopy_rep_good(const char *vendor, unsigned family, unsigned model,
		   unsigned sig)
{
	if (!strcmp(vendor, "GenuineIntel"))
		/* init_intel() from 2.6.24 on: "if (c->x86 == 6)", the rule
		 * every kernel whose policy ucopy replays used.  The 2025
		 * rework (Sohil Mehta) moved it to early_init_intel() for
		 * everything from Pentium M Dothan on, which adds the new
		 * families 18 and 19 (kept here) and the Pentium 4, family
		 * 15 (left out, as those kernels left it out). */
		return family == 6 || family > 15;
	if (!strcmp(vendor, "AuthenticAMD"))
		/* init_amd_k8(): C+ stepping K8 ("rep microcode works well for
		 * copy/memset"); init_amd(): every family from 0x10 on. */
		return family >= 0x10 ||
		       (family == 0xf && ((sig >= 0x0f48 && sig < 0x0f50) ||
					  sig >= 0x0f58));
	if (!strcmp(vendor, "HygonGenuine"))
		return 1; /* init_hygon(): unconditional */
	if (!strcmp(vendor, "CentaurHauls"))
		/* init_c3() */
		return (family == 6 && model >= 0xf) || family >= 7;
	if (!strcmp(vendor, "  Shanghai  "))
		return family >= 6; /* init_zhaoxin_cap() */
	return 0;
}

/* Over 100 lines: CPUID's leaves in order, each feature tested where its leaf is read. */
void ucopy_arch_detect(struct ucopy_cpu *c)
{
	unsigned max, a, b, cx, d;
	uint64_t f = 0;

	lib_copy(c->arch, "x86_64", sizeof "x86_64");
	if (!__get_cpuid(0, &max, &b, &cx, &d)) {
		ucopy_cpu_caches_fallback(c);
		return;
	}
	lib_copy(c->vendor, &b, 4);
	lib_copy(c->vendor + 4, &d, 4);
	lib_copy(c->vendor + 8, &cx, 4);
	c->vendor[12] = 0;
	int intel = !strcmp(c->vendor, "GenuineIntel");
	int amd = !strcmp(c->vendor, "AuthenticAMD") ||
		  !strcmp(c->vendor, "HygonGenuine");

	unsigned sig = 0, ecx1 = 0;
	if (max >= 1) {
		__cpuid(1, sig, b, ecx1, d);
		/* Extended family and model as Linux's x86_family() and
		 * x86_model() combine them; for AMD (extended model only
		 * defined from family 0xf) it gives the same result. */
		c->family = (sig >> 8) & 0xf;
		c->model = (sig >> 4) & 0xf;
		c->stepping = sig & 0xf;
		if (c->family == 0xf)
			c->family += (sig >> 20) & 0xff;
		if (c->family >= 6)
			c->model |= ((sig >> 16) & 0xf) << 4;
		if (d & (1u << 26))
			f |= UCOPY_F(SSE2);
	}

	/* CPUID says what the CPU has; XCR0 says what the OS saves on a
	 * context switch.  Using AVX state the OS does not save would corrupt
	 * it (or fault), so both must agree. */
	uint64_t xcr0 = 0;
	if (ecx1 & (1u << 27)) /* OSXSAVE: XGETBV is usable */
		xcr0 = xgetbv0();
	int os_avx = (xcr0 & 0x6) == 0x6;          /* SSE, AVX (YMM hi) */
	int os_avx512 = (xcr0 & 0xe6) == 0xe6;     /* + opmask, ZMM hi */
	if (os_avx && (ecx1 & (1u << 28)))
		f |= UCOPY_F(AVX);

	if (max >= 7) {
		unsigned sub;
		__cpuid_count(7, 0, sub, b, cx, d);
		if (os_avx && (b & (1u << 5)))
			f |= UCOPY_F(AVX2);
		if (os_avx512 && (b & (1u << 16))) {
			f |= UCOPY_F(AVX512F);
			if (b & (1u << 30))
				f |= UCOPY_F(AVX512BW);
			if (b & (1u << 31))
				f |= UCOPY_F(AVX512VL);
		}
		if (b & (1u << 9))
			f |= UCOPY_F(ERMS);
		if (d & (1u << 4))
			f |= UCOPY_F(FSRM);
		if (sub >= 1) {
			__cpuid_count(7, 1, a, b, cx, d);
			if (os_avx && (a & (1u << 4)))
				f |= UCOPY_F(AVX_VNNI);
			if (a & (1u << 10))
				f |= UCOPY_F(FZRM);
			if (a & (1u << 11))
				f |= UCOPY_F(FSRS);
			if (a & (1u << 12))
				f |= UCOPY_F(FSRC);
		}
	}
	if (ucopy_rep_good(c->vendor, c->family, c->model, sig))
		f |= UCOPY_F(REP_GOOD);

	unsigned maxext = __get_cpuid_max(0x80000000, NULL);
	if (maxext >= 0x80000004) {
		unsigned r[12];
		for (unsigned i = 0; i < 3; i++)
			__cpuid(0x80000002 + i, r[4 * i], r[4 * i + 1],
				r[4 * i + 2], r[4 * i + 3]);
		char raw[49];
		lib_copy(raw, r, 48);
		raw[48] = 0;
		const char *s = raw;
		while (*s == ' ')
			s++;
		snprintf(c->brand, sizeof c->brand, "%s", s);
		size_t n = strlen(c->brand);
		while (n && isspace((unsigned char)c->brand[n - 1]))
			c->brand[--n] = 0;
	}
	if (maxext >= 0x80000007) {
		__cpuid(0x80000007, a, b, cx, d);
		if (d & (1u << 8))
			f |= UCOPY_F(INVARIANT_TSC);
	}
	c->features = f;

	if (intel && max >= 4) {
		caches_from_leaf(c, 4);
	} else if (amd && maxext >= 0x80000001) {
		__cpuid(0x80000001, a, b, cx, d);
		if ((cx & (1u << 22)) && maxext >= 0x8000001d) /* TOPOEXT */
			caches_from_leaf(c, 0x8000001d);
		else
			caches_from_amd_legacy(c, maxext);
	}
	ucopy_cpu_caches_fallback(c);
}

