/*
 * cpu.c - what the CPU can do, detected once.
 *
 * Assumptions: Linux; on x86-64 CPUID and XGETBV are usable from user mode.
 * The feature set is the input of every policy decision, so it must say what
 * the CPU *and* the OS allow: a vector feature counts only when XCR0 shows the
 * OS saves that register state (xxHash and simdjson check the same way), and
 * REP_GOOD follows the Linux kernel's vendor rules, since the named policies
 * replay what the kernel chose from exactly that bit.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "internal.h"

#if defined(__x86_64__)
#include <cpuid.h>
#elif defined(__aarch64__)
#include <sys/auxv.h>
#endif

static const char *const feature_names[UCOPY_FEAT_COUNT] = {
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
	[UCOPY_FEAT_ASIMD] = "asimd",
};

static struct ucopy_cpu cpus[4];
static struct ucopy_once cpu_once = UCOPY_ONCE(cpus);

/* The start of a small file, NUL-terminated: open/read rather than stdio,
 * since detection runs at a program's first copy, maybe in a signal handler
 * or inside malloc (docs/design.md, "First use").
 * @return : the bytes read, or -1. */
static ssize_t read_text(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	size_t got = 0;
	while (got + 1 < len) {
		ssize_t r = read(fd, buf + got, len - 1 - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	buf[got] = 0;
	return (ssize_t)got;
}

static void set_cache(struct ucopy_cpu *c, unsigned level, size_t size)
{
	if (level == 1 && !c->l1d)
		c->l1d = size;
	else if (level == 2 && !c->l2)
		c->l2 = size;
	else if (level == 3 && !c->l3)
		c->l3 = size;
}

/* Reads /sys/devices/system/cpu/cpu0/cache: the kernel's own view, which is
 * what is left on CPUs that describe their caches in no user-visible way
 * (aarch64 without CTR/CCSIDR access from EL0, or a hypervisor hiding CPUID
 * leaves). */
static void caches_from_sysfs(struct ucopy_cpu *c)
{
	for (int i = 0; i < 8; i++) {
		char path[96], type[16] = "", size[32] = "";
		unsigned level = 0;

		snprintf(path, sizeof path,
			 "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
		if (read_text(path, size, sizeof size) < 0)
			break;
		if (sscanf(size, "%u", &level) != 1)
			level = 0;
		snprintf(path, sizeof path,
			 "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
		if (read_text(path, type, sizeof type) < 0 ||
		    (strncmp(type, "Data", 4) && strncmp(type, "Unified", 7)))
			continue;
		snprintf(path, sizeof path,
			 "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		if (read_text(path, size, sizeof size) < 0)
			continue;
		char *end;
		unsigned long long v = strtoull(size, &end, 10);
		if (*end == 'K')
			v <<= 10;
		else if (*end == 'M')
			v <<= 20;
		if (v)
			set_cache(c, level, (size_t)v);
	}
}

static void caches_fallback(struct ucopy_cpu *c)
{
#if defined(_SC_LEVEL1_DCACHE_SIZE)
	long v;
	if (!c->l1d && (v = sysconf(_SC_LEVEL1_DCACHE_SIZE)) > 0)
		c->l1d = (size_t)v;
	if (!c->l2 && (v = sysconf(_SC_LEVEL2_CACHE_SIZE)) > 0)
		c->l2 = (size_t)v;
	if (!c->l3 && (v = sysconf(_SC_LEVEL3_CACHE_SIZE)) > 0)
		c->l3 = (size_t)v;
#endif
	if (!c->l1d || !c->l2 || !c->l3)
		caches_from_sysfs(c);
}

#if defined(__x86_64__)

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
		set_cache(c, (a >> 5) & 7, ways * parts * line * sets);
	}
}

/* Pre-TOPOEXT AMD: the legacy L1/L2/L3 descriptors. */
static void caches_from_amd_legacy(struct ucopy_cpu *c, unsigned maxext)
{
	unsigned a, b, cx, d;
	if (maxext >= 0x80000005) {
		__cpuid(0x80000005, a, b, cx, d);
		set_cache(c, 1, (size_t)(cx >> 24) << 10);
	}
	if (maxext >= 0x80000006) {
		__cpuid(0x80000006, a, b, cx, d);
		set_cache(c, 2, (size_t)(cx >> 16) << 10);
		set_cache(c, 3, (size_t)(d >> 18) << 19);
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

static void detect(struct ucopy_cpu *c)
{
	unsigned max, a, b, cx, d;
	uint64_t f = 0;

	strcpy(c->arch, "x86_64");
	if (!__get_cpuid(0, &max, &b, &cx, &d)) {
		caches_fallback(c);
		return;
	}
	memcpy(c->vendor, &b, 4);
	memcpy(c->vendor + 4, &d, 4);
	memcpy(c->vendor + 8, &cx, 4);
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
		memcpy(raw, r, 48);
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
	caches_fallback(c);
}

#elif defined(__aarch64__)

#ifndef HWCAP_ASIMD
#define HWCAP_ASIMD (1 << 1)
#endif

/* MIDR fields as the kernel prints them in /proc/cpuinfo; the implementer
 * code stands in for the vendor string x86 has. */
static void midr_from_cpuinfo(struct ucopy_cpu *c)
{
	char text[4096];
	unsigned v;

	if (read_text("/proc/cpuinfo", text, sizeof text) < 0)
		return;
	for (char *line = text, *nl; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			break;   /* cut short: the rest is not the first CPU */
		*nl = 0;
		if (sscanf(line, "CPU implementer : %i", &v) == 1)
			snprintf(c->vendor, sizeof c->vendor, "0x%02x", v);
		else if (sscanf(line, "CPU variant : %i", &v) == 1)
			c->family = v;
		else if (sscanf(line, "CPU part : %i", &v) == 1)
			c->model = v;
		else if (sscanf(line, "CPU revision : %i", &v) == 1)
			c->stepping = v;
		else if (line[0] == 0 && c->vendor[0])
			break; /* first CPU only */
	}
}

static void detect(struct ucopy_cpu *c)
{
	strcpy(c->arch, "aarch64");
	if (getauxval(AT_HWCAP) & HWCAP_ASIMD)
		c->features |= UCOPY_F(ASIMD);
	midr_from_cpuinfo(c);
	caches_fallback(c);
}

#else

static void detect(struct ucopy_cpu *c)
{
	snprintf(c->arch, sizeof c->arch, "unknown");
	caches_fallback(c);
}

#endif

static void detect_slot(void *slot)
{
	struct ucopy_cpu *c = slot;
	detect(c);
	if (!c->vendor[0])
		strcpy(c->vendor, "unknown");
}

const struct ucopy_cpu *ucopy_cpu(void)
{
	return ucopy_once(&cpu_once, detect_slot, NULL);
}

const char *ucopy_feature_name(unsigned bit)
{
	return bit < UCOPY_FEAT_COUNT ? feature_names[bit] : NULL;
}

static int feature_bit(const char *s, size_t n)
{
	for (unsigned i = 0; i < UCOPY_FEAT_COUNT; i++)
		if (strlen(feature_names[i]) == n &&
		    !strncasecmp(feature_names[i], s, n))
			return (int)i;
	return -1;
}

static int fail(char *err, size_t errlen, const char *fmt, const char *s,
		int n)
{
	if (err && errlen)
		snprintf(err, errlen, fmt, n, s);
	return -1;
}

int ucopy_features_parse(const char *list, uint64_t base, uint64_t *out,
			 char *err, size_t errlen)
{
	uint64_t set = base;
	int first = 1;

	if (err && errlen)
		err[0] = 0;
	if (!list)
		return fail(err, errlen, "empty feature list%.*s", "", 0);
	const char *p = list;
	for (;;) {
		const char *end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		const char *s = p, *e = end;
		while (s < e && isspace((unsigned char)*s))
			s++;
		while (e > s && isspace((unsigned char)e[-1]))
			e--;
		int remove = 0;
		if (s < e && (*s == '-' || *s == '+')) {
			remove = *s == '-';
			s++;
		}
		int n = (int)(e - s);
		if (n > 40)
			n = 40; /* keep a junk token's message short */
		if (s == e) {
			if (first && !*end)
				return fail(err, errlen,
					    "empty feature list%.*s", "", 0);
			return fail(err, errlen,
				    "empty feature name in '%.*s'", list, 60);
		}
		if (e - s == 4 && !strncasecmp(s, "none", 4)) {
			if (!first || remove)
				return fail(err, errlen,
					    "'%.*s' may only start the list", "none", 4);
			set = 0;
		} else {
			int bit = feature_bit(s, (size_t)(e - s));
			if (bit < 0)
				return fail(err, errlen,
					    "unknown feature '%.*s'", s, n);
			if (remove)
				set &= ~(UINT64_C(1) << bit);
			else
				set |= UINT64_C(1) << bit;
		}
		first = 0;
		if (!*end)
			break;
		p = end + 1;
	}
	*out = set;
	return 0;
}
