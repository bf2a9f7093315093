/*
 * test_text.c - the one text form of sizes and feature sets (lib/text.c):
 * what the policy grammar, the profile reader and the command's options
 * all parse.
 */
#include "check.h"
#include "internal.h"
#include "ucopy.h"

#include <string.h>

static void test_sizes(void)
{
	static const struct { const char *s; size_t v; } ok[] = {
		{ "0", 0 }, { "1", 1 }, { "4096", 4096 }, { "4K", 4096 }, { "4k", 4096 },
		{ "2M", 2u << 20 }, { "2m", 2u << 20 }, { "1G", (size_t)1 << 30 },
		{ "1g", (size_t)1 << 30 }, { "007", 7 }, { "18446744073709551615", SIZE_MAX },
		{ "17179869183G", (size_t)17179869183 << 30 },
	};
	for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
		size_t v = 1234;
		char err[128] = "";
		int rc = ucopy_size_parse(ok[i].s, &v, err, sizeof err);
		CHECK(rc == 0 && v == ok[i].v, "'%s': rc %d, %zu (want %zu) %s", ok[i].s, rc, v,
		      ok[i].v, err);
	}
	static const char *const bad[] = { "", "K", "4KB", "4 K", " 4", "-5", "1.5K", "4T",
					   "0x10", "18446744073709551616", "17179869184G", "99999999999999999999M" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		size_t v = 1234;
		char err[128] = "";
		int rc = ucopy_size_parse(bad[i], &v, err, sizeof err);
		CHECK(rc == -1 && v == 1234, "'%s' accepted as %zu", bad[i], v);
		CHECK(strstr(err, bad[i]) != NULL, "'%s': the message does not name it: %s", bad[i], err);
	}
	size_t v;
	char err[128];
	CHECK(ucopy_size_parse("99999999999999999999", &v, err, sizeof err) == -1 &&
	      strstr(err, "too large"), "an overflow says too large: %s", err);
	CHECK(ucopy_size_parse(NULL, &v, err, sizeof err) == -1, "NULL accepted");

	/* format, then parse: the same value, the largest exact unit */
	static const struct { size_t v; const char *s; } fmt[] = {
		{ 0, "0" }, { 1, "1" }, { 1000, "1000" }, { 1024, "1K" }, { 1536, "1536" },
		{ 3 << 20, "3M" }, { (size_t)5 << 30, "5G" }, { SIZE_MAX, "18446744073709551615" },
	};
	for (size_t i = 0; i < sizeof fmt / sizeof *fmt; i++) {
		char buf[32];
		size_t n = ucopy_size_format(fmt[i].v, buf, sizeof buf);
		CHECK(!strcmp(buf, fmt[i].s) && n == strlen(buf), "%zu formats as '%s' (want '%s')",
		      fmt[i].v, buf, fmt[i].s);
		CHECK(ucopy_size_parse(buf, &v, NULL, 0) == 0 && v == fmt[i].v, "'%s' reads back as %zu",
		      buf, v);
	}
	char small[3];
	CHECK(ucopy_size_format(4096 * 3, small, sizeof small) == 3 && !strcmp(small, "12"),
	      "a short buffer: '%s'", small);
	check_group("text: sizes parse and format the one way (K/M/G, either case)");
}

