/*
 * test_derive.c - the one derivation (programs/core/derive.c) on synthetic
 * measurements: one group per rule of calibration.h, each built so that it
 * fails when its rule is broken (a constant changed, a condition dropped).
 */
#include "cal_synth.h"

#include <stdio.h>
#include <string.h>

/* k at `size` in state s: `ns`, and an interval `spread` either side of it
 * (against a common reference: the derivation only divides them). */
static void at(struct calibration *cal, size_t size, enum cal_state s, const char *k,
	       double ns, double spread)
{
	struct cal_point *pt = calibration_point(cal, size);
	calibration_set(cal, pt, s, ucopy_kernel_find(k), ns, ns / 100 * (1 - spread),
			ns / 100 * (1 + spread));
}

static struct ucopy_policy inherit;

/* Where mixed sizes were not measured, derived() takes them as the hot
 * times (calibrate measures both), unless hot_only. */
static int hot_only;

/* Derives from cal, leaving `def` (policy text; NULL: no default policy),
 * into text. */
static void derived(struct calibration *cal, const char *def, char *text, size_t len)
{
	for (size_t i = 0; i < cal->npoints && !hot_only; i++) {
		struct cal_point *pt = &cal->point[i];
		for (size_t k = 0; k < CAL_MAX_KERNELS; k++)
			if (isnan(pt->ns[CAL_MIXED][k])) {
				pt->ns[CAL_MIXED][k] = pt->ns[CAL_HOT][k];
				pt->lo[CAL_MIXED][k] = pt->lo[CAL_HOT][k];
				pt->hi[CAL_MIXED][k] = pt->hi[CAL_HOT][k];
			}
	}
	cal->inherit = NULL;
	if (def && !parse(&inherit, def))
		cal->inherit = &inherit;
	calibration_derive(cal);
	ucopy_policy_format(&cal->policy, text, len);
}

static const size_t doubling[] = { 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384,
				   32768, 65536 };
#define NDOUBLING (sizeof doubling / sizeof doubling[0])

/* word at 100 ns at every size of doubling[] up to `top`, k at 100 * r(size)
 * where r gives a positive ratio; spread for both. */
static void against_word(struct calibration *cal, size_t top, const char *k,
			 double (*r)(size_t), double spread)
{
	for (size_t i = 0; i < NDOUBLING && doubling[i] <= top; i++) {
		at(cal, doubling[i], CAL_HOT, "word", 100, spread);
		double q = r(doubling[i]);
		if (q > 0)
			at(cal, doubling[i], CAL_HOT, k, 100 * q, spread);
	}
}

static double ratio_arg;
/* ratio_arg from 256 bytes on, slower below. */
static double from256(size_t n)
{
	return n >= 256 ? ratio_arg : 1.2;
}

static void test_win(void)
{
	struct calibration cal;
	char text[256];

	static const struct { double ratio, spread; const char *want, *what; } c[] = {
		{ 0.975, 0.002, "word", "2.5% faster: a tie" },
		{ 0.95, 0.002, "136:word," K_VEC, "5% faster, tight" },
		{ 0.95, 0.02, "word", "5% faster, but the interval reaches 1%" },
		{ 0.995, 0.0005, "word", "0.5% faster, tight: a tie" },
	};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		calibration_init(&cal);
		ratio_arg = c[i].ratio;
		against_word(&cal, 4096, K_VEC, from256, c[i].spread);
		derived(&cal, "word", text, sizeof text);
		CHECK(!strcmp(text, c[i].want), "%s: '%s', want '%s'", c[i].what, text, c[i].want);
		calibration_free(&cal);
	}
	check_group("derive: a kernel leaves the default only for a win of 3% that holds at the interval");
}

/* K_VEC 20% faster from 256 bytes except at 512 (gap512 there). */
static double gap512;
static double with_gap(size_t n)
{
	return n < 256 ? 1.2 : n == 512 ? gap512 : 0.8;
}

