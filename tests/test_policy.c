/*
 * test_policy.c - policy text, named policies, auto and fit.
 *
 * The named-policy table below is written from docs/design.md's table and the
 * kernel sources it cites, not from the ports' policies.c: a change to either side shows
 * up as a difference here.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "ucopy.h"

#define F(x) UCOPY_F(x)

static int same_policy(const struct ucopy_policy *a, const struct ucopy_policy *b)
{
	if (a->nrules != b->nrules)
		return 0;
	for (unsigned i = 0; i < a->nrules; i++)
		if (a->rule[i].limit != b->rule[i].limit ||
		    a->rule[i].kernel != b->rule[i].kernel)
			return 0;
	return 1;
}

/* Rules are well formed: 1..MAX, limits increasing, last SIZE_MAX, kernels
 * set. */
static __attribute__((unused)) int well_formed(const struct ucopy_policy *p)
{
	if (p->nrules < 1 || p->nrules > UCOPY_MAX_RULES)
		return 0;
	for (unsigned i = 0; i < p->nrules; i++) {
		if (!p->rule[i].kernel)
			return 0;
		if (i && p->rule[i].limit <= p->rule[i - 1].limit)
			return 0;
	}
	return p->rule[p->nrules - 1].limit == SIZE_MAX;
}

/* The groups below name x86-64 kernels; a port without them (PORT=generic,
 * make check-generic) runs test_generic_port() instead. */
#ifdef UCOPY_PORT_x86_64

/*=====   text round trip   =====*/

static void test_roundtrip(void)
{
	static const struct { const char *in, *out; } t[] = {
		{ "8:byte,64:word,2K:avx2,24M:movsb,nt",
		  "8:byte,64:word,2K:avx2,24M:movsb,nt" },
		{ "movsb", "movsb" },
		{ "  8 : byte ,\tmovsb  ", "8:byte,movsb" },
		{ "1024:byte,2048:word,1048576:unrolled,1073741824:movsq,libc",
		  "1K:byte,2K:word,1M:unrolled,1G:movsq,libc" },
		{ "1000:word,1025:byte,3072:sse2,5G:avx512,nt",
		  "1000:word,1025:byte,3K:sse2,5G:avx512,nt" },
		{ "1k:byte,2m:word,3g:unrolled,movsq", "1K:byte,2M:word,3G:unrolled,movsq" },
		{ "1:byte,2:byte,3:byte,4:byte,5:byte,6:byte,7:byte,8:byte,"
		  "9:byte,10:byte,11:byte,12:byte,13:byte,14:byte,15:byte,word",
		  "1:byte,2:byte,3:byte,4:byte,5:byte,6:byte,7:byte,8:byte,"
		  "9:byte,10:byte,11:byte,12:byte,13:byte,14:byte,15:byte,word" },
		{ "1536K:word,movsb_safe", "1536K:word,movsb_safe" },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct ucopy_policy p, q;
		char err[256], buf[512];
		if (ucopy_policy_parse(&p, t[i].in, err, sizeof err)) {
			CHECK(0, "'%s' rejected: %s", t[i].in, err);
			continue;
		}
		CHECK(well_formed(&p), "'%s' parsed malformed", t[i].in);
		CHECK(p.name[0] == 0, "'%s' has a name '%s'", t[i].in, p.name);
		size_t n = ucopy_policy_format(&p, buf, sizeof buf);
		CHECK(n == strlen(buf), "'%s': format returned %zu for '%s'",
		      t[i].in, n, buf);
		CHECK(!strcmp(buf, t[i].out), "'%s' formats as '%s', want '%s'",
		      t[i].in, buf, t[i].out);
		CHECK(ucopy_policy_parse(&q, buf, err, sizeof err) == 0 &&
		      same_policy(&p, &q), "'%s' does not parse back the same",
		      buf);

		/* Truncation: snprintf's contract. */
		char small[8];
		memset(small, 'x', sizeof small);
		CHECK(ucopy_policy_format(&p, small, sizeof small) == n,
		      "truncated format of '%s' misreports its length", buf);
		CHECK(memchr(small, 0, sizeof small) &&
		      !strncmp(small, buf, strlen(small)) &&
		      strlen(small) == (n < 7 ? n : 7),
		      "truncated format of '%s' is '%.8s'", buf, small);
		CHECK(ucopy_policy_format(&p, NULL, 0) == n,
		      "format(NULL, 0) of '%s' misreports its length", buf);
	}

	/* Random policies: format then parse gives the same policy. */
	static const char *const names[] = { "byte", "word", "unrolled",
		"movsq", "movsb", "movsb_aligned", "movsb_safe", "sse2", "avx2",
		"avx512", "nt", "libc" };
	unsigned seed = (unsigned)time(NULL);
	printf("  random round trip seed %u\n", seed);
	srand(seed);
	for (int iter = 0; iter < 2000; iter++) {
		struct ucopy_policy p = { 0 }, q;
		char buf[1024], err[256];
		p.nrules = 1 + (unsigned)rand() % UCOPY_MAX_RULES;
		size_t limit = 0;
		for (unsigned i = 0; i < p.nrules; i++) {
			size_t step;
			switch (rand() % 4) {
			case 0: step = 1 + (size_t)rand() % 100; break;
			case 1: step = ((size_t)1 + rand() % 8) << 10; break;
			case 2: step = ((size_t)1 + rand() % 8) << 20; break;
			default: step = ((size_t)1 + rand() % 3) << 30; break;
			}
			limit += step;
			p.rule[i].limit = i + 1 == p.nrules ? SIZE_MAX : limit;
			p.rule[i].kernel = ucopy_kernel_find(
				names[(size_t)rand() % (sizeof names / sizeof names[0])]);
		}
		if (!well_formed(&p)) {
			CHECK(0, "kernel table lacks a kernel this test names");
			break;
		}
		ucopy_policy_format(&p, buf, sizeof buf);
		if (ucopy_policy_parse(&q, buf, err, sizeof err)) {
			CHECK(0, "'%s' rejected: %s", buf, err);
			continue;
		}
		CHECK(same_policy(&p, &q), "'%s' does not parse back the same", buf);
	}
	check_group("policy text round trip");
}

