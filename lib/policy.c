/*
 * policy.c - size classes to kernels: the text form, the named policies of
 * real systems, and the library's own default ("auto").
 *
 * A named policy says what a given kernel (the OS) did for a user copy on a
 * CPU with a given feature set, so that the lab can replay it on another
 * machine; it is deliberately not adapted to the CPU it is resolved for.
 * ucopy_policy_fit() is the separate step that makes a policy runnable.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

#define KIB ((size_t)1 << 10)
#define MIB ((size_t)1 << 20)
#define GIB ((size_t)1 << 30)

/* Bits that say how fast the rep string instructions are, not whether they
 * run: a kernel that "requires" only these runs on every x86-64 CPU. */
#define REP_SPEED_BITS (UCOPY_F(ERMS) | UCOPY_F(FSRM) | UCOPY_F(FZRM) | \
			UCOPY_F(FSRS) | UCOPY_F(FSRC) | UCOPY_F(REP_GOOD))

static int fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	if (err && errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* A token quoted in a message: bounded, so that a 10 000-rule policy gives a
 * readable error. */
struct tok {
	char s[52];
};

static struct tok quote(const char *s, size_t n)
{
	struct tok t;
	if (n > 40)
		snprintf(t.s, sizeof t.s, "%.40s...", s);
	else
		snprintf(t.s, sizeof t.s, "%.*s", (int)n, s);
	return t;
}

static void trim(const char **s, const char **e)
{
	while (*s < *e && isspace((unsigned char)**s))
		(*s)++;
	while (*e > *s && isspace((unsigned char)(*e)[-1]))
		(*e)--;
}

/* LIMIT := SIZE above 0 and below SIZE_MAX, which marks the last rule. */
static int parse_limit(const char *s, const char *e, size_t *out, char *err,
		       size_t errlen)
{
	size_t n = (size_t)(e - s), v;
	int rc = ucopy_size_span(s, n, &v);
	if (rc == -1)
		return fail(err, errlen,
			    "bad limit '%s' (expected a number with optional K, M or G)",
			    quote(s, n).s);
	if (rc == -2 || v == SIZE_MAX)
		return fail(err, errlen, "limit '%s' is too large", quote(s, n).s);
	if (v == 0)
		return fail(err, errlen, "limit '%s' must be above 0", quote(s, n).s);
	*out = v;
	return 0;
}

static const struct ucopy_kernel *find_kernel(const char *s, size_t n)
{
	char name[32];
	if (n == 0 || n >= sizeof name)
		return NULL;
	lib_copy(name, s, n);
	name[n] = 0;
	return ucopy_kernel_find(name);
}

int ucopy_policy_parse(struct ucopy_policy *p, const char *text, char *err,
		       size_t errlen)
{
	struct ucopy_policy q;
	const char *prev = NULL; /* the previous rule, for messages */
	size_t prevlen = 0;
	const char *prev_ls = NULL; /* the previous limit, as written */
	size_t prev_ll = 0;
	int prev_limited = 1;

	if (err && errlen)
		err[0] = 0;
	memset(&q, 0, sizeof q);
	if (!text)
		return fail(err, errlen, "empty policy");
	const char *ts = text, *te = text + strlen(text);
	trim(&ts, &te);
	if (ts == te)
		return fail(err, errlen, "empty policy");

	for (const char *r = text;;) {
		const char *end = strchr(r, ',');
		if (!end)
			end = r + strlen(r);
		const char *rs = r, *re = end;
		trim(&rs, &re);
		if (rs == re) {
			if (!*end && prev)
				return fail(err, errlen,
					    "trailing ',' after '%s'",
					    quote(prev, prevlen).s);
			if (prev)
				return fail(err, errlen,
					    "empty rule after '%s'",
					    quote(prev, prevlen).s);
			return fail(err, errlen,
				    "empty rule at the start of '%s'",
				    quote(text, strlen(text)).s);
		}
		if (q.nrules == UCOPY_MAX_RULES)
			return fail(err, errlen, "too many rules (max %d)",
				    UCOPY_MAX_RULES);
		if (!prev_limited)
			return fail(err, errlen,
				    "rule '%s' has no limit but is not the last rule",
				    quote(prev, prevlen).s);

		struct tok rule = quote(rs, (size_t)(re - rs));
		const char *ks = rs, *ke = re;
		size_t limit = SIZE_MAX;
		const char *colon = memchr(rs, ':', (size_t)(re - rs));
		if (colon) {
			const char *ls = rs, *le = colon;
			trim(&ls, &le);
			ks = colon + 1;
			trim(&ks, &ke);
			if (ls == le)
				return fail(err, errlen,
					    "rule '%s' has no limit before ':'",
					    rule.s);
			if (ks == ke)
				return fail(err, errlen,
					    "rule '%s' has no kernel after ':'",
					    rule.s);
			if (parse_limit(ls, le, &limit, err, errlen))
				return -1;
			if (q.nrules && limit <= q.rule[q.nrules - 1].limit) {
				struct tok now = quote(ls, (size_t)(le - ls));
				return fail(err, errlen,
					    "limit '%s' is not above the previous limit '%s'",
					    now.s, quote(prev_ls, prev_ll).s);
			}
			prev_ls = ls;
			prev_ll = (size_t)(le - ls);
		}
		const struct ucopy_kernel *k = find_kernel(ks, (size_t)(ke - ks));
		if (!k)
			return fail(err, errlen, "unknown kernel '%s'",
				    quote(ks, (size_t)(ke - ks)).s);
		q.rule[q.nrules].limit = limit;
		q.rule[q.nrules].kernel = k;
		q.nrules++;
		prev = rs;
		prevlen = (size_t)(re - rs);
		prev_limited = colon != NULL;
		if (!*end)
			break;
		r = end + 1;
	}
	if (prev_limited)
		return fail(err, errlen, "the last rule '%s' must not have a limit",
			    quote(prev, prevlen).s);
	lib_copy(p, &q, sizeof q);
	return 0;
}

/* Appends like snprintf at *pos, counting what did not fit. */
static void put(char *buf, size_t len, size_t *pos, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void put(char *buf, size_t len, size_t *pos, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(*pos < len ? buf + *pos : NULL,
			  *pos < len ? len - *pos : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		*pos += (size_t)n;
}

static void put_size(char *buf, size_t len, size_t *pos, size_t v)
{
	char t[32];
	ucopy_size_format(v, t, sizeof t);
	put(buf, len, pos, "%s", t);
}

size_t ucopy_policy_format(const struct ucopy_policy *p, char *buf, size_t len)
{
	size_t pos = 0;

	if (buf && len)
		buf[0] = 0;
	else
		len = 0;
	if (!p)
		return 0;
	for (unsigned i = 0; i < p->nrules && i < UCOPY_MAX_RULES; i++) {
		if (i)
			put(buf, len, &pos, ",");
		if (p->rule[i].limit != SIZE_MAX) {
			put_size(buf, len, &pos, p->rule[i].limit);
			put(buf, len, &pos, ":");
		}
		put(buf, len, &pos, "%s",
		    p->rule[i].kernel ? p->rule[i].kernel->name : "?");
	}
	return pos;
}

/*=====   Named policies   =====
 * Each returns the policy text for a feature set.  The kernel names map to
 * the kernel's routines as docs/design.md's kernel table says ("word" is the
 * short-copy loop, "unrolled" copy_user_generic_unrolled, "movsq"
 * copy_user_generic_string). */

/* v4.19 arch/x86/include/asm/uaccess_64.h copy_user_generic():
 * alternative_call_2(unrolled, string if REP_GOOD, enhanced_fast_string if
 * ERMS), ERMS winning.  copy_user_enhanced_fast_string sends < 64 bytes to
 * .L_copy_short_string (8-byte words, then bytes); copy_user_generic_string
 * sends < 8 bytes to its byte loop. */
static const char *linux_4_19(uint64_t f)
{
	if (f & UCOPY_F(ERMS))
		return "64:word,movsb";
	if (f & UCOPY_F(REP_GOOD))
		return "8:byte,movsq";
	return "unrolled";
}

/* Jens Axboe's "x86: only use ERMS for user copies for larger sizes" (LKML,
 * November 2018; not merged): below 128 bytes copy_user_generic() calls
 * alternative_call(unrolled, string if REP_GOOD), otherwise the 4.19
 * alternative_call_2.  The REP_GOOD routine is copy_user_generic_string, the
 * same one 4.19's REP_GOOD row runs, so its < 8 byte loop applies here too;
 * without ERMS nothing changes from 4.19 at or above 128 either. */
static const char *axboe_2018(uint64_t f)
{
	if (f & UCOPY_F(ERMS))
		return f & UCOPY_F(REP_GOOD) ? "8:byte,128:movsq,movsb"
					     : "128:unrolled,movsb";
	return linux_4_19(f);
}

/* 5.17 to 6.3: copy_user_enhanced_fast_string (reached with ERMS) skips its
 * "cmpl $64; jb copy_user_short_string" when the CPU has FSRM (an
 * ALTERNATIVE on X86_FEATURE_FSRM), so every size goes to rep movsb.  FSRM
 * without ERMS, which no real CPU reports, never got there: 4.19's paths. */
static const char *linux_6_3(uint64_t f)
{
	if ((f & UCOPY_F(ERMS)) && (f & UCOPY_F(FSRM)))
		return "movsb";
	return linux_4_19(f);
}

/* 6.4-rc1, 427fda2c8a49 "x86: improve on the non-rep 'copy_user' function"
 * and 577e6a7fd50d (inline rep movs for FSRM): FSRM inlines rep movsb;
 * everyone else calls rep_movs_alternative, which had lost the ERMS case
 * (bytes < 8, words < 64, the unrolled loop above).  That is the regression
 * docs/design.md describes. */
static const char *linux_6_4_rc1(uint64_t f)
{
	if (f & UCOPY_F(FSRM))
		return "movsb";
	return "8:byte,64:word,unrolled";
}

/* 6.4, 47ee3f1dd93b "x86: re-introduce support for ERMS copies for user
 * space accesses" (2023-05-26): rep_movs_alternative uses rep movsb at 64
 * bytes and up when ERMS. */
static const char *linux_6_4(uint64_t f)
{
	if (f & UCOPY_F(FSRM))
		return "movsb";
	if (f & UCOPY_F(ERMS))
		return "8:byte,64:word,movsb";
	return "8:byte,64:word,unrolled";
}

/* 6.6, ca96b162bfd2 "x86: bring back rep movsq for user access on CPUs
 * without ERMS": the large case without ERMS is rep movsq plus a tail. */
static const char *linux_6_6(uint64_t f)
{
	if (f & UCOPY_F(FSRM))
		return "movsb";
	if (f & UCOPY_F(ERMS))
		return "8:byte,64:word,movsb";
	return "8:byte,64:word,movsq";
}

/* arm64 __arch_copy_from_user: 4.19's copy_template.S uses ldp pairs; from
 * 5.x (ldtr, one register per load, for PAN/UAO) the loads have no pair
 * form.  The aarch64 kernels are a later issue; the names are what they
 * will be called. */
static const char *arm64_4_19(uint64_t f)
{
	(void)f;
	return "ldp";
}

static const char *arm64_5_15(uint64_t f)
{
	(void)f;
	return "ldtr";
}

struct named {
	const char *name;
	const char *arch;
	const char *(*text)(uint64_t);
};

static const struct named named[] = {
	{ "linux-4.19", "x86_64", linux_4_19 },
	{ "axboe-2018", "x86_64", axboe_2018 },
	{ "linux-6.3", "x86_64", linux_6_3 },
	{ "linux-6.4-rc1", "x86_64", linux_6_4_rc1 },
	{ "linux-6.4", "x86_64", linux_6_4 },
	{ "linux-6.6", "x86_64", linux_6_6 },
	{ "arm64-4.19", "aarch64", arm64_4_19 },
	{ "arm64-5.15", "aarch64", arm64_5_15 },
};

#if defined(__x86_64__)
#define THIS_ARCH "x86_64"
#elif defined(__aarch64__)
#define THIS_ARCH "aarch64"
#else
#define THIS_ARCH "unknown"
#endif

/*=====   auto   =====
 * The thresholds are provisional: issue 6 (calibrate) replaces them with
 * measured crossovers.
 *
 * Below 2 KiB a vector kernel: it has no startup cost (rep movsb's is tens of
 * cycles without FSRM, the reason for the 2018 proposal) and its overlapping
 * head/tail stores cover the odd sizes without a byte loop.  2 KiB is
 * about where glibc (2.33 on) starts rep movsb on FSRM CPUs: its
 * rep_movsb_threshold is 2112 there, and 2048 with 16-byte vectors.  On Xeon
 * family 6 model 207 under KVM the avx2 loop and movsb_safe cross there too
 * (hot, four src/dst alignments: avx2 0.5-0.85x movsb_safe's time at 1 KiB,
 * 0.99-1.24x at 2 KiB, 0.87-1.08x at 2.5 KiB, movsb_safe ahead at 3-4 KiB).
 *
 * avx2 where AVX-512 runs but costs clock: on Skylake-SP to Ice Lake a
 * 512-bit instruction lowers the core's frequency license for about a
 * millisecond, which taxes all the code around a short copy, and a copy gains
 * little from 64-byte over 32-byte stores while the data sits in L1 (glibc
 * sets Prefer_No_AVX512 on those parts; Linux has X86_FEATURE_PREFER_YMM).
 * Where 512-bit stores cost no licence (Sapphire/Emerald Rapids: AVX-512
 * with AVX-VNNI, glibc 2.36's test in cpu_features.c) avx512 takes the
 * vector range up to 4 KiB, because there the gain is not little: on Xeon family 6 model 207 under KVM one zmm store
 * retires per cycle like one ymm store, so avx512 copies 256 B - 4 KiB in
 * about half avx2's time, and its masked 0..63 class has no size branch
 * (fleetbench distributions: 0.35-0.47x glibc's time, avx2 0.9-1.0x).
 * glibc 2.36 runs its zmm memmove there.  It stops at 4 KiB, not 2: from
 * 2 to 4 KiB avx512 still beat movsb_safe there, and once the copy leaves
 * L1 (past ~16 KiB) its loop is up to 1.9x slower than rep movsb.  Not
 * further, though hot it would win: at 3-12 KiB avx512 took 0.68-0.99x
 * movsb_safe's time hot (source offsets {0,5} x destination offsets {0,37};
 * at 4352 B-12 KiB also distances {0,1,8,31,63,2048,4064}) but at 4-16 KiB
 * 0.98-1.16x cold (the offsets); in the four 8 KiB cells that is 2-9 ns
 * gained hot against 54-197 ns lost cold (Xeon family 6 model 207, KVM;
 * docs/performance.md, "Why avx512 stops at 4 KiB"; most likely its stores
 * read each destination line first, and rep movsb's do not).
 *
 * From 2 KiB rep movsb where ERMS makes it fast, but only as movsb_safe, which
 * checks (dst - src) mod 4096 and runs the avx2 loop at the distances where
 * rep movsb falls off the 4K-aliasing cliff (Zen 3: ~25x slower for a small
 * positive distance; issue 2).  Plain movsb is never chosen above 63 bytes;
 * without AVX2 there is no guarded rep movsb, so the vector loop goes on.
 *
 * Non-temporal stores from a quarter of the L3: a copy that large evicts much
 * of what the other cores sharing the L3 keep there, and its destination will
 * not stay cached anyway.  glibc 2.38 moved its non_temporal_threshold to the
 * same quarter of the shared cache (Noah Goldstein, 2023).  On Intel, from
 * four times the L2 if that is lower: the server L3 is non-inclusive and
 * shared by dozens of cores, so one core's share of it is about its L2, and
 * what the CPUID L3 size promises a virtual machine it may not get.  On Xeon
 * family 6 model 207 under KVM (L2 2 MiB, L3 300 MiB) the L3 quarter is
 * 75 MiB, but nt is already 14-16% faster than rep movsb for hot repeated
 * copies of 8, 24, 32 and 48 MiB (ties at 4 MiB; glibc 2.36 runs rep movsb
 * up to 114 MiB there).  Only the running CPU's caches are known; for
 * another feature set 32 MiB stands in (a quarter of a typical 128 MiB
 * server L3).
 *
 * Above it nt512 where 512-bit stores are free (as avx512 above), else nt:
 * one 64-byte streaming store per line instead of four 16-byte ones.  On
 * Xeon family 6 model 207 under KVM, hot and cold, nt512 measured 1.14-1.22x
 * glibc 2.36's own non-temporal loop at 256 MiB - 1 GiB, 1.65-2.06x its rep
 * movsb at 64 MiB, and nt took 1.01-1.13x nt512's time
 * (docs/performance-kernels.md, "nt and nt512").  With the prefetching
 * loops nt512 also ran 1.3x rep movsb's speed for hot repeated copies of
 * 2-4 MiB and 1.5-1.7x at 8-32 MiB, but the threshold stays where the
 * caches put it: a repeated copy does not show what its streaming stores
 * cost the next reader of the destination. */
#define AUTO_VECTOR_LIMIT (2 * KIB)
#define AUTO_ZMM_LIMIT (4 * KIB)
#define AUTO_NT_FALLBACK (32 * MIB)
#define AUTO_NT_L2_FACTOR 4

static int runs(const char *name, uint64_t f)
{
	const struct ucopy_kernel *k = ucopy_kernel_find(name);
	return k && ucopy_kernel_supported(k, f);
}

static size_t auto_nt_limit(uint64_t f)
{
	const struct ucopy_cpu *c = ucopy_cpu();
	size_t l = AUTO_NT_FALLBACK;

	if (c->features == f && c->l3) {
		l = c->l3 / 4;
		if (!strcmp(c->vendor, "GenuineIntel") && c->l2 &&
		    c->l2 * AUTO_NT_L2_FACTOR < l)
			l = c->l2 * AUTO_NT_L2_FACTOR;
	}
	if (l >= MIB)
		l -= l % MIB; /* readable in the text form */
	if (l < MIB)
		l = MIB; /* far above the vector range even on a tiny L3 */
	return l;
}

/* AVX-512 with AVX-VNNI: 512-bit stores without a frequency penalty. */
static int zmm_is_free(uint64_t f)
{
	return runs("avx512", f) && (f & UCOPY_F(AVX_VNNI));
}

static void auto_text(uint64_t f, char *buf, size_t len)
{
	const char *vec = zmm_is_free(f) ? "avx512"
			: runs("avx2", f) ? "avx2"
			: runs("sse2", f) ? "sse2" : "unrolled";
	const char *large = vec;
	size_t pos = 0;

	if ((f & UCOPY_F(ERMS)) && runs("movsb_safe", f))
		large = "movsb_safe";
	buf[0] = 0;
	if (strcmp(large, vec)) {
		put(buf, len, &pos, "%zuK:%s,",
		    (zmm_is_free(f) ? AUTO_ZMM_LIMIT : AUTO_VECTOR_LIMIT) / KIB, vec);
		vec = large;
	}
	if (runs("nt", f)) {
		put_size(buf, len, &pos, auto_nt_limit(f));
		put(buf, len, &pos, ":%s,%s", vec,
		    zmm_is_free(f) && runs("nt512", f) ? "nt512" : "nt");
	} else {
		put(buf, len, &pos, "%s", vec);
	}
}

static int from_text(struct ucopy_policy *p, const char *text,
		     const char *name, char *err, size_t errlen)
{
	struct ucopy_policy q;
	if (ucopy_policy_parse(&q, text, err, errlen))
		return -1;
	snprintf(q.name, sizeof q.name, "%s", name);
	lib_copy(p, &q, sizeof q);
	return 0;
}

int ucopy_policy_resolve(struct ucopy_policy *p, const char *spec,
			 uint64_t features, char *err, size_t errlen)
{
	if (err && errlen)
		err[0] = 0;
	if (!spec)
		return fail(err, errlen, "empty policy");
	const char *s = spec, *e = spec + strlen(spec);
	trim(&s, &e);
	size_t n = (size_t)(e - s);
	char word[32];
	if (n == 0)
		return fail(err, errlen, "empty policy");
	if (n >= sizeof word || memchr(s, ':', n) || memchr(s, ',', n))
		return ucopy_policy_parse(p, spec, err, errlen);
	lib_copy(word, s, n);
	word[n] = 0;

	if (!strcmp(word, "calibrated"))
		return ucopy_profile_policy(p, err, errlen);
	if (!strcmp(word, "auto")) {
		char text[128];
		auto_text(features, text, sizeof text);
		return from_text(p, text, "auto", err, errlen);
	}
	for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
		if (strcmp(word, named[i].name))
			continue;
		if (strcmp(named[i].arch, THIS_ARCH))
			return fail(err, errlen, "policy '%s' is for %s; this is %s",
				    word, named[i].arch, THIS_ARCH);
		return from_text(p, named[i].text(features), word, err, errlen);
	}
	if (ucopy_kernel_find(word))
		return from_text(p, word, "", err, errlen);
	return fail(err, errlen,
		    "unknown policy or kernel '%s' (policies: auto, calibrated, linux-4.19, "
		    "axboe-2018, linux-6.3, linux-6.4-rc1, linux-6.4, linux-6.6, "
		    "or policy text such as '64:word,movsb')",
		    quote(s, n).s);
}

/*=====   Fitting a policy to a CPU   =====*/

/* Nearest kernels first.  movsb_safe without its vector guard is movsb: a CPU
 * without AVX2 predates the parts with the Zen 3 cliff. */
static const char *const fallback[][5] = {
	{ "avx512", "avx2", "sse2", "unrolled", NULL },
	{ "avx2", "sse2", "unrolled", NULL },
	{ "sse2", "unrolled", NULL },
	{ "movsb_safe", "movsb", NULL },
	{ "nt512", "nt", "unrolled", NULL },
	{ "nt", "unrolled", NULL },
};

static int runnable(const struct ucopy_kernel *k, uint64_t f)
{
	return ucopy_kernel_supported(k, f) ||
	       (k->requires & ~REP_SPEED_BITS & ~f) == 0;
}

static const struct ucopy_kernel *replacement(const struct ucopy_kernel *k,
					      uint64_t f)
{
	for (size_t i = 0; i < sizeof fallback / sizeof fallback[0]; i++) {
		if (strcmp(fallback[i][0], k->name))
			continue;
		for (size_t j = 1; fallback[i][j]; j++) {
			const struct ucopy_kernel *r =
				ucopy_kernel_find(fallback[i][j]);
			if (r && runnable(r, f))
				return r;
		}
	}
	const char *last[] = { "unrolled", "word", "byte" };
	for (size_t j = 0; j < 3; j++) {
		const struct ucopy_kernel *r = ucopy_kernel_find(last[j]);
		if (r && runnable(r, f))
			return r;
	}
	return NULL;
}

int ucopy_policy_fit(struct ucopy_policy *p, uint64_t features, char *note,
		     size_t notelen)
{
	const struct ucopy_kernel *noted[UCOPY_MAX_RULES];
	unsigned nnoted = 0;
	size_t pos = 0;
	int changed = 0;

	if (note && notelen)
		note[0] = 0;
	else
		notelen = 0;
	if (!p)
		return 0;
	for (unsigned i = 0; i < p->nrules && i < UCOPY_MAX_RULES; i++) {
		const struct ucopy_kernel *k = p->rule[i].kernel, *r;
		if (!k || runnable(k, features) || !(r = replacement(k, features)))
			continue;
		p->rule[i].kernel = r;
		changed++;

		/* one note per replaced kernel, however many rules use it */
		unsigned j;
		for (j = 0; j < nnoted && noted[j] != k; j++)
			;
		if (j < nnoted)
			continue;
		noted[nnoted++] = k;
		put(note, notelen, &pos, "%s%s -> %s (CPU lacks ",
		    pos ? "; " : "", k->name, r->name);
		uint64_t lack = k->requires & ~features;
		const char *sep = "";
		for (unsigned b = 0; b < UCOPY_FEAT_COUNT; b++)
			if (lack >> b & 1) {
				put(note, notelen, &pos, "%s%s", sep,
				    ucopy_feature_name(b));
				sep = "+";
			}
		put(note, notelen, &pos, ")");
	}
	return changed;
}
