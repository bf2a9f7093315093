/*
 * test_cpu.c - CPU detection against what the OS reports, feature names and
 * the feature-list parser.
 *
 * /proc/cpuinfo is the kernel's own CPUID (and XGETBV) reading, so on Linux
 * it is an independent witness for the bits that decide a policy.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include "check.h"
#include "internal.h"
#include "machine.h"
#ifdef UCOPY_PORT_x86_64
#include "x86_64.h"
#endif

#define F(x) UCOPY_F(x)

/* The value of the first "key\t: value" line of /proc/cpuinfo, or NULL. */
static char *cpuinfo(const char *key, char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char *line = NULL, *res = NULL;
	size_t cap = 0, klen = strlen(key);

	if (!f)
		return NULL;
	while (getline(&line, &cap, f) > 0) {
		if (strncmp(line, key, klen) || (line[klen] != ' ' &&
						 line[klen] != '\t' &&
						 line[klen] != ':'))
			continue;
		char *v = strchr(line, ':');
		if (!v)
			continue;
		v++;
		while (*v == ' ')
			v++;
		v[strcspn(v, "\n")] = 0;
		snprintf(buf, len, "%s", v);
		res = buf;
		break;
	}
	free(line);
	fclose(f);
	return res;
}

static int has_flag(const char *flags, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = flags; (p = strstr(p, name)); p += n)
		if ((p == flags || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return 1;
	return 0;
}

static void *detect_in_thread(void *arg)
{
	(void)arg;
	return (void *)ucopy_cpu();
}

static void test_detect(void)
{
	const struct ucopy_cpu *c = ucopy_cpu();

	CHECK(c != NULL, "ucopy_cpu() is NULL");
	CHECK(ucopy_cpu() == c, "a second call returns another object");
	CHECK(c->vendor[0] && memchr(c->vendor, 0, sizeof c->vendor),
	      "vendor '%.16s'", c->vendor);
	CHECK(memchr(c->brand, 0, sizeof c->brand), "brand not terminated");
	CHECK(c->brand[0] != ' ', "brand '%s' has a leading space", c->brand);
	CHECK(c->features >> UCOPY_FEAT_COUNT == 0,
	      "features %#llx has bits past the last feature",
	      (unsigned long long)c->features);
#if defined(__x86_64__)
	CHECK(!strcmp(c->arch, "x86_64"), "arch '%s'", c->arch);
	CHECK(c->features & F(SSE2), "no SSE2 on x86-64");
	CHECK(!(c->features & F(ASIMD)), "ASIMD on x86-64");
	CHECK(c->family >= 6, "family %u", c->family);
	/* What the OS must have enabled for a vector bit to appear. */
	if (c->features & F(AVX2))
		CHECK(c->features & F(AVX), "AVX2 without AVX");
	if (c->features & (F(AVX512BW) | F(AVX512VL)))
		CHECK(c->features & F(AVX512F), "AVX-512 BW/VL without F");
	if (c->features & F(AVX512F))
		CHECK(c->features & F(AVX), "AVX-512F without AVX");
#elif defined(__aarch64__)
	CHECK(!strcmp(c->arch, "aarch64"), "arch '%s'", c->arch);
	/* Linux requires FP/ASIMD of every arm64 CPU it runs on. */
	CHECK(c->features & F(ASIMD), "no ASIMD on aarch64");
	CHECK(!(c->features & F(SSE2)), "SSE2 on aarch64");
#endif
	printf("  %s %s family %u model %u stepping %u '%s'\n", c->arch,
	       c->vendor, c->family, c->model, c->stepping, c->brand);

	/* Detection is once and thread-safe: every thread sees one object. */
	pthread_t t[8];
	void *r[8];
	for (int i = 0; i < 8; i++)
		pthread_create(&t[i], NULL, detect_in_thread, NULL);
	for (int i = 0; i < 8; i++) {
		pthread_join(t[i], &r[i]);
		CHECK(r[i] == c, "thread %d got another object", i);
	}
	check_group("cpu detection");
}

#if defined(__x86_64__)
/* Kernel version as major * 100 + minor, 0 when unknown. */
static int kernel_version(void)
{
	struct utsname u;
	int major, minor;
	if (uname(&u) || sscanf(u.release, "%d.%d", &major, &minor) != 2)
		return 0;
	return major * 100 + minor;
}
#endif

#if defined(__x86_64__)
/* A CPUID leaf's 12-byte signature, read here rather than through ucopy:
 * EBX EDX ECX for the vendor (leaf 0), EBX ECX EDX for a hypervisor's
 * (0x40000000). */
static void cpuid_signature(unsigned leaf, char out[13])
{
	unsigned r[4];
	__cpuid(leaf, r[0], r[1], r[2], r[3]);
	memcpy(out, &r[1], 4);
	memcpy(out + 4, leaf ? &r[2] : &r[3], 4);
	memcpy(out + 8, leaf ? &r[3] : &r[2], 4);
	out[12] = 0;
}

/* Why this process's CPUID is not the CPU the kernel describes, or NULL.
 * Under a user-mode emulator (qemu-x86_64 -cpu Haswell ./test_cpu) CPUID
 * answers for the emulated CPU while /proc/cpuinfo is the host's, read by
 * the host's kernel; in a VM, QEMU's emulated ones included, both are the
 * guest's.  os_vendor: the kernel's vendor_id or NULL; sig_differs: the
 * kernel's family, model or stepping is not ucopy's. */
static const char *emulated(const char *os_vendor, int sig_differs, const char *brand,
			    char *why, size_t len)
{
	char sig[13];
	const char *emu = machine_emulator();
	if (emu) {
		snprintf(why, len, "the kernel runs '%s'", emu);
		return why;
	}
	/* No VM shows its kernel one vendor and its processes another. */
	cpuid_signature(0, sig);
	if (os_vendor && strcmp(sig, os_vendor)) {
		snprintf(why, len, "CPUID says '%s', the kernel's CPU is '%s'", sig, os_vendor);
		return why;
	}
	if (!sig_differs)
		return NULL;
	unsigned a, b, c, d;
	__cpuid(1, a, b, c, d);
	if (c >> 31) {   /* a hypervisor says who it is in leaf 0x40000000 */
		cpuid_signature(0x40000000, sig);
		if (!strcmp(sig, "TCGTCGTCGTCG")) {
			snprintf(why, len, "CPUID's hypervisor leaf is QEMU's emulator "
				 "('TCGTCGTCGTCG') and its CPU is not the kernel's");
			return why;
		}
	}
	if (strstr(brand, "QEMU")) {
		snprintf(why, len, "the CPUID brand is QEMU's ('%s') and its CPU is not "
			 "the kernel's", brand);
		return why;
	}
	return NULL;
}
#endif

/* What ucopy reads from CPUID against the kernel's own reading of it: the
 * vendor, family, model and stepping, and every feature flag the kernel
 * derives from CPUID (and XGETBV) must agree.  The brand string need not:
 * it is text the CPU, or the hypervisor, supplies; the kernel keeps the one
 * it read at boot (a VM restored from a snapshot or migrated keeps its old
 * host's) and no policy or profile check compares it with /proc/cpuinfo. */
static void test_against_cpuinfo(void)
{
#if defined(__x86_64__)
	const struct ucopy_cpu *c = ucopy_cpu();
	static char flags[8192];
	char buf[256], vendor[64], why[600];

	if (!cpuinfo("flags", flags, sizeof flags)) {
		check_skip("cpu agrees with /proc/cpuinfo", "no /proc/cpuinfo");
		return;
	}
	int have_vendor = cpuinfo("vendor_id", vendor, sizeof vendor) != NULL;
	unsigned fms[3] = { c->family, c->model, c->stepping }, os_fms[3];
	static const char *const fms_key[3] = { "cpu family", "model", "stepping" };
	int sig_differs = 0;
	for (int i = 0; i < 3; i++) {
		os_fms[i] = fms[i];
		if (cpuinfo(fms_key[i], buf, sizeof buf) && isdigit((unsigned char)buf[0]))
			os_fms[i] = (unsigned)atoi(buf);
		sig_differs |= os_fms[i] != fms[i];
	}
	if (emulated(have_vendor ? vendor : NULL, sig_differs, c->brand, why, sizeof why)) {
		char skip[700];
		snprintf(skip, sizeof skip, "emulated: %s, so /proc/cpuinfo describes "
			 "the host's CPU, not the one CPUID answers for", why);
		check_skip("cpu agrees with /proc/cpuinfo", skip);
		return;
	}
	static const struct { unsigned bit; const char *flag; int since; } t[] = {
		{ UCOPY_FEAT_SSE2, "sse2", 0 },
		{ UCOPY_FEAT_AVX, "avx", 0 },
		{ UCOPY_FEAT_AVX2, "avx2", 0 },
		{ UCOPY_FEAT_AVX512F, "avx512f", 0 },
		{ UCOPY_FEAT_AVX512BW, "avx512bw", 0 },
		{ UCOPY_FEAT_AVX512VL, "avx512vl", 0 },
		{ UCOPY_FEAT_AVX_VNNI, "avx_vnni", 512 },  /* named in 5.12 */
		{ UCOPY_FEAT_ERMS, "erms", 0 },
		{ UCOPY_FEAT_FSRM, "fsrm", 506 },     /* named in 5.6 */
		{ UCOPY_FEAT_REP_GOOD, "rep_good", 0 },
	};
	int kv = kernel_version();
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		int ours = !!(c->features & (UINT64_C(1) << t[i].bit));
		int os = has_flag(flags, t[i].flag);
		/* A kernel older than the flag's name cannot list it. */
		if (ours && !os && kv && kv < t[i].since) {
			printf("  %s: ucopy yes, /proc/cpuinfo no: allowed, kernel %d.%d "
			       "predates the name\n", t[i].flag, kv / 100, kv % 100);
			continue;
		}
		CHECK(ours == os, "%s: ucopy says %s, /proc/cpuinfo says %s",
		      t[i].flag, ours ? "yes" : "no", os ? "yes" : "no");
	}
	if (have_vendor)
		CHECK(!strcmp(vendor, c->vendor), "vendor '%s', /proc/cpuinfo '%s'",
		      c->vendor, vendor);
	for (int i = 0; i < 3; i++)
		CHECK(os_fms[i] == fms[i], "%s %u, /proc/cpuinfo %u", fms_key[i], fms[i],
		      os_fms[i]);
	if (cpuinfo("model name", buf, sizeof buf)) {
		size_t n = strlen(buf);
		while (n && buf[n - 1] == ' ')
			buf[--n] = 0;
		if (strcmp(buf, c->brand))
			printf("  brand: CPUID '%s', /proc/cpuinfo '%s': allowed (the "
			       "kernel keeps the brand it read at boot, or its own name; "
			       "nothing in ucopy compares the two)\n", c->brand, buf);
	}
	check_group("cpu agrees with /proc/cpuinfo");
#elif defined(__aarch64__)
	/* The kernel's reading of the same registers: HWCAP's names in
	 * "Features", MIDR's fields as "CPU implementer" and "CPU part". */
	const struct ucopy_cpu *c = ucopy_cpu();
	static char flags[4096];
	char buf[64];
	const char *emu = machine_emulator();
	if (emu) {
		char skip[700];
		snprintf(skip, sizeof skip, "emulated: the kernel runs '%s', so /proc/cpuinfo "
			 "describes the host's CPU, not the one the emulator answers for", emu);
		check_skip("cpu agrees with /proc/cpuinfo", skip);
		return;
	}
	if (!cpuinfo("Features", flags, sizeof flags)) {
		check_skip("cpu agrees with /proc/cpuinfo", "no Features line in /proc/cpuinfo");
		return;
	}
	static const struct { unsigned bit; const char *flag; } t[] = {
		{ UCOPY_FEAT_ASIMD, "asimd" },
		{ UCOPY_FEAT_SVE, "sve" },
		{ UCOPY_FEAT_MOPS, "mops" },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		int ours = !!(c->features & (UINT64_C(1) << t[i].bit));
		int os = has_flag(flags, t[i].flag);
		CHECK(ours == os, "%s: ucopy says %s, /proc/cpuinfo says %s",
		      t[i].flag, ours ? "yes" : "no", os ? "yes" : "no");
	}
	if (cpuinfo("CPU implementer", buf, sizeof buf))
		CHECK(strtoul(buf, NULL, 0) == strtoul(c->vendor, NULL, 0),
		      "implementer %s, /proc/cpuinfo %s", c->vendor, buf);
	if (cpuinfo("CPU part", buf, sizeof buf))
		CHECK(strtoul(buf, NULL, 0) == c->model, "part %#x, /proc/cpuinfo %s",
		      c->model, buf);
	check_group("cpu agrees with /proc/cpuinfo");
#else
	check_skip("cpu agrees with /proc/cpuinfo", "x86-64 and aarch64 only");
#endif
}