/*=====   malformed text   =====*/

static void expect_reject(const char *text, const char *want)
{
	struct ucopy_policy p, before;
	char err[256];

	/* A sentinel policy: a failed parse must leave it alone. */
	memset(&p, 0, sizeof p);
	ucopy_policy_parse(&p, "4:byte,word", err, sizeof err);
	strcpy(p.name, "sentinel");
	before = p;
	memset(err, 'x', sizeof err);
	int r = ucopy_policy_parse(&p, text, err, sizeof err);
	CHECK(r == -1, "'%.60s' accepted", text ? text : "(null)");
	CHECK(memchr(err, 0, sizeof err) && err[0],
	      "'%.60s': no message", text ? text : "(null)");
	if (r == -1 && want)
		CHECK(memchr(err, 0, sizeof err) && strstr(err, want),
		      "'%.60s': message '%s' lacks '%s'", text, err, want);
	CHECK(!memcmp(&p, &before, sizeof p), "'%.60s' changed the policy",
	      text ? text : "(null)");

	/* Same through resolve, which falls back to the text form. */
	if (text && (strchr(text, ':') || strchr(text, ','))) {
		r = ucopy_policy_resolve(&p, text, ~(uint64_t)0, err, sizeof err);
		CHECK(r == -1 && err[0], "resolve '%.60s' accepted", text);
		CHECK(!memcmp(&p, &before, sizeof p),
		      "resolve '%.60s' changed the policy", text);
	}
}

static void test_malformed(void)
{
	expect_reject(NULL, NULL);
	expect_reject("", NULL);
	expect_reject("   ", NULL);
	expect_reject("\t\n", NULL);
	expect_reject(" , ", NULL);
	expect_reject("abc", "unknown kernel 'abc'");
	expect_reject("8:nosuchkernel,movsb", "unknown kernel 'nosuchkernel'");
	expect_reject("8:byte,nosuchkernel", "unknown kernel 'nosuchkernel'");
	expect_reject("8K:byte,4K:word,movsb", "'4K' is not above the previous limit '8K'");
	expect_reject("64:byte,64:word,movsb", "'64' is not above the previous limit '64'");
	expect_reject("64:byte,1K:word,1K:sse2,movsb", "'1K'");
	expect_reject("99999999999G:byte", "99999999999G");
	expect_reject("99999999999G:byte,movsb", "99999999999G");
	expect_reject("18446744073709551615:byte,movsb", "too large");
	expect_reject("18446744073709551616:byte,movsb", "too large");
	expect_reject("17179869184G:byte,movsb", "too large");
	expect_reject("8:byte,64:word", "'64:word' must not have a limit");
	expect_reject("8:byte", "'8:byte'");
	expect_reject("8:byte,movsb,", "trailing");
	expect_reject("8:byte,,movsb", "empty rule");
	expect_reject(",movsb", "empty rule");
	expect_reject("8:", "'8:'");
	expect_reject("8:,movsb", "'8:'");
	expect_reject(":byte", "':byte'");
	expect_reject(":byte,movsb", "':byte'");
	expect_reject("-1:byte,movsb", "'-1'");
	expect_reject("+1:byte,movsb", "'+1'");
	expect_reject("0:byte,movsb", "'0'");
	expect_reject("0K:byte,movsb", "'0K'");
	expect_reject("12Q:byte,movsb", "'12Q'");
	expect_reject("0x10:byte,movsb", "'0x10'");
	expect_reject("8KB:byte,movsb", "'8KB'");
	expect_reject("8 K:byte,movsb", "'8 K'");
	expect_reject("8::byte,movsb", NULL);
	expect_reject("8:by te,movsb", "'by te'");
	expect_reject("8:byte movsb", "'byte movsb'");
	expect_reject("byte,movsb", "'byte'");
	expect_reject("8:byte,word,64:movsb,nt", "'word'");
	expect_reject("MOVSB", "'MOVSB'");
	expect_reject("8:byte;movsb", NULL);
	expect_reject("8:byte,movsb\x01", NULL);

	/* 17 rules: one too many. */
	char buf[400];
	size_t pos = 0;
	for (int i = 1; i <= 16; i++)
		pos += (size_t)snprintf(buf + pos, sizeof buf - pos, "%d:byte,", i);
	snprintf(buf + pos, sizeof buf - pos, "word");
	expect_reject(buf, "too many rules (max 16)");

	/* 10 000 rules, valid one by one. */
	size_t big = 10000 * 16;
	char *s = malloc(big);
	pos = 0;
	for (int i = 1; i < 10000; i++)
		pos += (size_t)snprintf(s + pos, big - pos, "%d:word,", i);
	snprintf(s + pos, big - pos, "movsb");
	expect_reject(s, "too many rules (max 16)");

	/* 10 000 empty rules and a very long bad token. */
	memset(s, ',', 10000);
	s[10000] = 0;
	expect_reject(s, "empty rule");
	memset(s, 'a', 100000);
	s[100000] = 0;
	expect_reject(s, "unknown kernel");
	memset(s, '9', 100000);
	memcpy(s + 100000, ":byte,movsb", 12);
	expect_reject(s, "too large");
	free(s);

	/* A tiny error buffer still ends in NUL; none at all is allowed. */
	struct ucopy_policy p;
	char tiny[6];
	memset(tiny, 'x', sizeof tiny);
	CHECK(ucopy_policy_parse(&p, "abc", tiny, sizeof tiny) == -1 &&
	      tiny[5] == 0, "a 6-byte error buffer is not terminated");
	CHECK(ucopy_policy_parse(&p, "abc", NULL, 0) == -1,
	      "no error buffer: accepted");
	CHECK(ucopy_policy_resolve(&p, "abc", 0, NULL, 0) == -1,
	      "no error buffer: resolve accepted");

	/* Random junk never crashes: either a valid policy or a message. */
	static const char alpha[] = "0123456789KMG:, bytewordmovsqbavx2512nt-";
	unsigned seed = (unsigned)time(NULL) ^ 0x5a5a;
	printf("  junk seed %u\n", seed);
	srand(seed);
	for (int iter = 0; iter < 20000; iter++) {
		char junk[40], err[256];
		size_t n = (size_t)rand() % (sizeof junk - 1);
		for (size_t i = 0; i < n; i++)
			junk[i] = alpha[(size_t)rand() % (sizeof alpha - 1)];
		junk[n] = 0;
		if (ucopy_policy_parse(&p, junk, err, sizeof err) == 0)
			CHECK(well_formed(&p), "'%s' parsed malformed", junk);
		else
			CHECK(err[0], "'%s' rejected without a message", junk);
	}
	check_group("policy malformed text rejected");
}

