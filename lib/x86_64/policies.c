/*
 * x86_64/policies.c - the x86-64 policies: what Linux did for user copies
 * (the named policies), the library's own choice (auto), and the nearest
 * kernels when a CPU cannot run one.
 */
#include <string.h>

#include "named.h"
#include "x86_64.h"

#define KIB ((size_t)1 << 10)
#define MIB ((size_t)1 << 20)

/* rep movsq and rep movsb run on every x86-64: these bits only make them
 * fast, which is for a policy to weigh. */
const uint64_t ucopy_arch_speed_bits = UCOPY_F(ERMS) | UCOPY_F(FSRM) | UCOPY_F(FZRM) |
				       UCOPY_F(FSRS) | UCOPY_F(FSRC) | UCOPY_F(REP_GOOD);

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

const struct ucopy_named ucopy_arch_named[] = {
	UCOPY_NAMED_X86_64(UCOPY_NAMED_ROW)
	{ NULL, NULL },
};

/*=====   auto   =====
 * The measurements behind each threshold are in docs/performance.md,
 * "auto on x86-64".  Each row has one shape: a vector kernel, then rep
 * movsb, then streaming stores.  The rows written by hand (Zen 3, Intel
 * family 6) take the limits below; the default row's are derived from the
 * corpus (rows.c, docs/calibrate.md "The default row").
 *
 * Below 2 KiB a vector kernel: no startup cost (rep movsb's is tens of
 * cycles without FSRM) and overlapping head/tail stores for odd sizes; 2 KiB
 * is about where glibc starts rep movsb on FSRM CPUs (rep_movsb_threshold
 * 2112).  avx512 only where 512-bit stores cost no clock (AVX-512 with
 * AVX-VNNI, glibc 2.36's test): on Skylake-SP to Ice Lake a zmm instruction
 * lowers the core's frequency for about a millisecond.  There avx512 takes
 * the range to 4 KiB: further it wins hot but loses cold.
 *
 * From there rep movsb where ERMS makes it fast, only as movsb_safe, which
 * routes the (dst - src) mod 4096 = 1..63 distances around Zen 3's cliff;
 * without AVX2 there is no guarded rep movsb and the vector loop goes on,
 * as it does on a CPU whose row measured the vector loop ahead of rep movsb
 * all the way (Zen 3 itself).
 *
 * Non-temporal stores from a quarter of the L3 (glibc 2.38's
 * non_temporal_threshold), on Intel from four times the L2 if lower (the
 * server L3 is shared by dozens of cores: one core's share is about its
 * L2); 32 MiB for a feature set that is not the running CPU's.  nt512
 * where zmm stores are free: one 64-byte streaming store fills a
 * write-combining buffer where nt needs four. */
#define AUTO_VECTOR_LIMIT (2 * KIB)
#define AUTO_ZMM_LIMIT (4 * KIB)
#define AUTO_NT_FALLBACK (32 * MIB)
#define AUTO_NT_L2_FACTOR 4
#define AUTO_VEC_TO_STREAM SIZE_MAX

static const struct ucopy_default_limits hand_limits = {
	AUTO_VECTOR_LIMIT, AUTO_ZMM_LIMIT, 1,
};

/* Streaming stores from `quarters` quarters of the L3, on Intel from four
 * times the L2 if lower; AUTO_NT_FALLBACK for a feature set that is not
 * the running CPU's or an L3 not known.  (programs/core/default_row.c
 * states the same for the default row's derivation.) */