static void test_caches(void)
{
	const struct ucopy_cpu *c = ucopy_cpu();

	printf("  l1d %zu, l2 %zu, l3 %zu\n", c->l1d, c->l2, c->l3);
#if defined(__aarch64__)
	/* EL0 cannot read CCSIDR: sizes come from sysfs alone, and 0 means
	 * unknown (include/ucopy.h).  qemu-user on a host whose kernel lists
	 * no caches, or a VM's firmware that describes none, leaves them so. */
	if (!c->l1d && !c->l2 && !c->l3 &&
	    access("/sys/devices/system/cpu/cpu0/cache/index0", F_OK) != 0) {
		check_skip("cpu caches", "the kernel lists no caches in "
			   "/sys/devices/system/cpu/cpu0/cache and EL0 cannot read CCSIDR");
		return;
	}
#endif
	CHECK(c->l1d >= 4096 && c->l1d <= ((size_t)4 << 20), "l1d %zu", c->l1d);
	CHECK(c->l2 > c->l1d, "l2 %zu not above l1d %zu", c->l2, c->l1d);
	/* l3 may be 0 (no L3, or a VM that hides it). */
	CHECK(c->l3 == 0 || c->l3 > c->l1d, "l3 %zu not above l1d %zu",
	      c->l3, c->l1d);
	CHECK(c->l1d % 1024 == 0 && c->l2 % 1024 == 0 && c->l3 % 1024 == 0,
	      "cache sizes not whole KiB: %zu %zu %zu", c->l1d, c->l2, c->l3);
	check_group("cpu caches");
}