/*=====   named policies   =====
 * docs/design.md's table at the sizes of issue 2, one row per feature set.  The
 * sets with rep_good next to erms are what real CPUs report (every Intel
 * family 6 and AMD family >= 0x10 CPU has REP_GOOD); the sets without it are
 * the nominal ones.  The rows differ only for axboe-2018, whose < 128 path
 * is chosen by REP_GOOD alone.  FSRM without ERMS, which no CPU reports,
 * shows where 6.3 (FSRM tested inside the ERMS routine) and 6.4 (FSRM
 * tested first) part. */

static const size_t sizes[8] = { 0, 7, 8, 63, 64, 127, 128, 4096 };

#define ERMS_FSRM (F(ERMS) | F(FSRM))
#define ERMS_FSRM_RG (F(ERMS) | F(FSRM) | F(REP_GOOD))
#define ERMS_ONLY F(ERMS)
#define ERMS_RG (F(ERMS) | F(REP_GOOD))
#define RG_ONLY F(REP_GOOD)
#define FSRM_ONLY F(FSRM)
#define NONE 0

static const struct {
	const char *policy;
	uint64_t features;
	const char *label;
	const char *want[8]; /* at sizes[] */
} table[] = {
#define ALL8(k) { k, k, k, k, k, k, k, k }
#define RG_419 { "byte", "byte", "movsq", "movsq", "movsq", "movsq", "movsq", "movsq" }
#define ERMS_419 { "word", "word", "word", "word", "movsb", "movsb", "movsb", "movsb" }
	/* linux-4.19: ERMS <64 word, >=64 movsb; REP_GOOD <8 byte, else
	 * movsq; neither unrolled. */
	{ "linux-4.19", ERMS_FSRM, "erms+fsrm", ERMS_419 },
	{ "linux-4.19", ERMS_FSRM_RG, "erms+fsrm+rep_good", ERMS_419 },
	{ "linux-4.19", ERMS_ONLY, "erms", ERMS_419 },
	{ "linux-4.19", ERMS_RG, "erms+rep_good", ERMS_419 },
	{ "linux-4.19", RG_ONLY, "rep_good", RG_419 },
	{ "linux-4.19", NONE, "none", ALL8("unrolled") },
	{ "linux-4.19", FSRM_ONLY, "fsrm", ALL8("unrolled") },

	/* axboe-2018: <128 unrolled, or copy_user_generic_string (bytes <8,
	 * movsq) with REP_GOOD; >=128 movsb with ERMS, else as 4.19. */
#define AX_ERMS { "unrolled", "unrolled", "unrolled", "unrolled", "unrolled", "unrolled", "movsb", "movsb" }
#define AX_ERMS_RG { "byte", "byte", "movsq", "movsq", "movsq", "movsq", "movsb", "movsb" }
	{ "axboe-2018", ERMS_FSRM, "erms+fsrm", AX_ERMS },
	{ "axboe-2018", ERMS_FSRM_RG, "erms+fsrm+rep_good", AX_ERMS_RG },
	{ "axboe-2018", ERMS_ONLY, "erms", AX_ERMS },
	{ "axboe-2018", ERMS_RG, "erms+rep_good", AX_ERMS_RG },
	{ "axboe-2018", RG_ONLY, "rep_good", RG_419 },
	{ "axboe-2018", NONE, "none", ALL8("unrolled") },
	{ "axboe-2018", FSRM_ONLY, "fsrm", ALL8("unrolled") },

	/* linux-6.3: FSRM movsb for every size, otherwise 4.19. */
	{ "linux-6.3", ERMS_FSRM, "erms+fsrm", ALL8("movsb") },
	{ "linux-6.3", ERMS_FSRM_RG, "erms+fsrm+rep_good", ALL8("movsb") },
	{ "linux-6.3", ERMS_ONLY, "erms", ERMS_419 },
	{ "linux-6.3", ERMS_RG, "erms+rep_good", ERMS_419 },
	{ "linux-6.3", RG_ONLY, "rep_good", RG_419 },
	{ "linux-6.3", NONE, "none", ALL8("unrolled") },
	{ "linux-6.3", FSRM_ONLY, "fsrm", ALL8("unrolled") },

	/* linux-6.4-rc1: FSRM movsb; otherwise <8 byte, <64 word, unrolled
	 * (ERMS ignored). */
#define RC1 { "byte", "byte", "word", "word", "unrolled", "unrolled", "unrolled", "unrolled" }
	{ "linux-6.4-rc1", ERMS_FSRM, "erms+fsrm", ALL8("movsb") },
	{ "linux-6.4-rc1", ERMS_FSRM_RG, "erms+fsrm+rep_good", ALL8("movsb") },
	{ "linux-6.4-rc1", ERMS_ONLY, "erms", RC1 },
	{ "linux-6.4-rc1", ERMS_RG, "erms+rep_good", RC1 },
	{ "linux-6.4-rc1", RG_ONLY, "rep_good", RC1 },
	{ "linux-6.4-rc1", NONE, "none", RC1 },
	{ "linux-6.4-rc1", FSRM_ONLY, "fsrm", ALL8("movsb") },

	/* linux-6.4: as rc1, >=64 movsb with ERMS. */
#define FIX64 { "byte", "byte", "word", "word", "movsb", "movsb", "movsb", "movsb" }
	{ "linux-6.4", ERMS_FSRM, "erms+fsrm", ALL8("movsb") },
	{ "linux-6.4", ERMS_FSRM_RG, "erms+fsrm+rep_good", ALL8("movsb") },
	{ "linux-6.4", ERMS_ONLY, "erms", FIX64 },
	{ "linux-6.4", ERMS_RG, "erms+rep_good", FIX64 },
	{ "linux-6.4", RG_ONLY, "rep_good", RC1 },
	{ "linux-6.4", NONE, "none", RC1 },
	{ "linux-6.4", FSRM_ONLY, "fsrm", ALL8("movsb") },

	/* linux-6.6: as 6.4, >=64 without ERMS movsq. */
#define MOVSQ66 { "byte", "byte", "word", "word", "movsq", "movsq", "movsq", "movsq" }
	{ "linux-6.6", ERMS_FSRM, "erms+fsrm", ALL8("movsb") },
	{ "linux-6.6", ERMS_FSRM_RG, "erms+fsrm+rep_good", ALL8("movsb") },
	{ "linux-6.6", ERMS_ONLY, "erms", FIX64 },
	{ "linux-6.6", ERMS_RG, "erms+rep_good", FIX64 },
	{ "linux-6.6", RG_ONLY, "rep_good", MOVSQ66 },
	{ "linux-6.6", NONE, "none", MOVSQ66 },
	{ "linux-6.6", FSRM_ONLY, "fsrm", ALL8("movsb") },
};