static size_t auto_nt_limit(const struct ucopy_cpu *c, uint64_t f, unsigned quarters)
{
	size_t l = AUTO_NT_FALLBACK;

	if (c->features == f && c->l3) {
		l = c->l3 / 4 * quarters;
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
	return ucopy_kernel_runs("avx512", f) && (f & UCOPY_F(AVX_VNNI));
}

/* auto's rows written by hand, one per microarchitecture measured before
 * the corpus (data/machines/) held its reports; a CPU the derived rows
 * (rows.c, `make rows`) hold takes its derived row instead.  A row is
 * chosen by the running CPU's vendor and family; auto for a feature set
 * that is not the running CPU's (--assume-features) takes the last, the
 * default.  Each row's measurements are in docs/performance-<cpu>.md; a
 * machine's reports in the corpus replace its row by a derived one. */
struct auto_row {
	struct ucopy_auto_row row;  /* keyed by family */
	const char *vec;        /* the vector kernel vec_limit is measured for */
	size_t vec_limit;       /* that kernel below this; 0: the limits';
				   AUTO_VEC_TO_STREAM: no rep movsb band */
};

static const struct auto_row rows[] = {
	/* Zen 3 (Zen 4's models take their derived row): avx2 is at or ahead
	 * of movsb_safe hot from 2 KiB to 2 MiB and ties it beyond and cold;
	 * glibc 2.36 stops its rep movsb at the L2's size on AMD
	 * (rep_movsb_stop_threshold).  Not movsb_coaligned for the co-aligned
	 * copies of 20-56 KiB, where avx2 falls a little behind glibc's rep
	 * movsb: with the first limit at 20K the fleetbench files' rare
	 * larger copies leave the fast entry, which cost bar 2's repeated
	 * regime more than the band gained (docs/performance-zen3.md, "The
	 * vector range" and "rep movsb for co-aligned copies"). */
	{ { "AuthenticAMD", 0x19, "AMD family 0x19 (Zen 3)",
	    "avx2 up to the streaming threshold, no rep movsb (avx2 at or ahead of it hot, "
	    "a tie cold, and rep movsb's aliasing cliff never met; docs/performance-zen3.md)" },
	  "avx2", AUTO_VEC_TO_STREAM },
	{ { "GenuineIntel", 6, "Intel family 6",
	    "avx512 to 4 KiB where zmm stores are free (beyond, it loses to rep movsb cold), "
	    "else avx2 to 2 KiB; streaming stores from 4x L2 "
	    "(docs/performance.md, \"auto on x86-64\")" },
	  NULL, 0 },
	{ { NULL, 0, "default", ucopy_derived_default_why }, NULL, 0 },
};

static const struct auto_row *auto_row(const struct ucopy_cpu *c, uint64_t f)
{
	return ucopy_auto_row_find(rows, sizeof rows / sizeof rows[0], sizeof rows[0],
				   c, f, c->family);
}

/* The derived row (rows.c) that holds the CPU, with its policy in *p, or
 * NULL.  Like the hand rows, none for a feature set that is not the CPU's
 * own (a mask's included: ucopy_cpu()->features is what the mask left).
 * The row holds for the machine as it was measured: where the features
 * leave one of its kernels unable to run, none either, and auto is what
 * the hand rows give for the features left. */
static const struct ucopy_derived_row *derived_row(const struct ucopy_cpu *c, uint64_t f,
						   struct ucopy_policy *p)
{
	if (c->features != f)
		return NULL;
	for (size_t i = 0; i < ucopy_derived_nrows; i++) {
		const struct ucopy_derived_row *r = &ucopy_derived_rows[i];
		int holds = 0;
		if (strcmp(c->vendor, r->row.vendor) || c->family != r->row.id)
			continue;
		for (unsigned j = 0; j < r->nranges && j < UCOPY_ROW_RANGES; j++)
			holds |= c->model >= r->models[j][0] && c->model <= r->models[j][1];
		if (!holds || ucopy_policy_parse(p, r->policy, NULL, 0))
			continue;
		for (unsigned j = 0; j < p->nrules; j++)
			holds &= ucopy_kernel_supported(p->rule[j].kernel, f);
		if (holds)
			return r;
	}
	return NULL;
}

const struct ucopy_auto_row *ucopy_arch_auto_row(const struct ucopy_cpu *c, uint64_t f)
{
	struct ucopy_policy p;
	const struct ucopy_derived_row *d = derived_row(c, f, &p);
	return d ? &d->row : &auto_row(c, f)->row;
}

/* A row's policy from its shape: the vector kernel the features allow to
 * the limit (the row's own where it measured that kernel, else lim's), then
 * movsb_safe where ERMS, then streaming stores from lim's quarters of the
 * L3. */
static void shape(const struct ucopy_cpu *c, uint64_t f, const struct auto_row *row,
		  const struct ucopy_default_limits *lim, char *buf, size_t len)
{
	const char *vec = zmm_is_free(f) ? "avx512"
			: ucopy_kernel_runs("avx2", f) ? "avx2"
			: ucopy_kernel_runs("sse2", f) ? "sse2" : "unrolled";
	const char *large = vec;
	size_t pos = 0;
	size_t limit = row && row->vec && !strcmp(vec, row->vec) ? row->vec_limit : 0;

	if (!limit)
		limit = zmm_is_free(f) ? lim->zmm : lim->vector;
	if ((f & UCOPY_F(ERMS)) && ucopy_kernel_runs("movsb_safe", f) && limit != AUTO_VEC_TO_STREAM)
		large = "movsb_safe";
	buf[0] = 0;
	if (strcmp(large, vec)) {
		char l[32];
		ucopy_size_format(limit, l, sizeof l);
		ucopy_put(buf, len, &pos, "%s:%s,", l, vec);
		vec = large;
	}
	if (lim->stream_quarters && ucopy_kernel_runs("nt", f)) {
		char nt[32];
		ucopy_size_format(auto_nt_limit(c, f, lim->stream_quarters), nt, sizeof nt);
		ucopy_put(buf, len, &pos, "%s", nt);
		ucopy_put(buf, len, &pos, ":%s,%s", vec,
		    zmm_is_free(f) && ucopy_kernel_runs("nt512", f) ? "nt512" : "nt");
	} else {
		ucopy_put(buf, len, &pos, "%s", vec);
	}
}

void ucopy_arch_default_row(const struct ucopy_cpu *c, uint64_t f,
			    const struct ucopy_default_limits *lim, char *buf, size_t len)
{
	shape(c, f, NULL, lim, buf, len);
}

void ucopy_arch_auto(const struct ucopy_cpu *c, uint64_t f, char *buf, size_t len)
{
	struct ucopy_policy p;
	if (derived_row(c, f, &p)) {
		ucopy_policy_format(&p, buf, len);
		return;
	}
	const struct auto_row *row = auto_row(c, f);
	shape(c, f, row, row->row.vendor ? &hand_limits : &ucopy_derived_default, buf, len);
}

/*=====   Fitting   =====*/

/* Nearest kernels first.  movsb_safe and movsb_coaligned without their
 * avx2 side are movsb_aligned: a CPU without AVX2 predates the parts with
 * the Zen 3 cliff.  (movsb_safe needs what movsb_coaligned needs, so it is
 * never the nearer one.) */
const char *const ucopy_arch_fallback[][UCOPY_FALLBACK_LEN] = {
	{ "avx512", "avx2", "sse2", "unrolled", NULL },
	{ "avx2", "sse2", "unrolled", NULL },
	{ "sse2", "unrolled", NULL },
	{ "movsb_safe", "movsb_aligned", "movsb", NULL },
	{ "movsb_coaligned", "movsb_aligned", "movsb", NULL },
	{ "movsb_aligned", "movsb", NULL },
	{ "nt512", "nt", "unrolled", NULL },
	{ "nt", "unrolled", NULL },
	{ NULL },
};

const char *const ucopy_arch_last_resort[] = { "unrolled", "word", "byte", NULL };