static void test_gaps(void)
{
	struct calibration cal;
	char text[256];

	calibration_init(&cal);
	gap512 = 1.0;   /* a tie at 512 */
	against_word(&cal, 8192, K_VEC, with_gap, 0.005);
	derived(&cal, "word", text, sizeof text);
	CHECK(!strcmp(text, "136:word," K_VEC), "a tie between two bands: '%s'", text);
	calibration_free(&cal);

	calibration_init(&cal);
	gap512 = 1.05;  /* a loss at 512 */
	against_word(&cal, 8192, K_VEC, with_gap, 0.005);
	derived(&cal, "word", text, sizeof text);
	CHECK(!strcmp(text, "136:word,264:" K_VEC ",520:word," K_VEC),
	      "a loss between two bands: '%s'", text);
	calibration_free(&cal);
	check_group("derive: bands of one kernel merge across sizes where it ties");
}

/* K_VEC at ratio_arg at the sizes in [narrow_lo, narrow_hi], 1.2 elsewhere. */
static size_t narrow_lo, narrow_hi;
static double narrow_band(size_t n)
{
	return n >= narrow_lo && n <= narrow_hi ? ratio_arg : 1.2;
}

static void test_narrow(void)
{
	struct calibration cal;
	char text[256];
	static const struct { size_t lo, hi; double ratio; const char *want, *what; } c[] = {
		{ 1024, 1024, 0.92, "word", "one size, 8%" },
		{ 1024, 1024, 0.88, "520:word,1088:" K_VEC ",word", "one size, 12%" },
		{ 1024, 2048, 0.92, "520:word,2112:" K_VEC ",word", "a factor of 2, 8%" },
	};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		calibration_init(&cal);
		narrow_lo = c[i].lo;
		narrow_hi = c[i].hi;
		ratio_arg = c[i].ratio;
		against_word(&cal, 8192, K_VEC, narrow_band, 0.002);
		derived(&cal, "word", text, sizeof text);
		CHECK(!strcmp(text, c[i].want), "%s: '%s', want '%s'", c[i].what, text, c[i].want);
		calibration_free(&cal);
	}
	check_group("derive: a band narrower than a factor of 2 needs a 10% win");
}

/* Three bands of three kernels, each two sizes wide, the default (word)
 * between them: 7 rules. */
static void three_bands(struct calibration *cal, double a, double b, double c)
{
	static const char *const k[] = { K_VEC, K_VEC2, K_REP };
	const double r[] = { a, b, c };
	for (size_t i = 0; i < NDOUBLING; i++) {
		size_t n = doubling[i];
		at(cal, n, CAL_HOT, "word", 100, 0.002);
		for (size_t j = 0; j < 3; j++) {
			int in = n >= (size_t)128 << (3 * j) && n <= (size_t)256 << (3 * j);
			at(cal, n, CAL_HOT, k[j], in ? 100 * r[j] : 130, 0.002);
		}
	}
}

static void test_rules(void)
{
	struct calibration cal;
	char text[256];

	calibration_init(&cal);
	three_bands(&cal, 0.955, 0.94, 0.8);   /* gains 4.7%, 6.4%, 25% */
	derived(&cal, "word", text, sizeof text);
	CHECK(cal.policy.nrules == 5 && ucopy_policy_kernel(&cal.policy, 128) ==
	      ucopy_kernel_find("word"), "the 4.7%% band given up, the 6.4%% kept: '%s'", text);
	calibration_free(&cal);

	calibration_init(&cal);
	three_bands(&cal, 0.955, 0.955, 0.8);
	derived(&cal, "word", text, sizeof text);
	CHECK(cal.policy.nrules == 3 && ucopy_policy_kernel(&cal.policy, 8192) ==
	      ucopy_kernel_find(K_REP), "two 4.7%% bands given up: '%s'", text);
	calibration_free(&cal);

	/* Equal gains: the smaller sizes' band goes first. */
	calibration_init(&cal);
	three_bands(&cal, 0.955, 0.955, 0.955);
	derived(&cal, "word", text, sizeof text);
	CHECK(cal.policy.nrules == 3 && ucopy_policy_kernel(&cal.policy, 8192) ==
	      ucopy_kernel_find(K_REP), "equal gains, the largest band kept: '%s'", text);
	calibration_free(&cal);

	calibration_init(&cal);
	three_bands(&cal, 0.9, 0.9, 0.9);
	derived(&cal, "word", text, sizeof text);
	CHECK(cal.policy.nrules == 7, "three 10%% bands kept: '%s'", text);
	calibration_free(&cal);
	check_group("derive: at most 4 rules unless each extra rule pays 5%");
}