static void test_names(void)
{
	uint64_t all = 0, out;
	char list[512] = "none", err[128];

	unsigned named = 0;
	for (unsigned b = 0; b < UCOPY_FEAT_COUNT; b++) {
		/* A bit of another architecture has no name here. */
		const char *n = ucopy_feature_name(b);
		CHECK(!n || n[0], "bit %u has an empty name", b);
		if (!n)
			continue;
		named++;
		for (const char *p = n; *p; p++)
			CHECK(islower((unsigned char)*p) || isdigit((unsigned char)*p) ||
			      *p == '_', "name '%s' is not lowercase", n);
		for (unsigned o = 0; o < b; o++)
			CHECK(!ucopy_feature_name(o) || strcmp(n, ucopy_feature_name(o)),
			      "'%s' names bits %u and %u", n, o, b);

		CHECK(ucopy_features_parse(n, 0, &out, err, sizeof err) == 0 &&
		      out == UINT64_C(1) << b, "'%s' parses to %#llx (%s)", n,
		      (unsigned long long)out, err);
		char neg[64];
		snprintf(neg, sizeof neg, "-%s", n);
		CHECK(ucopy_features_parse(neg, ~(uint64_t)0, &out, err, sizeof err) == 0 &&
		      out == ~(UINT64_C(1) << b), "'%s' does not remove it", neg);
		strcat(list, ",");
		strcat(list, n);
		all |= UINT64_C(1) << b;
	}
	CHECK(named > 0 || ucopy_cpu()->features == 0, "no feature is named, yet the CPU has some");
	CHECK(ucopy_feature_name(UCOPY_FEAT_COUNT) == NULL, "name past the end");
	CHECK(ucopy_feature_name(~0u) == NULL, "name at ~0");
	CHECK(ucopy_features_parse(list, 0x1234, &out, err, sizeof err) == 0 &&
	      out == all, "'%s' gives %#llx", list, (unsigned long long)out);

	/* The names of this CPU's features give back its feature set. */
	const struct ucopy_cpu *c = ucopy_cpu();
	strcpy(list, "none");
	for (unsigned b = 0; b < UCOPY_FEAT_COUNT; b++)
		if (c->features >> b & 1) {
			strcat(list, ",");
			strcat(list, ucopy_feature_name(b));
		}
	CHECK(ucopy_features_parse(list, ~(uint64_t)0, &out, err, sizeof err) == 0 &&
	      out == c->features, "'%s' does not give this CPU's set", list);
	printf("  features: %s\n", list + 5);
	check_group("cpu feature names round trip");
}