static void test_features(void)
{
	uint64_t named = 0;
	for (unsigned b = 0; b < UCOPY_FEAT_COUNT; b++)
		if (ucopy_feature_name(b))
			named |= UINT64_C(1) << b;
	uint64_t sets[] = { 0, named & UCOPY_F(ERMS),
			    named & (UCOPY_F(AVX2) | UCOPY_F(FSRM) | UCOPY_F(SSE2)),
			    ucopy_cpu()->features, named };
	for (size_t i = 0; i < sizeof sets / sizeof *sets; i++) {
		char buf[512], err[128];
		size_t n = ucopy_features_format(sets[i], ",", buf, sizeof buf);
		uint64_t back = ~UINT64_C(0);
		CHECK(n == strlen(buf), "length %zu for '%s'", n, buf);
		CHECK(ucopy_features_parse(buf, 0, &back, err, sizeof err) == 0 && back == sets[i],
		      "'%s' reads back as %#llx, not %#llx (%s)", buf, (unsigned long long)back,
		      (unsigned long long)sets[i], err);
	}
	if (ucopy_feature_name(UCOPY_FEAT_ERMS) && ucopy_feature_name(UCOPY_FEAT_FSRM)) {
		char buf[64];
		ucopy_features_format(UCOPY_F(ERMS) | UCOPY_F(FSRM), "+", buf, sizeof buf);
		CHECK(!strcmp(buf, "erms+fsrm"), "with '+': '%s'", buf);
		CHECK(ucopy_features_format(UCOPY_F(ERMS), ",", NULL, 0) == 4,
		      "the length without a buffer");
	}
	check_group("text: feature sets format as the parser reads them");
}

/* Tokens from outside in messages: bounded, and nothing raw that a
 * terminal would act on. */
static void test_show_token(void)
{
	char buf[176], small[6];
	const char esc[] = "a\x1b[2J\tb\x7f\xc3\xa9";
	CHECK(!strcmp(ucopy_show_token(esc, sizeof esc - 1, buf, sizeof buf),
		      "a\\x1b[2J\\x09b\\x7f\xc3\xa9"), "escaped: '%s'", buf);
	/* A backslash doubled: the text \x1b reads apart from an ESC. */
	CHECK(!strcmp(ucopy_show_token("a\\x1b", 5, buf, sizeof buf), "a\\\\x1b"),
	      "backslash: '%s'", buf);
	char nul[3] = { 'x', 0, 'y' };
	CHECK(!strcmp(ucopy_show_token(nul, 3, buf, sizeof buf), "x\\x00y"),
	      "a NUL inside the token: '%s'", buf);
	char longer[100];
	memset(longer, 'q', sizeof longer);
	ucopy_show_token(longer, sizeof longer, buf, sizeof buf);
	CHECK(strlen(buf) == 43 && !strcmp(buf + 40, "..."), "cut at 40: '%s'", buf);
	/* 40 control bytes: the longest form fits the documented 176. */
	char ctl[41];
	memset(ctl, 1, sizeof ctl);
	ucopy_show_token(ctl, sizeof ctl, buf, sizeof buf);
	CHECK(strlen(buf) == 163 && !strcmp(buf + 160, "..."), "40 escapes and the cut: %zu bytes",
	      strlen(buf));
	/* A small buffer: whole escapes only, always terminated. */
	ucopy_show_token("\x01\x02", 2, small, sizeof small);
	CHECK(!strcmp(small, "\\x01"), "small buffer: '%s'", small);
	small[0] = 'z';
	CHECK(ucopy_show_token("abc", 3, small, 0) == small && small[0] == 'z',
	      "len 0 wrote into the buffer");
	/* Uncapped, for a path: cut by the buffer alone, and then marked. */
	char t16[16];
	CHECK(!strcmp(ucopy_show_text("abcdefghijklmnopqrstuvwxyz", t16, sizeof t16),
		      "abcdefghijkl..."), "a path cut by the buffer: '%s'", t16);
	CHECK(!strcmp(ucopy_show_text("/a\x1b/b", t16, sizeof t16), "/a\\x1b/b"),
	      "a path that fits: '%s'", t16);
	/* The size parser's message shows its input so too. */
	char err[200];
	size_t v;
	CHECK(ucopy_size_parse("1\x1b[2J", &v, err, sizeof err) == -1 &&
	      strstr(err, "'1\\x1b[2J'") && !strchr(err, '\x1b'), "size message: '%s'", err);
	memset(longer, '9', sizeof longer);
	longer[sizeof longer - 1] = 0;
	CHECK(ucopy_size_parse(longer, &v, err, sizeof err) == -1 && strstr(err, "9...'"),
	      "a long size, cut: '%s'", err);
	check_group("text: tokens shown in messages");
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_sizes();
	test_features();
	test_show_token();
	return check_exit();
}