/* Sizes 64..8192; word 100 ns, K_REP 60 (with a cliff), K_SAFE 70. */
static void guarded(struct calibration *cal)
{
	for (size_t i = 0; i < NDOUBLING && doubling[i] <= 8192; i++) {
		at(cal, doubling[i], CAL_HOT, "word", 100, 0.002);
		at(cal, doubling[i], CAL_HOT, K_REP, 60, 0.002);
		at(cal, doubling[i], CAL_HOT, K_SAFE, 70, 0.002);
	}
	calibration_add_cliff(cal, ucopy_kernel_find(K_REP), 64, 25, 0, 1);
	calibration_add_cliff(cal, ucopy_kernel_find(K_REP), 8192, 25, 0, 1);
}

static void test_cliffs(void)
{
	struct calibration cal;
	char text[256];
	const struct ucopy_kernel *word = ucopy_kernel_find("word"),
				  *safe = ucopy_kernel_find(K_SAFE);

	calibration_init(&cal);
	guarded(&cal);
	derived(&cal, "word", text, sizeof text);
	CHECK(!strcmp(text, K_SAFE), "a cliff: the guarded variant: '%s'", text);
	calibration_free(&cal);

	/* The guarded variant's own cell at 4096 is a cliff; probes at
	 * 1024 and 8192 are clean: 2048-4096 lie next to it. */
	calibration_init(&cal);
	guarded(&cal);
	int si = calibration_kernel_index(safe);
	struct cal_probe *p1 = calibration_probe(&cal, 1024, 0, 1),
			 *p2 = calibration_probe(&cal, 8192, 0, 1);
	if (si >= 0 && p1 && p2)
		p1->ns[si] = p2->ns[si] = 70;
	calibration_add_cliff(&cal, safe, 4096, 1.8, 0, 1);
	derived(&cal, "word", text, sizeof text);
	CHECK(ucopy_policy_kernel(&cal.policy, 1024) == safe &&
	      ucopy_policy_kernel(&cal.policy, 2048) == word &&
	      ucopy_policy_kernel(&cal.policy, 4096) == word &&
	      ucopy_policy_kernel(&cal.policy, 8192) == safe,
	      "the guarded variant's own cliff: '%s'", text);
	calibration_free(&cal);

	/* Without a default policy, the default is the kernel that is
	 * closest to the fastest clean one everywhere: not K_REP, the
	 * fastest, whose cliff leaves it no size. */
	calibration_init(&cal);
	guarded(&cal);
	derived(&cal, NULL, text, sizeof text);
	CHECK(!strcmp(text, K_SAFE), "no default policy: '%s'", text);
	calibration_free(&cal);

	/* A cliff that pays: K_REP at half word's time with a 1.6x cell
	 * (worst 0.8 of word's) is taken; at 0.7 (worst 1.12) it is not. */
	calibration_init(&cal);
	for (size_t i = 0; i < NDOUBLING && doubling[i] <= 8192; i++) {
		at(&cal, doubling[i], CAL_HOT, "word", 100, 0.002);
		at(&cal, doubling[i], CAL_HOT, K_REP, 50, 0.002);
	}
	calibration_add_cliff(&cal, ucopy_kernel_find(K_REP), 64, 1.6, 0, 1);
	calibration_add_cliff(&cal, ucopy_kernel_find(K_REP), 8192, 1.6, 0, 1);
	derived(&cal, "word", text, sizeof text);
	CHECK(!strcmp(text, K_REP), "a 1.6x cliff on a kernel twice as fast: '%s'", text);
	for (size_t i = 0; i < NDOUBLING && doubling[i] <= 8192; i++) {
		at(&cal, doubling[i], CAL_HOT, K_REP, 70, 0.002);
		at(&cal, doubling[i], CAL_MIXED, K_REP, 70, 0.002);
	}
	derived(&cal, "word", text, sizeof text);
	CHECK(!strcmp(text, "word"), "a 1.6x cliff on a kernel 1.4x as fast: '%s'", text);
	calibration_free(&cal);

	/* The default itself has the cliff: it stays unless a clean kernel
	 * wins against it (K_SAFE is 1.17x its time). */
	calibration_init(&cal);
	guarded(&cal);
	derived(&cal, K_REP, text, sizeof text);
	CHECK(!strcmp(text, K_REP), "a default with a cliff, nothing faster: '%s'", text);
	for (size_t i = 0; i < NDOUBLING && doubling[i] <= 8192; i++) {
		at(&cal, doubling[i], CAL_HOT, K_SAFE, 50, 0.002);
		at(&cal, doubling[i], CAL_MIXED, K_SAFE, 50, 0.002);
	}
	derived(&cal, K_REP, text, sizeof text);
	CHECK(!strcmp(text, K_SAFE), "a default with a cliff, K_SAFE faster: '%s'",
	      text);
	calibration_free(&cal);
	check_group("derive: a kernel with a cliff only as its guarded variant, judged on its own cells");
}