static void test_named(void)
{
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
		struct ucopy_policy p;
		char err[256];
		/* Vector bits must not change what a kernel policy did. */
		uint64_t extra[] = { 0, F(SSE2) | F(AVX) | F(AVX2) | F(AVX512F) |
				     F(AVX512BW) | F(AVX512VL) | F(INVARIANT_TSC) };
		for (size_t x = 0; x < 2; x++) {
			uint64_t f = table[i].features | extra[x];
			if (ucopy_policy_resolve(&p, table[i].policy, f, err,
						 sizeof err)) {
				CHECK(0, "%s (%s): %s", table[i].policy,
				      table[i].label, err);
				continue;
			}
			CHECK(well_formed(&p), "%s (%s) malformed",
			      table[i].policy, table[i].label);
			CHECK(!strcmp(p.name, table[i].policy),
			      "%s: name is '%s'", table[i].policy, p.name);
			for (size_t s = 0; s < 8; s++) {
				const struct ucopy_kernel *k =
					ucopy_policy_kernel(&p, sizes[s]);
				CHECK(k && !strcmp(k->name, table[i].want[s]),
				      "%s (%s%s) at %zu: %s, want %s",
				      table[i].policy, table[i].label,
				      x ? "+vector" : "", sizes[s],
				      k ? k->name : "(null)", table[i].want[s]);
			}
		}
	}
	check_group("policy named policies follow docs/design.md's table");

	/* Names, kernels and the arm64 policies. */
	struct ucopy_policy p;
	char err[256];
	CHECK(ucopy_policy_resolve(&p, "  linux-6.4 ", F(ERMS), err, sizeof err) == 0,
	      "' linux-6.4 ': %s", err);
	CHECK(ucopy_policy_resolve(&p, "movsq", 0, err, sizeof err) == 0 &&
	      p.nrules == 1 && !strcmp(p.rule[0].kernel->name, "movsq") &&
	      p.rule[0].limit == SIZE_MAX, "a kernel name is not a one-rule policy");
	CHECK(ucopy_policy_resolve(&p, "64:word,movsb", 0, err, sizeof err) == 0 &&
	      p.nrules == 2 && p.name[0] == 0, "policy text through resolve");
#if defined(__x86_64__)
	static const char *const arm[] = { "arm64-4.19", "arm64-5.15" };
	for (int i = 0; i < 2; i++) {
		err[0] = 0;
		CHECK(ucopy_policy_resolve(&p, arm[i], ~(uint64_t)0, err, sizeof err) == -1,
		      "%s resolved on x86-64", arm[i]);
		CHECK(strstr(err, arm[i]) && strstr(err, "aarch64") &&
		      strstr(err, "x86_64"), "%s: message '%s'", arm[i], err);
	}
#endif
	CHECK(ucopy_policy_resolve(&p, "bogus", 0, err, sizeof err) == -1 &&
	      strstr(err, "'bogus'"), "bogus: '%s'", err);
	CHECK(ucopy_policy_resolve(&p, "linux-6.5", 0, err, sizeof err) == -1 &&
	      strstr(err, "'linux-6.5'"), "linux-6.5: '%s'", err);
	CHECK(ucopy_policy_resolve(&p, "", 0, err, sizeof err) == -1 && err[0],
	      "empty spec accepted");
	CHECK(ucopy_policy_resolve(&p, NULL, 0, err, sizeof err) == -1 && err[0],
	      "NULL spec accepted");
	check_group("policy resolve names, kernels and text");
}

/*=====   auto   =====*/

/* rep movsb with nothing in front of it that routes the aliasing distances
 * around it. */
static int unguarded(const struct ucopy_kernel *k)
{
	return !strcmp(k->name, "movsb") || !strcmp(k->name, "movsb_aligned");
}