static void expect_parse(const char *list, uint64_t base, uint64_t want)
{
	uint64_t out = 0xdead;
	char err[128] = "x";
	CHECK(ucopy_features_parse(list, base, &out, err, sizeof err) == 0,
	      "'%s' rejected: %s", list, err);
	CHECK(out == want, "'%s' on %#llx gives %#llx, want %#llx", list,
	      (unsigned long long)base, (unsigned long long)out,
	      (unsigned long long)want);
}

static void expect_fail(const char *list, const char *want)
{
	uint64_t out = 0xdead;
	char err[128];
	memset(err, 'x', sizeof err);
	CHECK(ucopy_features_parse(list, 7, &out, err, sizeof err) == -1,
	      "'%s' accepted", list ? list : "(null)");
	CHECK(out == 0xdead, "'%s' wrote a set on failure", list ? list : "(null)");
	CHECK(memchr(err, 0, sizeof err) && err[0], "'%s': no message",
	      list ? list : "(null)");
	if (want)
		CHECK(memchr(err, 0, sizeof err) && strstr(err, want),
		      "'%s': message '%s' lacks '%s'", list, err, want);
}

static void test_parse(void)
{
#if defined(UCOPY_PORT_x86_64)
	/* Two features of the port, one more, its baseline, two written in
	 * mixed case, and a name another architecture uses. */
#define A "erms"
#define B "fsrm"
#define C "avx2"
#define BASE "sse2"
#define MIXED "ERMS,Rep_Good"
#define MIXED_SET (F(ERMS) | F(REP_GOOD))
#define FOREIGN "asimd"
	uint64_t a = F(ERMS), b = F(FSRM), cc = F(AVX2);
#else
#define A "mops"
#define B "sve"
#define C "asimd"
#define BASE "asimd"
#define MIXED "MOPS,Sve"
#define MIXED_SET (F(MOPS) | F(SVE))
#define FOREIGN "erms"
	uint64_t a = F(MOPS), b = F(SVE), cc = F(ASIMD);
#endif
	uint64_t base = b | cc;
	expect_parse(A ",-" B, base, a | cc);
	expect_parse("none", base, 0);
	expect_parse("none," A, base, a);
	expect_parse(" none , " A " ,\t" B " ", base, a | b);
	expect_parse("-" C, base, b);
	expect_parse("+" A, 0, a);
	expect_parse(A "," A, 0, a);
	expect_parse(A ",-" A, 0, 0);
	expect_parse(MIXED, 0, MIXED_SET);
	expect_parse("-" BASE, 0, 0);

	expect_fail(NULL, NULL);
	expect_fail("", "empty");
	expect_fail("   ", "empty");
	expect_fail("xyz", "unknown feature 'xyz'");
	expect_fail(A ",xyz", "unknown feature 'xyz'");
	expect_fail(A ",-xyz", "unknown feature 'xyz'");
	expect_fail(A ",," B, "empty");
	expect_fail(A ",", "empty");
	expect_fail("," A, "empty");
	expect_fail("-", "empty");
	expect_fail(FOREIGN, "unknown feature '" FOREIGN "'");
	expect_fail(A ",none", "none");
	expect_fail("-none", "none");
	expect_fail("er ms", "unknown feature 'er ms'");
	expect_fail("avx512", "unknown feature 'avx512'");
#undef A
#undef B
#undef C
#undef BASE
#undef MIXED
#undef MIXED_SET
#undef FOREIGN

	/* A long bad token: the message stays bounded and terminated. */
	char longname[3000];
	memset(longname, 'q', sizeof longname - 1);
	longname[sizeof longname - 1] = 0;
	expect_fail(longname, "unknown feature 'qqq");

	uint64_t out;
	char tiny[4];
	memset(tiny, 'x', sizeof tiny);
	CHECK(ucopy_features_parse("xyz", 0, &out, tiny, sizeof tiny) == -1 &&
	      tiny[3] == 0, "a 4-byte error buffer is not terminated");
	CHECK(ucopy_features_parse("xyz", 0, &out, NULL, 0) == -1,
	      "no error buffer: accepted");
	check_group("cpu feature list parsing");
}