static const size_t large[] = { 256 << 10, 512 << 10, 1 << 20, 2 << 20, 4 << 20, 8 << 20 };
#define NLARGE (sizeof large / sizeof large[0])

/* word 100 ns hot and cold; k at hot * 100 and cold * 100. */
static void large_copies(struct calibration *cal, const char *k, double hot, double cold)
{
	for (size_t i = 0; i < NLARGE; i++) {
		at(cal, large[i], CAL_HOT, "word", 100, 0.002);
		at(cal, large[i], CAL_COLD, "word", 100, 0.01);
		at(cal, large[i], CAL_HOT, k, 100 * hot, 0.002);
		at(cal, large[i], CAL_COLD, k, 100 * cold, 0.01);
	}
	cal->l2 = 1 << 20;
}

static void test_cold(void)
{
	struct calibration cal;
	char text[256];

	hot_only = 1;   /* no mixed sizes measured this large */
	calibration_init(&cal);
	large_copies(&cal, K_VEC, 0.85, 1.1);
	derived(&cal, "word", text, sizeof text);
	CHECK(!strcmp(text, "1025K:" K_VEC ",word"), "wins hot, loses cold: '%s'", text);
	calibration_free(&cal);

	calibration_init(&cal);
	large_copies(&cal, K_REP, 1.0, 0.67);
	derived(&cal, "word", text, sizeof text);
	CHECK(!strcmp(text, "1025K:word," K_REP), "ties hot, wins cold: '%s'", text);
	cal.l2 = 0;
	derived(&cal, "word", text, sizeof text);
	CHECK(!strcmp(text, "word"), "the same without an L2 (hot only): '%s'", text);
	calibration_free(&cal);

	calibration_init(&cal);
	large_copies(&cal, K_REP, 1.1, 0.67);
	derived(&cal, "word", text, sizeof text);
	CHECK(!strcmp(text, "word"), "loses hot, wins cold: '%s'", text);
	calibration_free(&cal);

	/* Two kernels win beyond the L2: the one faster cold. */
	calibration_init(&cal);
	large_copies(&cal, K_VEC, 0.8, 0.9);
	for (size_t i = 0; i < NLARGE; i++) {
		at(&cal, large[i], CAL_HOT, K_REP, 90, 0.002);
		at(&cal, large[i], CAL_COLD, K_REP, 60, 0.01);
	}
	derived(&cal, "word", text, sizeof text);
	CHECK(ucopy_policy_kernel(&cal.policy, 4 << 20) == ucopy_kernel_find(K_REP),
	      "ranked cold beyond the L2: '%s'", text);
	calibration_free(&cal);

	/* A gap beyond the L2 where the kernel ties hot but loses cold is
	 * not filled: K_REP wins cold at 2 and 8 MiB, loses cold at 4. */
	calibration_init(&cal);
	large_copies(&cal, K_REP, 1.0, 0.67);
	at(&cal, 4 << 20, CAL_COLD, K_REP, 110, 0.01);
	derived(&cal, "word", text, sizeof text);
	CHECK(ucopy_policy_kernel(&cal.policy, 4 << 20) == ucopy_kernel_find("word") &&
	      ucopy_policy_kernel(&cal.policy, 8 << 20) == ucopy_kernel_find(K_REP),
	      "a cold loss between two bands: '%s'", text);
	calibration_free(&cal);
	hot_only = 0;
	check_group("derive: beyond the L2, judged cold as well as hot");
}