static void check_auto(uint64_t f, const char *label)
{
	struct ucopy_policy p;
	char err[256], text[256];

	if (ucopy_policy_resolve(&p, "auto", f, err, sizeof err)) {
		CHECK(0, "auto (%s): %s", label, err);
		return;
	}
	ucopy_policy_format(&p, text, sizeof text);
	CHECK(well_formed(&p), "auto (%s) malformed: %s", label, text);
	CHECK(!strcmp(p.name, "auto"), "auto (%s) is named '%s'", label, p.name);
	/* A row derived from the corpus (lib/x86_64/rows.c) is the measured
	 * machine's choice, not the hand rules below: tests/cli/rows.sh checks
	 * it is what the corpus derives.  Here only that it runs. */
	char own_why[1024] = "", unmasked[256] = "";
	if (f == ucopy_cpu()->features) {
		struct ucopy_cpu whole = *ucopy_cpu();
		whole.features = whole.detected;
		ucopy_auto_explain(own_why, sizeof own_why);
		ucopy_auto_for(&whole, unmasked, sizeof unmasked, NULL, 0);
	}
	/* ... as it was measured: under a mask that leaves one of its
	 * kernels unable to run, auto is the hand rows', checked below. */
	int derived = strstr(own_why, "derived from data/machines/") && !strcmp(unmasked, text);
	for (unsigned i = 0; i < p.nrules; i++)
		CHECK(ucopy_kernel_supported(p.rule[i].kernel, f),
		      "auto (%s) picks %s, which it cannot run: %s", label,
		      p.rule[i].kernel->name, text);
	if (derived) {
		printf("  auto (%s): %s (a derived row)\n", label, text);
		return;
	}
	for (unsigned i = 0; i < p.nrules; i++) {
		const struct ucopy_kernel *k = p.rule[i].kernel;
		/* avx512 only where 512-bit stores cost no clock. */
		CHECK(strcmp(k->name, "avx512") || (f & F(AVX_VNNI)),
		      "auto (%s) picks avx512 without avx_vnni: %s", label, text);
		/* rep movsb without the aliasing guard is only ever allowed
		 * below 64 bytes, or for the running CPU's row past 128 KiB,
		 * where a row measured that the guard no longer pays (Zen 5);
		 * and beyond 64 bytes as movsb_aligned wherever it runs. */
		size_t from = i ? p.rule[i - 1].limit : 0;
		CHECK(!unguarded(k) || p.rule[i].limit <= 64 ||
		      (f == ucopy_cpu()->features && from >= ((size_t)128 << 10)),
		      "auto (%s) picks %s from %zu: %s", label, k->name, from, text);
		CHECK(strcmp(k->name, "movsb") || p.rule[i].limit <= 64 ||
		      !ucopy_kernel_supported(ucopy_kernel_find("movsb_aligned"), f),
		      "auto (%s) picks plain movsb from %zu where movsb_aligned runs: %s",
		      label, from, text);
	}
	size_t probe[] = { 64, 65, 127, 128, 2047, 2048, 2049, 4096, 4352,
			   65536, (size_t)1 << 20, (size_t)32 << 20,
			   ((size_t)32 << 20) + 1, (size_t)1 << 30, SIZE_MAX };
	for (size_t i = 0; i < sizeof probe / sizeof probe[0]; i++) {
		const struct ucopy_kernel *k = ucopy_policy_kernel(&p, probe[i]);
		CHECK(!unguarded(k) ||
		      (f == ucopy_cpu()->features && probe[i] >= ((size_t)128 << 10)),
		      "auto (%s) at %zu: %s (%s)", label, probe[i], k->name, text);
	}
	const struct ucopy_kernel *z = ucopy_kernel_find("avx512");
	int zmm = ucopy_kernel_supported(z, f) && (f & F(AVX_VNNI));
	if ((f & F(ERMS)) && (f & F(AVX2)) && (f & F(AVX)) && (f & F(SSE2))) {
		/* The vector kernel up to the row's limit, then movsb_safe:
		 * the default row's limits are derived from the corpus
		 * (lib/x86_64/rows.c) among 256 B - 64 KiB; the running CPU's
		 * row (ucopy_auto_explain) may take it to at most 1 MiB before
		 * movsb_safe, or, where the row says so, to the streaming
		 * stores with no rep movsb at all (Zen 3). */
		size_t from = p.rule[0].limit;
		int own = f == ucopy_cpu()->features;
		const struct ucopy_kernel *below = ucopy_policy_kernel(&p, from - 1);
		const struct ucopy_kernel *at = ucopy_policy_kernel(&p, from);
		char why[1024] = "";
		if (own)
			ucopy_auto_explain(why, sizeof why);
		int stream = own && p.nrules == 2 && strstr(why, "no rep movsb") &&
			     (at == ucopy_kernel_find("nt") || at == ucopy_kernel_find("nt512"));
		CHECK(from >= 256 && (stream || from <= ((size_t)1 << 20)),
		      "auto (%s): the vector range ends at %zu: %s", label, from, text);
		CHECK(below == (zmm ? z : ucopy_kernel_find("avx2")),
		      "auto (%s) at %zu is %s: %s", label, from - 1, below->name, text);
		CHECK(stream || at == ucopy_kernel_find("movsb_safe"),
		      "auto (%s) at %zu is not movsb_safe: %s", label, from, text);
	}
	const char *want = zmm ? "avx512"
			 : (f & F(AVX2)) && (f & F(AVX)) ? "avx2" : NULL;
	if (want)
		CHECK(!strcmp(ucopy_policy_kernel(&p, 100)->name, want),
		      "auto (%s) at 100 is not %s: %s", label, want, text);
	if (strcmp(label, "mixed"))
		printf("  auto (%s): %s\n", label, text);
}

/* ucopy_auto_for(): the running CPU, described, is what auto chose running;
 * another architecture and NULL are refused. */