#ifdef UCOPY_PORT_x86_64
/* UCOPY_FEATURES's rule, which the library and the command both ask for:
 * removals apply, a list that adds a feature is refused whole (x86-64's
 * feature names). */
static void test_mask(void)
{
	uint64_t detected = F(SSE2) | F(ERMS), out;
	char err[160];
	CHECK(ucopy_features_mask("-erms", detected, &out, err, sizeof err) == 0 &&
	      out == F(SSE2), "-erms: %s", err);
	CHECK(ucopy_features_mask("none,sse2", detected, &out, err, sizeof err) == 0 &&
	      out == F(SSE2), "none,sse2: %s", err);
	CHECK(ucopy_features_mask("erms", detected, &out, err, sizeof err) == 0 &&
	      out == detected, "erms (already there) is no addition: %s", err);
	out = 0xdead;
	CHECK(ucopy_features_mask("-erms,avx2,fsrm", detected, &out, err, sizeof err) == -1 &&
	      out == 0xdead, "an addition is accepted or writes a set");
	CHECK(!strcmp(err, "it adds avx2,fsrm, which the CPU lacks (only removals apply)"),
	      "addition message: '%s'", err);
	CHECK(ucopy_features_mask("frob", detected, &out, err, sizeof err) == -1 &&
	      strstr(err, "unknown feature 'frob'"), "unknown feature: '%s'", err);
	char tiny[8];
	CHECK(ucopy_features_mask("avx2", detected, &out, tiny, sizeof tiny) == -1 &&
	      strlen(tiny) == sizeof tiny - 1, "a small error buffer is not cut and terminated");
	CHECK(ucopy_features_mask("avx2", detected, &out, NULL, 0) == -1,
	      "no error buffer: accepted");
	check_group("cpu feature mask (UCOPY_FEATURES)");
}