static void test_mixed(void)
{
	struct calibration cal;
	char text[256];

	calibration_init(&cal);
	ratio_arg = 0.8;
	against_word(&cal, 4096, K_VEC, from256, 0.002);
	derived(&cal, "word", text, sizeof text);
	CHECK(!strcmp(text, "136:word," K_VEC), "mixed sizes as hot: '%s'", text);
	at(&cal, 1024, CAL_MIXED, "word", 100, 0.002);
	at(&cal, 1024, CAL_MIXED, K_VEC, 110, 0.002);
	derived(&cal, "word", text, sizeof text);
	CHECK(ucopy_policy_kernel(&cal.policy, 1024) == ucopy_kernel_find("word"),
	      "loses with mixed sizes at 1024: '%s'", text);
	/* 1% behind, but the interval's near end is not: no sure loss. */
	at(&cal, 1024, CAL_MIXED, "word", 100, 0.02);
	at(&cal, 1024, CAL_MIXED, K_VEC, 101, 0.02);
	derived(&cal, "word", text, sizeof text);
	CHECK(ucopy_policy_kernel(&cal.policy, 1024) == ucopy_kernel_find(K_VEC),
	      "1%% behind with mixed sizes, within the interval: '%s'", text);
	calibration_free(&cal);
	check_group("derive: a kernel that loses with mixed sizes is not taken there");
}

/* K_VEC 20% faster hot up to 128 bytes, slower above. */
static double short_win(size_t n)
{
	return n <= 128 ? 0.8 : 1.2;
}

static void test_short(void)
{
	struct calibration cal;
	char text[256];

	calibration_init(&cal);
	hot_only = 1;
	against_word(&cal, 4096, K_VEC, short_win, 0.002);
	derived(&cal, "word", text, sizeof text);
	CHECK(!strcmp(text, "word"), "hot only: '%s'", text);
	for (size_t i = 0; i < NDOUBLING && doubling[i] <= 4096; i++) {
		at(&cal, doubling[i], CAL_MIXED, "word", 100, 0.002);
		at(&cal, doubling[i], CAL_MIXED, K_VEC, 100 * short_win(doubling[i]), 0.002);
	}
	derived(&cal, "word", text, sizeof text);
	CHECK(!strcmp(text, "136:" K_VEC ",word"), "with mixed sizes: '%s'", text);
	at(&cal, 64, CAL_MIXED, K_VEC, 101, 0.002);
	derived(&cal, "word", text, sizeof text);
	CHECK(!strcmp(text, "65:word,136:" K_VEC ",word"), "a tie with mixed sizes at 64: '%s'",
	      text);
	hot_only = 0;
	calibration_free(&cal);
	/* Below it a band verified with mixed sizes (K_VEC2 at 64-128), above
	 * it one that is not (K_VEC): the threshold between them is where the
	 * measurements put it, just above 128. */
	calibration_init(&cal);
	hot_only = 1;
	for (size_t i = 0; i < NDOUBLING && doubling[i] <= 4096; i++) {
		size_t n = doubling[i];
		at(&cal, n, CAL_HOT, "word", 100, 0.002);
		at(&cal, n, CAL_HOT, K_VEC2, n <= 128 ? 80 : 120, 0.002);
		at(&cal, n, CAL_HOT, K_VEC, n <= 128 ? 120 : 80, 0.002);
		if (n <= 128) {
			at(&cal, n, CAL_MIXED, "word", 100, 0.002);
			at(&cal, n, CAL_MIXED, K_VEC2, 80, 0.002);
		}
	}
	derived(&cal, "word", text, sizeof text);
	CHECK(!strcmp(text, "136:" K_VEC2 "," K_VEC), "after a band verified short: '%s'", text);
	hot_only = 0;
	calibration_free(&cal);

	/* A band that starts at 256 with nothing measured with mixed sizes
	 * below: its threshold is 256, not just above 128. */
	calibration_init(&cal);
	hot_only = 1;
	ratio_arg = 0.8;
	against_word(&cal, 4096, K_VEC, from256, 0.002);
	derived(&cal, "word", text, sizeof text);
	CHECK(!strcmp(text, "256:word," K_VEC), "no threshold below 256: '%s'", text);
	hot_only = 0;
	calibration_free(&cal);
	check_group("derive: below 256 bytes a kernel must win with mixed sizes too");
}