static void test_auto_for(void)
{
	const struct ucopy_cpu *c = ucopy_cpu();
	char why[1024];
	ucopy_auto_explain(why, sizeof why);
	char pol[256], why2[1024], pol_run[256];
	struct ucopy_policy p;
	char err[256];
	CHECK(ucopy_auto_for(c, pol, sizeof pol, why2, sizeof why2) == (int)strlen(why2) &&
	      (!strcmp(why, why2) || c->features != c->detected),
	      "ucopy_auto_for(this CPU): '%s' against '%s'", why2, why);
	CHECK(ucopy_policy_resolve(&p, "auto", c->features, err, sizeof err) == 0, "%s", err);
	ucopy_policy_format(&p, pol_run, sizeof pol_run);
	CHECK(!strcmp(pol, pol_run), "ucopy_auto_for: '%s', running: '%s'", pol, pol_run);
	struct ucopy_cpu other = *c;
	snprintf(other.arch, sizeof other.arch, "%s",
		 strcmp(c->arch, "x86_64") ? "x86_64" : "aarch64");
	pol[0] = why2[0] = 'x';
	CHECK(ucopy_auto_for(&other, pol, sizeof pol, why2, sizeof why2) == -1 && !pol[0] &&
	      !why2[0], "ucopy_auto_for(%s on a %s library) accepted", other.arch, c->arch);
	CHECK(ucopy_auto_for(NULL, pol, sizeof pol, NULL, 0) == -1, "ucopy_auto_for(NULL)");
	check_group("ucopy_auto_for: a CPU described");
}

static void test_auto(void)
{
	const struct ucopy_cpu *c = ucopy_cpu();
	uint64_t vec = F(SSE2) | F(AVX) | F(AVX2);
	uint64_t v512 = vec | F(AVX512F) | F(AVX512BW) | F(AVX512VL);

	check_auto(c->features, "this CPU");
	char why[1024];
	CHECK(ucopy_auto_explain(why, sizeof why) == strlen(why) && strchr(why, ':'),
	      "ucopy_auto_explain: '%s'", why);
	printf("  auto's row: %s\n", why);
	check_auto(v512 | ERMS_FSRM_RG, "avx512+erms+fsrm");
	check_auto(v512 | F(AVX_VNNI) | ERMS_FSRM_RG, "avx512+avx_vnni+erms+fsrm");
	check_auto(vec | ERMS_FSRM_RG, "avx2+erms+fsrm");
	check_auto(vec | ERMS_RG, "avx2+erms");
	check_auto(vec | RG_ONLY, "avx2");
	check_auto(F(SSE2) | ERMS_RG, "sse2+erms");
	check_auto(F(SSE2), "sse2");
	check_auto(ERMS_FSRM, "erms+fsrm");
	check_auto(0, "none");
	for (uint64_t f = 0; f < (UINT64_C(1) << UCOPY_FEAT_COUNT); f += 0x1235)
		check_auto(f, "mixed");

	/* Another feature set gets the documented fixed 32 MiB threshold for
	 * nt; this CPU's gets a threshold from its own L3. */
	struct ucopy_policy p;
	char err[256];
	uint64_t other = vec | ERMS_RG;
	if (other == c->features)
		other |= F(FSRS);
	if (ucopy_policy_resolve(&p, "auto", other, err, sizeof err) == 0 &&
	    !strcmp(p.rule[p.nrules - 1].kernel->name, "nt"))
		CHECK(p.rule[p.nrules - 2].limit == (size_t)32 << 20,
		      "auto for another CPU: nt from %zu", p.rule[p.nrules - 2].limit);
	check_group("policy auto avoids plain movsb and runs on its CPU");
}

/*=====   fit   =====*/