/* REP_GOOD by vendor, family and signature, as the Linux vendor files set
 * it (the rules cpu.c cites), including the boundaries. */
static void test_rep_good(void)
{
	static const struct {
		const char *vendor;
		unsigned family, model, sig;
		int want;
	} t[] = {
		{ "GenuineIntel", 6, 0x0f, 0x06f6, 1 },    /* Core 2 */
		{ "GenuineIntel", 6, 0xcf, 0xc06f2, 1 },   /* this project's Xeon */
		{ "GenuineIntel", 15, 4, 0x0f41, 0 },      /* Pentium 4: left out */
		{ "GenuineIntel", 5, 2, 0x0521, 0 },
		{ "GenuineIntel", 19, 1, 0, 1 },           /* new family */
		{ "AuthenticAMD", 0x19, 0x21, 0xa20f10, 1 }, /* Zen 3 */
		{ "AuthenticAMD", 0x10, 2, 0x100f22, 1 },
		{ "AuthenticAMD", 0xf, 4, 0x0f47, 0 },     /* K8 before C stepping */
		{ "AuthenticAMD", 0xf, 4, 0x0f48, 1 },
		{ "AuthenticAMD", 0xf, 5, 0x0f50, 0 },
		{ "AuthenticAMD", 0xf, 5, 0x0f58, 1 },
		{ "HygonGenuine", 0x18, 0, 0, 1 },
		{ "CentaurHauls", 6, 0x0e, 0, 0 },
		{ "CentaurHauls", 6, 0x0f, 0, 1 },
		{ "  Shanghai  ", 7, 0, 0, 1 },
		{ "SomethingElse", 6, 0x55, 0, 0 },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		CHECK(ucopy_rep_good(t[i].vendor, t[i].family, t[i].model, t[i].sig) == t[i].want,
		      "%s family %#x model %#x sig %#x: expected rep_good %d", t[i].vendor,
		      t[i].family, t[i].model, t[i].sig, t[i].want);
	check_group("cpu rep_good by vendor rules");
}
#endif

int main(void)
{
	test_detect();
	test_against_cpuinfo();
	test_caches();
	test_names();
	test_parse();
#ifdef UCOPY_PORT_x86_64
	test_mask();
	test_rep_good();
#endif
	return check_exit();
}