/* Two kernels that both win by 20% from 256 bytes on, the faster of the
 * two changing from size to size: one band, not an alternation. */
static void test_fewest(void)
{
	struct calibration cal;
	char text[256];

	calibration_init(&cal);
	for (size_t i = 0; i < NDOUBLING; i++) {
		size_t n = doubling[i];
		int odd = i % 2;
		at(&cal, n, CAL_HOT, "word", 100, 0.002);
		at(&cal, n, CAL_HOT, K_VEC, n < 256 ? 120 : odd ? 78 : 80, 0.002);
		at(&cal, n, CAL_HOT, K_VEC2, n < 256 ? 120 : odd ? 80 : 78, 0.002);
	}
	derived(&cal, "word", text, sizeof text);
	CHECK(cal.policy.nrules == 2 && ucopy_policy_kernel(&cal.policy, 128) ==
	      ucopy_kernel_find("word"), "one band: '%s'", text);
	calibration_free(&cal);
	check_group("derive: where two kernels win, one band, not an alternation");
}

/* The same noisy measurements, entered in two orders, derived twice. */
static double noisy(size_t k, size_t n)
{
	unsigned h = (unsigned)(n * 2654435761u + k * 40503u);
	double wobble = 1 + (double)(h % 200) / 1000;   /* 0-20% */
	return (k == 0 ? 1 + 0.1 * (double)n : 20 + 0.02 * (double)n) * wobble;
}

static void test_deterministic(void)
{
	static const char *const names[] = { "word", K_REP, K_VEC };
	struct calibration a, b;
	char ta[256], tb[256], tc[256];

	calibration_init(&a);
	calibration_init(&b);
	fill(&a, names, 3, noisy, doubling, NDOUBLING);
	for (size_t i = NDOUBLING; i-- > 0;)
		fill(&b, names, 3, noisy, &doubling[i], 1);
	derived(&a, "word", ta, sizeof ta);
	derived(&b, "word", tb, sizeof tb);
	derived(&a, "word", tc, sizeof tc);
	CHECK(!strcmp(ta, tb) && !strcmp(ta, tc), "'%s', '%s', '%s'", ta, tb, tc);
	CHECK(a.ncross == b.ncross && !memcmp(a.cross, b.cross, sizeof a.cross[0] * a.ncross),
	      "the crossovers differ");
	calibration_free(&a);
	calibration_free(&b);
	check_group("derive: the same measurements give the same policy");
}

static const char *const two[] = { "word", K_REP };

/* word: 1 ns + 0.1 ns/byte; movsb: 20 ns + 0.02 ns/byte: they cross at
 * 237.5 bytes. */
static double crossing(size_t k, size_t n)
{
	return k == 0 ? 1 + 0.1 * (double)n : 20 + 0.02 * (double)n;
}

/* As crossing(), but at 64 bytes movsb looks 30% faster: one noisy point
 * (test_derive() gives it a wide interval). */
static double blip(size_t k, size_t n)
{
	if (n == 64)
		return k == 0 ? 13 : 10;
	return crossing(k, n);
}