static void test_fit(void)
{
	struct ucopy_policy p, before;
	char err[256], note[256], text[256];
	uint64_t vec = F(SSE2) | F(AVX) | F(AVX2);
	uint64_t all = vec | F(AVX512F) | F(AVX512BW) | F(AVX512VL) | ERMS_FSRM_RG;

	ucopy_policy_parse(&p, "64:avx512,4K:movsb_safe,1M:movsb,16M:movsq,nt",
			   err, sizeof err);
	before = p;
	CHECK(ucopy_policy_fit(&p, all, note, sizeof note) == 0 && !note[0] &&
	      same_policy(&p, &before), "fit changed a runnable policy: %s", note);

	int n = ucopy_policy_fit(&p, vec | ERMS_RG, note, sizeof note);
	ucopy_policy_format(&p, text, sizeof text);
	CHECK(n == 1, "avx2 CPU: %d changes (%s)", n, note);
	CHECK(!strcmp(text, "64:avx2,4K:movsb_safe,1M:movsb,16M:movsq,nt"),
	      "avx2 CPU: %s", text);
	CHECK(strstr(note, "avx512 -> avx2 (CPU lacks avx512f"), "note: '%s'", note);

	p = before;
	n = ucopy_policy_fit(&p, F(SSE2), note, sizeof note);
	ucopy_policy_format(&p, text, sizeof text);
	CHECK(n == 2, "sse2 CPU: %d changes (%s)", n, note);
	CHECK(!strcmp(text, "64:sse2,4K:movsb_aligned,1M:movsb,16M:movsq,nt"),
	      "sse2 CPU: %s", text);
	CHECK(strstr(note, "avx512 -> sse2") && strstr(note, "movsb_safe -> movsb_aligned"),
	      "note: '%s'", note);

	/* Nothing reported (a mask of none): the guard and the aligning head
	 * both go, down to the instruction itself. */
	static const char bare[] = "64:unrolled,4K:movsb,1M:movsb,";
	p = before;
	ucopy_policy_fit(&p, 0, note, sizeof note);
	ucopy_policy_format(&p, text, sizeof text);
	CHECK(!strncmp(text, bare, sizeof bare - 1), "featureless CPU: %s", text);
	CHECK(strstr(note, "movsb_safe -> movsb (") != NULL, "note: '%s'", note);

	/* movsb_coaligned hands what is not co-aligned to avx2: without AVX2,
	 * rep movsb for all, from the line's start. */
	ucopy_policy_parse(&p, "20K:avx2,64K:movsb_coaligned,8M:avx2,nt", err, sizeof err);
	n = ucopy_policy_fit(&p, F(SSE2) | ERMS_RG, note, sizeof note);
	ucopy_policy_format(&p, text, sizeof text);
	CHECK(n == 3 && !strcmp(text, "20K:sse2,64K:movsb_aligned,8M:sse2,nt"),
	      "sse2+erms CPU: %d changes: %s", n, text);
	CHECK(strstr(note, "movsb_coaligned -> movsb_aligned") != NULL, "note: '%s'", note);

	/* rep movsb and rep movsq run everywhere: they stay. */
	ucopy_policy_parse(&p, "8:byte,64:word,movsb", err, sizeof err);
	before = p;
	CHECK(ucopy_policy_fit(&p, 0, note, sizeof note) == 0 && !note[0] &&
	      same_policy(&p, &before), "movsb replaced without ERMS: %s", note);

	/* Several rules with one kernel: each counted, noted once. */
	ucopy_policy_parse(&p, "64:avx512,1K:word,avx512", err, sizeof err);
	n = ucopy_policy_fit(&p, vec, note, sizeof note);
	CHECK(n == 2, "two avx512 rules: %d changes", n);
	char *first = strstr(note, "avx512 ->");
	CHECK(first && !strstr(first + 1, "avx512 ->"), "note repeats: '%s'", note);

	/* Nothing vector at all. */
	ucopy_policy_parse(&p, "sse2", err, sizeof err);
	n = ucopy_policy_fit(&p, 0, note, sizeof note);
	CHECK(n == 1 && ucopy_kernel_supported(p.rule[0].kernel, 0),
	      "sse2 on a CPU without it: %d, %s", n, p.rule[0].kernel->name);

	/* A short note buffer: terminated, no overflow. */
	char tiny[5] = "xxxx";
	ucopy_policy_parse(&p, "avx512", err, sizeof err);
	CHECK(ucopy_policy_fit(&p, 0, tiny, sizeof tiny) == 1 && tiny[4] == 0,
	      "short note buffer");
	ucopy_policy_parse(&p, "avx512", err, sizeof err);
	CHECK(ucopy_policy_fit(&p, 0, NULL, 0) == 1, "no note buffer");

	/* Every named policy and auto, fitted to this CPU, runs here. */
	static const char *const all_named[] = { "auto", "linux-4.19",
		"axboe-2018", "linux-6.3", "linux-6.4-rc1", "linux-6.4",
		"linux-6.6" };
	uint64_t here = ucopy_cpu()->features;
	for (size_t i = 0; i < sizeof all_named / sizeof all_named[0]; i++) {
		for (uint64_t f = 0; f < (UINT64_C(1) << UCOPY_FEAT_COUNT); f += 0x777) {
			if (ucopy_policy_resolve(&p, all_named[i], f, err, sizeof err)) {
				CHECK(0, "%s: %s", all_named[i], err);
				continue;
			}
			ucopy_policy_fit(&p, here, note, sizeof note);
			for (unsigned r = 0; r < p.nrules; r++) {
				const struct ucopy_kernel *k = p.rule[r].kernel;
				uint64_t lack = k->requires & ~here &
					~(F(ERMS) | F(FSRM) | F(FZRM) | F(FSRS) |
					  F(FSRC) | F(REP_GOOD));
				CHECK(lack == 0, "%s fitted here keeps %s",
				      all_named[i], k->name);
			}
		}
	}
	check_group("policy fit replaces what the CPU cannot run");
}

static void test_kernel_lookup(void)
{
	struct ucopy_policy p;
	char err[256];
	ucopy_policy_parse(&p, "8:byte,64:word,2K:avx2,movsb_safe", err, sizeof err);
	static const struct { size_t n; const char *k; } t[] = {
		{ 0, "byte" }, { 7, "byte" }, { 8, "word" }, { 63, "word" },
		{ 64, "avx2" }, { 2047, "avx2" }, { 2048, "movsb_safe" },
		{ SIZE_MAX - 1, "movsb_safe" }, { SIZE_MAX, "movsb_safe" },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		const struct ucopy_kernel *k = ucopy_policy_kernel(&p, t[i].n);
		CHECK(k && !strcmp(k->name, t[i].k), "at %zu: %s, want %s",
		      t[i].n, k ? k->name : "(null)", t[i].k);
	}
	check_group("policy kernel lookup at the limits");
}

#elif defined(UCOPY_PORT_aarch64)

/* The aarch64 port: its kernels in the grammar; the named policies as
 * docs/design.md's aarch64 table says (one kernel each, whatever the
 * features: arm64 picked no strategy by feature or size for user copies);
 * auto; fit. */