static void test_derive(void)
{
	static const size_t sizes[] = { 8, 16, 32, 64, 128, 256, 512, 1024, 4096 };
	const size_t nsz = sizeof sizes / sizeof sizes[0];
	struct calibration cal;
	char text[256];

	calibration_init(&cal);
	fill(&cal, two, 2, crossing, sizes, nsz);
	calibration_derive(&cal);
	ucopy_policy_format(&cal.policy, text, sizeof text);
	/* movsb wins from 256 on, word up to 128: the threshold just above
	 * 128, not at 256 (word was never measured to win past 128). */
	CHECK(!strcmp(text, "136:word," K_REP), "crossing: '%s'", text);
	CHECK(cal.ncross == 1 && cal.cross[0].from == ucopy_kernel_find("word") &&
	      cal.cross[0].to == ucopy_kernel_find(K_REP), "one crossover");
	calibration_free(&cal);

	/* One point where the other kernel wins is noise, not a class. */
	calibration_init(&cal);
	fill(&cal, two, 2, blip, sizes, nsz);
	for (size_t k = 0; k < 2; k++)
		calibration_set(&cal, calibration_point(&cal, 64), CAL_HOT,
				ucopy_kernel_find(two[k]), blip(k, 64), blip(k, 64) / 10 * 0.7,
				blip(k, 64) / 10 * 1.3);
	calibration_derive(&cal);
	ucopy_policy_format(&cal.policy, text, sizeof text);
	CHECK(!strcmp(text, "136:word," K_REP), "blip: '%s'", text);
	calibration_free(&cal);

	/* A distance cliff in movsb from 256 bytes on: the guarded variant
	 * takes its place where it wins.  At 256 it is 4.6% faster than word,
	 * but its interval reaches 2.7%: a tie, and word stays. */
	calibration_init(&cal);
	static const char *const three[] = { "word", K_REP, K_SAFE };
	fill(&cal, three, 2, crossing, sizes, nsz);
	for (size_t i = 0; i < nsz; i++) {
		struct cal_point *pt = calibration_point(&cal, sizes[i]);
		double t = crossing(1, sizes[i]) * 1.01, best = fmin(crossing(0, sizes[i]),
								 crossing(1, sizes[i]));
		calibration_set(&cal, pt, CAL_HOT, ucopy_kernel_find(K_SAFE), t,
				t / best * 0.99, t / best * 1.01);
	}
	calibration_add_cliff(&cal, ucopy_kernel_find(K_REP), 256, 25.0, 0, 1);
	calibration_add_cliff(&cal, ucopy_kernel_find(K_REP), 4096, 24.0, 0, 1);
	calibration_derive(&cal);
	ucopy_policy_format(&cal.policy, text, sizeof text);
	CHECK(!strcmp(text, "264:word," K_SAFE), "cliff: '%s'", text);
	calibration_free(&cal);

	/* Indistinguishable kernels: no switch at all. */
	calibration_init(&cal);
	for (size_t i = 0; i < nsz; i++) {
		struct cal_point *pt = calibration_point(&cal, sizes[i]);
		double a = 10 + (double)(i % 2), b = 10 + (double)((i + 1) % 2);
		calibration_set(&cal, pt, CAL_HOT, ucopy_kernel_find(K_VEC), a, 0.8, 1.25);
		calibration_set(&cal, pt, CAL_HOT, ucopy_kernel_find(K_VEC2), b, 0.8, 1.25);
	}
	calibration_derive(&cal);
	CHECK(cal.policy.nrules == 1, "noise made %u rules", cal.policy.nrules);
	calibration_free(&cal);
	check_group("derive: picks the fastest clean kernel per class");
}

/* Three kernels, each fastest in one range: word to 16 KiB, movsb from
 * 17 to 28 KiB (a kernel that wins only between two sweep sizes), avx2
 * above.  Sweep sizes 16K and 32K alone miss movsb; the refine sizes in
 * between find it. */
static double three_ranges(size_t k, size_t n)
{
	double base = (double)n;
	if (k == 0)
		return n <= 16384 ? base : 2 * base;
	if (k == 1)
		return n > 16384 && n < 28672 ? 0.5 * base : 1.5 * base;
	return n >= 28672 ? 0.6 * base : 1.8 * base;
}


static void test_thresholds(void)
{
	static const char *const names[] = { "word", K_REP, K_VEC };
	static const size_t sweep[] = { 4096, 8192, 16384, 32768, 65536 };
	static const size_t refined[] = { 4096, 8192, 16384, 19456, 23552, 27648, 32768, 65536 };
	struct calibration cal;
	char text[256];

	/* No rule reaches past the last size its kernel won at, nor into the
	 * first size the next kernel won at. */
	calibration_init(&cal);
	fill(&cal, names, 3, three_ranges, sweep, sizeof sweep / sizeof sweep[0]);
	calibration_derive(&cal);
	ucopy_policy_format(&cal.policy, text, sizeof text);
	CHECK(!strcmp(text, "17K:word," K_VEC), "sweep only: '%s'", text);
	calibration_free(&cal);
	calibration_init(&cal);
	fill(&cal, names, 3, three_ranges, refined, sizeof refined / sizeof refined[0]);
	calibration_derive(&cal);
	ucopy_policy_format(&cal.policy, text, sizeof text);
	CHECK(!strcmp(text, "17K:word,28K:" K_REP "," K_VEC), "refined: '%s'", text);
	for (unsigned i = 0; i < cal.ncross; i++) {
		const struct cal_cross *x = &cal.cross[i];
		CHECK(x->below < x->limit && x->limit <= x->at, "crossover %u at %zu, between %zu and %zu",
		      i, x->limit, x->below, x->at);
		CHECK(ucopy_policy_kernel(&cal.policy, x->below) == x->from &&
		      ucopy_policy_kernel(&cal.policy, x->at) == x->to,
		      "crossover %u: %s at %zu, %s at %zu", i, x->from->name, x->below,
		      x->to->name, x->at);
		CHECK(x->nev >= 2, "crossover %u has %u evidence", i, x->nev);
	}
	calibration_free(&cal);

	/* Above the largest measured size, the default's thresholds that lie
	 * there. */
	static const size_t small[] = { 8, 16, 32, 64, 128, 256, 512, 1024, 4096 };
	struct ucopy_policy a;
	calibration_init(&cal);
	fill(&cal, two, 2, crossing, small, sizeof small / sizeof small[0]);
	cal.keep_tail = 1;
	if (!parse(&a, "8K:" K_REP ",word")) {
		cal.inherit = &a;
		calibration_derive(&cal);
		ucopy_policy_format(&cal.policy, text, sizeof text);
		CHECK(!strcmp(text, "136:word,8K:" K_REP ",word"), "inherited above: '%s'", text);
		CHECK(cal.ncross == 2 && cal.cross[1].inherited && !cal.cross[0].inherited,
		      "inherited marks");
		/* Without keep_tail (a default no measurement backs above the
		 * sizes measured), the last pick goes on. */
		cal.keep_tail = 0;
		calibration_derive(&cal);
		ucopy_policy_format(&cal.policy, text, sizeof text);
		CHECK(!strcmp(text, "136:word," K_REP), "no tail: '%s'", text);
		cal.keep_tail = 1;
	}
	if (!parse(&a, "2K:" K_REP ",byte")) {
		cal.inherit = &a;
		calibration_derive(&cal);
		ucopy_policy_format(&cal.policy, text, sizeof text);
		/* byte is in force from 2K, within the sizes measured,
		 * where it was never timed: the measured pick goes on. */
		CHECK(!strcmp(text, "136:word," K_REP), "inherited within: '%s'", text);
	}
	/* Kernels that tie: auto's wins. */
	if (!parse(&a, K_REP)) {
		calibration_free(&cal);
		calibration_init(&cal);
		for (size_t i = 0; i < sizeof small / sizeof small[0]; i++) {
			struct cal_point *pt = calibration_point(&cal, small[i]);
			calibration_set(&cal, pt, CAL_HOT, ucopy_kernel_find("word"), 10, 1, 1.02);
			calibration_set(&cal, pt, CAL_HOT, ucopy_kernel_find(K_REP), 10.1, 0.99, 1.02);
		}
		cal.inherit = &a;
		calibration_derive(&cal);
		ucopy_policy_format(&cal.policy, text, sizeof text);
		CHECK(!strcmp(text, K_REP), "tie: '%s'", text);
	}
	calibration_free(&cal);
	check_group("derive: thresholds lie between measured sizes; the default above them");
}


int main(void)
{
	test_derive();
	test_thresholds();
	test_win();
	test_gaps();
	test_narrow();
	test_rules();
	test_cliffs();
	test_cold();
	test_mixed();
	test_short();
	test_fewest();
	test_deterministic();
	return check_exit();
}