static void test_aarch64_port(void)
{
	struct ucopy_policy p, q;
	char err[256], buf[256];
	CHECK(ucopy_policy_parse(&p, " 16 : byte ,64:word,2k:neon, ldp ", err, sizeof err) == 0,
	      "rejected: %s", err);
	ucopy_policy_format(&p, buf, sizeof buf);
	CHECK(!strcmp(buf, "16:byte,64:word,2K:neon,ldp"), "formats as '%s'", buf);
	CHECK(ucopy_policy_parse(&q, buf, err, sizeof err) == 0 && same_policy(&p, &q),
	      "'%s' does not parse back", buf);
	CHECK(ucopy_policy_parse(&p, "8:byte,movsb", err, sizeof err) == -1 &&
	      strstr(err, "unknown kernel 'movsb'"), "an x86-64 kernel: '%s'", err);
	check_group("policy aarch64 kernels in the grammar");

	static const struct { const char *name, *kernel; } named[] = {
		{ "arm64-4.19", "ldp" }, { "arm64-5.15", "ldtr" },
	};
	static const size_t sizes[] = { 0, 1, 15, 16, 63, 64, 4096, (size_t)1 << 30 };
	uint64_t feats[] = { 0, F(ASIMD), F(ASIMD) | F(SVE) | F(MOPS) };
	for (size_t i = 0; i < 2; i++)
		for (size_t f = 0; f < 3; f++) {
			if (ucopy_policy_resolve(&p, named[i].name, feats[f], err, sizeof err)) {
				CHECK(0, "%s: %s", named[i].name, err);
				continue;
			}
			CHECK(well_formed(&p) && !strcmp(p.name, named[i].name), "%s: '%s'",
			      named[i].name, p.name);
			for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
				CHECK(!strcmp(ucopy_policy_kernel(&p, sizes[s])->name, named[i].kernel),
				      "%s at %zu: %s, want %s", named[i].name, sizes[s],
				      ucopy_policy_kernel(&p, sizes[s])->name, named[i].kernel);
		}
	err[0] = 0;
	CHECK(ucopy_policy_resolve(&p, "linux-6.4", ~(uint64_t)0, err, sizeof err) == -1 &&
	      strstr(err, "is for x86_64") && strstr(err, "built for aarch64"),
	      "linux-6.4: '%s'", err);
	check_group("policy aarch64 named policies follow docs/design.md's table");

	/* auto: neon with ASIMD, ldp without; mops not chosen (not measured,
	 * its faults not tested). */
	static const struct { uint64_t f; const char *want; } autos[] = {
		{ 0, "ldp" }, { F(ASIMD), "neon" }, { F(ASIMD) | F(SVE) | F(MOPS), "neon" },
	};
	for (size_t i = 0; i < sizeof autos / sizeof *autos; i++) {
		CHECK(ucopy_policy_resolve(&p, "auto", autos[i].f, err, sizeof err) == 0,
		      "auto: %s", err);
		ucopy_policy_format(&p, buf, sizeof buf);
		CHECK(!strcmp(buf, autos[i].want), "auto for %#llx: '%s', want '%s'",
		      (unsigned long long)autos[i].f, buf, autos[i].want);
	}
	ucopy_auto_explain(buf, sizeof buf);
	CHECK(strstr(buf, "default") && strstr(buf, "ot measured on real hardware"),
	      "auto's row: '%s'", buf);
	check_group("policy aarch64 auto");

	CHECK(ucopy_policy_parse(&p, "64:mops,4K:neon,ldtr", err, sizeof err) == 0, "%s", err);
	ucopy_policy_fit(&p, F(ASIMD), buf, sizeof buf);
	ucopy_policy_format(&p, buf, sizeof buf);
	CHECK(!strncmp(buf, "64:neon,", 8) && strstr(buf, "ldtr"), "fitted to asimd: '%s'", buf);
	CHECK(ucopy_policy_parse(&p, "64:mops,4K:neon,ldtr", err, sizeof err) == 0, "%s", err);
	ucopy_policy_fit(&p, 0, buf, sizeof buf);
	for (unsigned r = 0; r < p.nrules; r++)
		CHECK(p.rule[r].kernel->requires == 0, "fitted to no features keeps %s",
		      p.rule[r].kernel->name);
	errno = 0;
	CHECK(ucopy_fault_init() == 0, "ucopy_fault_init: errno %d", errno);
	check_group("policy aarch64 fit, and the port has a fault handler");
}

#else

/* The library without a port: its one kernel and libc, the grammar, auto,
 * the named policies refused as another architecture's. */
static void test_generic_port(void)
{
	struct ucopy_policy p, q;
	char err[256], buf[256];
	CHECK(ucopy_policy_parse(&p, " 64 : c ,4k:libc,  c ", err, sizeof err) == 0,
	      "rejected: %s", err);
	ucopy_policy_format(&p, buf, sizeof buf);
	CHECK(!strcmp(buf, "64:c,4K:libc,c"), "formats as '%s'", buf);
	CHECK(ucopy_policy_parse(&q, buf, err, sizeof err) == 0 && same_policy(&p, &q),
	      "'%s' does not parse back", buf);
	CHECK(!strcmp(ucopy_policy_kernel(&p, 63)->name, "c") &&
	      !strcmp(ucopy_policy_kernel(&p, 64)->name, "libc") &&
	      !strcmp(ucopy_policy_kernel(&p, SIZE_MAX)->name, "c"), "kernel lookup");
	static const struct { const char *text, *want; } bad[] = {
		{ "8:byte,c", "unknown kernel 'byte'" },
		{ "8K:c,4K:libc,c", "'4K' is not above the previous limit '8K'" },
		{ "8:c", "'8:c'" }, { "8:c,,libc", "empty rule" }, { "0:c,libc", "'0'" },
		{ "18446744073709551615:c,libc", "too large" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		err[0] = 0;
		CHECK(ucopy_policy_parse(&p, bad[i].text, err, sizeof err) == -1 &&
		      strstr(err, bad[i].want), "'%s': '%s', want '%s'", bad[i].text, err,
		      bad[i].want);
	}
	CHECK(ucopy_policy_resolve(&p, "auto", ucopy_cpu()->features, err, sizeof err) == 0 &&
	      p.nrules == 1 && !strcmp(p.rule[0].kernel->name, "c"), "auto: %s", err);
	CHECK(ucopy_policy_fit(&p, 0, buf, sizeof buf) == 0 && !buf[0], "fit changed auto: %s", buf);
	err[0] = 0;
	CHECK(ucopy_policy_resolve(&p, "linux-6.4", ucopy_cpu()->features, err, sizeof err) == -1 &&
	      strstr(err, "is for x86_64"), "linux-6.4: '%s'", err);
	CHECK(ucopy_policy_resolve(&p, "frob", 0, err, sizeof err) == -1 &&
	      strstr(err, "unknown policy or kernel 'frob'"), "frob: '%s'", err);
	CHECK(!strcmp(ucopy_active()->policy->rule[0].kernel->name, "c"), "the active policy");
	errno = 0;
	CHECK(ucopy_fault_init() == -1 && errno == ENOSYS, "ucopy_fault_init without a port: "
	      "errno %d, want ENOSYS", errno);
	check_group("policy without a port: the grammar, auto, named policies refused");
}

#endif

int main(void)
{
#ifdef UCOPY_PORT_x86_64
	test_roundtrip();
	test_malformed();
	test_named();
	test_auto();
	test_auto_for();
	test_fit();
	test_kernel_lookup();
#elif defined(UCOPY_PORT_aarch64)
	test_aarch64_port();
#else
	test_generic_port();
#endif
	return check_exit();
}
