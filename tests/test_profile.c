/*
 * test_profile.c - calibration profiles: the loader accepts exactly the
 * profiles measured on this CPU that parse completely, says why it rejects
 * the others, and reads back what the writer writes; a derived policy is
 * saved only when it beats auto, and calibrate keeps the rules that won.
 * (The derivation itself: test_derive.c.)
 */
#include "calibration.h"
#include "cal_synth.h"
#include "check.h"
#include "ucopy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[] = "/tmp/ucopy-test-profile-XXXXXX";
static char path[256];

static void features_text(char *buf, size_t len)
{
	size_t pos = 0;
	uint64_t f = ucopy_cpu()->features;
	buf[0] = 0;
	for (unsigned b = 0; b < UCOPY_FEAT_COUNT; b++)
		if (f >> b & 1)
			pos += (size_t)snprintf(buf + pos, len - pos, "%s%s",
						pos ? "," : "", ucopy_feature_name(b));
	if (!pos)
		snprintf(buf, len, "none");
}

/* A profile for this CPU with `policy`; `extra` goes before "end" and
 * `tail` replaces "end\n" when not NULL. */
static void make_profile(char *buf, size_t len, const char *policy,
			 const char *extra, const char *tail)
{
	const struct ucopy_cpu *c = ucopy_cpu();
	char feat[512];
	features_text(feat, sizeof feat);
	snprintf(buf, len,
		 "ucopy-profile 1\n"
		 "# written by test_profile\n"
		 "version 0.1.0\n"
		 "date 2025-01-31T12:00:00Z\n"
		 "cpu.arch %s\n"
		 "cpu.vendor %s\n"
		 "cpu.family %u\n"
		 "cpu.model %u\n"
		 "cpu.stepping %u\n"
		 "cpu.brand %s\n"
		 "cpu.features %s\n"
		 "policy %s\n"
		 "\n"
		 "measure hot 64 libc=3.5 byte=40.25\n"
		 "measure cold 4K libc=300 byte=9000\n"
		 "distance 4352 0/1 libc=85.5 byte=2200\n"
		 "effect libc 4352 distance=1.02 align=1.10\n"
		 "cliff byte 4352 25.9 0/1\n"
		 "crossover 2K byte libc 1536=1.08 2K=0.97\n"
		 "crossover 64M byte libc auto\n"
		 "gain auto hot 1.05\n"
		 "gain libc cold 1.01\n"
		 "note anything at all\n"
		 "%s%s",
		 c->arch, c->vendor, c->family, c->model, c->stepping, c->brand,
		 feat, policy, extra ? extra : "", tail ? tail : "end\n");
}

static void write_file(const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(2);
	}
	fputs(text, f);
	fclose(f);
}

/* Replaces the first line starting with `key` by `line` in buf. */
static void replace_line(char *buf, size_t len, const char *key, const char *line)
{
	char *p = strstr(buf, key), tmp[8192];
	if (!p)
		return;
	char *e = strchr(p, '\n');
	snprintf(tmp, sizeof tmp, "%.*s%s%s", (int)(p - buf), buf, line, e ? e : "");
	snprintf(buf, len, "%s", tmp);
}

/* The profile in buf must be rejected with a reason naming the file and,
 * when line > 0, that line, and containing `what`. */
static void expect_rejected(const char *buf, unsigned line, const char *what)
{
	struct ucopy_policy p, before;
	char why[512], want[300];

	write_file(buf);
	memset(&p, 0x33, sizeof p);
	before = p;
	CHECK(ucopy_profile_load(path, &p, why, sizeof why) == -1,
	      "accepted a profile that should fail with '%s'", what);
	CHECK(!memcmp(&p, &before, sizeof p), "policy changed on failure ('%s')", what);
	if (line)
		snprintf(want, sizeof want, "%s:%u: ", path, line);
	else
		snprintf(want, sizeof want, "%s: ", path);
	CHECK(!strncmp(why, want, strlen(want)), "reason '%s' does not start with '%s'",
	      why, want);
	CHECK(strstr(why, what) != NULL, "reason '%s' does not say '%s'", why, what);
}

/* A good profile but for the line of `key`: that line alone is why it
 * fails. */
static void expect_line_rejected(const char *key, const char *line, unsigned lineno,
				 const char *what)
{
	char buf[8192];

	make_profile(buf, sizeof buf, "libc", NULL, NULL);
	replace_line(buf, sizeof buf, key, line);
	expect_rejected(buf, lineno, what);
}

static void test_good(void)
{
	char buf[8192], why[512] = "x";
	struct ucopy_policy p;

	make_profile(buf, sizeof buf, "64:libc,libc", NULL, NULL);
	write_file(buf);
	CHECK(ucopy_profile_load(path, &p, why, sizeof why) == 0, "rejected: %s", why);
	CHECK(why[0] == 0, "reason '%s' on success", why);
	CHECK(p.nrules == 2 && !strcmp(p.name, "calibrated"), "policy %u rules '%s'",
	      p.nrules, p.name);
	CHECK(ucopy_profile_load(path, NULL, why, sizeof why) == 0, "check only: %s", why);

	/* Blank lines, comments and tabs between fields are fine. */
	make_profile(buf, sizeof buf, "libc", "\n#\tcomment\nmeasure\thot  8 libc=1\n", NULL);
	write_file(buf);
	CHECK(ucopy_profile_load(path, &p, why, sizeof why) == 0, "rejected: %s", why);

	/* why may be NULL or tiny. */
	CHECK(ucopy_profile_load(path, &p, NULL, 0) == 0, "NULL why");
	char small[4];
	CHECK(ucopy_profile_load("/nonexistent/x", &p, small, sizeof small) == -1 &&
	      strlen(small) == 3, "small why '%s'", small);
	check_group("profile: a good profile loads");
}

/* A feature list the CPU does not have, in this port's names. */
static const char *other_features(uint64_t f)
{
#ifdef UCOPY_PORT_x86_64
	return f & UCOPY_F(AVX512F) ? "sse2" : "sse2,avx512f";
#else
	return f & UCOPY_F(MOPS) ? "asimd" : "asimd,mops";
#endif
}

static void test_rejected(void)
{
	char buf[8192], line[256];
	const struct ucopy_cpu *c = ucopy_cpu();

	/* Another CPU's identity, one field at a time. */
	snprintf(line, sizeof line, "cpu.model %u", c->model + 1);
	expect_line_rejected("cpu.model", line, 8, "measured on another CPU");
	/* A family this CPU is not: an AMD family 25 machine (Zen 3) is one
	 * this test runs on. */
	make_profile(buf, sizeof buf, "libc", NULL, NULL);
	replace_line(buf, sizeof buf, "cpu.vendor", "cpu.vendor AuthenticAMD");
	snprintf(line, sizeof line, "cpu.family %u", c->family == 25 ? 26 : 25);
	replace_line(buf, sizeof buf, "cpu.family", line);
	expect_rejected(buf, !strcmp(c->vendor, "AuthenticAMD") ? 7 : 6,
			"measured on another CPU");
	/* A brand this CPU does not have (an EPYC 7763 is a Zen 3 it may be). */
	const char *brand = strstr(c->brand, "7763") ? "AMD EPYC 9654 96-Core Processor"
						      : "AMD EPYC 7763 64-Core Processor";
	snprintf(line, sizeof line, "cpu.brand %s", brand);
	char want[64];
	snprintf(want, sizeof want, "measured on another CPU ('%.13s", brand);
	expect_line_rejected("cpu.brand", line, 10, want);
	expect_line_rejected("cpu.arch", "cpu.arch riscv64", 5, "measured on riscv64");
	snprintf(line, sizeof line, "cpu.features %s", other_features(c->features));
	expect_line_rejected("cpu.features", line, 11, "measured with other CPU features");

	/* Truncated: cut at every length, none may load. */
	make_profile(buf, sizeof buf, "64:libc,libc", NULL, NULL);
	size_t full = strlen(buf);
	int accepted = 0;
	for (size_t n = 0; n < full; n++) {
		char cut[8192], why[512];
		memcpy(cut, buf, n);
		cut[n] = 0;
		write_file(cut);
		if (ucopy_profile_load(path, NULL, why, sizeof why) == 0)
			accepted++;
		else
			CHECK(!strncmp(why, path, strlen(path)), "cut at %zu: '%s'", n, why);
	}
	CHECK(accepted == 0, "%d truncated profiles loaded", accepted);
	make_profile(buf, sizeof buf, "libc", NULL, "");
	expect_rejected(buf, 23, "no 'end' line after line 23 (truncated?)");
	make_profile(buf, sizeof buf, "libc", NULL, "end");
	expect_rejected(buf, 24, "last line has no newline");
	buf[0] = 0;
	expect_rejected(buf, 0, "empty file");

	/* Unknown or unsupported kernels. */
	make_profile(buf, sizeof buf, "64:libc,turbo", NULL, NULL);
	expect_rejected(buf, 12, "unknown kernel 'turbo'");
	make_profile(buf, sizeof buf, "libc", "measure hot 8 warp=3\n", NULL);
	expect_rejected(buf, 24, "unknown kernel 'warp'");
	make_profile(buf, sizeof buf, "libc", "cliff fastest 4K 2 0/1\n", NULL);
	expect_rejected(buf, 24, "unknown kernel 'fastest'");
	const struct ucopy_kernel *unsupported = NULL;
	for (size_t i = 0; i < ucopy_kernel_count(); i++)
		if (!ucopy_kernel_supported(ucopy_kernel_at(i), c->features))
			unsupported = ucopy_kernel_at(i);
	if (unsupported) {
		snprintf(line, sizeof line, "64:libc,%s", unsupported->name);
		make_profile(buf, sizeof buf, line, NULL, NULL);
		expect_rejected(buf, 12, "which this CPU lacks");
	}

	/* Malformed lines. */
	static const struct { const char *extra, *what; } bad[] = {
		{ "measure warm 8 libc=1\n", "bad cache state 'warm'" },
		{ "measure hot 8Q libc=1\n", "bad size '8Q'" },
		{ "measure hot 8\n", "no KERNEL=NS" },
		{ "measure hot 8 libc=-1\n", "bad time '-1'" },
		{ "measure hot 8 libc=1,5\n", "bad time '1,5'" },
		{ "measure hot 8 libc=0\n", "bad time '0'" },
		{ "measure hot 8 libc\n", "expected KERNEL=NS" },
		{ "distance 4K 0/4096 libc=1\n", "bad offsets '0/4096'" },
		{ "effect libc 4K distance=1\n", "malformed 'effect'" },
		{ "cliff libc 4K x 0/1\n", "bad ratio 'x'" },
		{ "crossover 2K libc libc 1K\n", "bad evidence '1K'" },
		{ "gain glibc hot 1.1\n", "bad reference 'glibc'" },
		{ "frobnicate 1\n", "unknown key 'frobnicate'" },
		{ " measure hot 8 libc=1\n", "starts with a blank" },
		{ "policy libc\n", "'policy' given twice (first on line 12)" },
		{ "end 1\n", "'end' takes no value" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		make_profile(buf, sizeof buf, "libc", bad[i].extra, NULL);
		expect_rejected(buf, 24, bad[i].what);
	}
	make_profile(buf, sizeof buf, "libc", "end\nmeasure hot 8 libc=1\n", NULL);
	expect_rejected(buf, 25, "a line after the 'end' line (expected 'end' last, but for comments");
	/* Comments and blank lines may follow 'end' (docs/calibrate.md:
	 * "anywhere after the first line"); a second 'end' may not. */
	make_profile(buf, sizeof buf, "libc", NULL, "end\n\n# a comment\n");
	write_file(buf);
	char why_end[512] = "";
	struct ucopy_policy pol;
	CHECK(ucopy_profile_load(path, &pol, why_end, sizeof why_end) == 0,
	      "a comment and a blank line after 'end' rejected: %s", why_end);
	make_profile(buf, sizeof buf, "libc", NULL, "end\n# c\nend\n");
	expect_rejected(buf, 26, "a line after the 'end' line");
	expect_line_rejected("date", "date yesterday", 4, "bad date 'yesterday'");
	expect_line_rejected("date", "date 2026-13-45T99:99:99Z", 4, "bad date '2026-13-45T99:99:99Z'");
	expect_line_rejected("date", "date 2025-02-29T12:00:00Z", 4, "bad date '2025-02-29T12:00:00Z'");
	expect_line_rejected("date", "date 2026-04-31T12:00:00Z", 4, "bad date '2026-04-31T12:00:00Z'");
	expect_line_rejected("date", "date 2026-01-01T24:00:00Z", 4, "bad date '2026-01-01T24:00:00Z'");
	/* A leap day and a leap second are dates. */
	make_profile(buf, sizeof buf, "libc", NULL, NULL);
	replace_line(buf, sizeof buf, "date", "date 2024-02-29T23:59:60Z");
	write_file(buf);
	CHECK(ucopy_profile_load(path, NULL, why_end, sizeof why_end) == 0,
	      "a leap day's leap second rejected: %s", why_end);
	expect_line_rejected("version", "version 1.2", 3, "bad version '1.2'");
	make_profile(buf, sizeof buf, "64:libc,", NULL, NULL);
	expect_rejected(buf, 12, "bad policy: trailing ','");
	expect_line_rejected("cpu.family", "# no family", 0, "no 'cpu.family' line");
	expect_line_rejected("ucopy-profile", "ucopy-profile 2", 1, "unsupported profile format");
	expect_rejected("hello\n", 1, "not a ucopy profile");
	static const char nul[] = "ucopy-profile 1\nnote \x01\x02 binary\0junk\n";
	FILE *f = fopen(path, "w");
	fwrite(nul, 1, sizeof nul - 1, f);
	fclose(f);
	char why[512];
	CHECK(ucopy_profile_load(path, NULL, why, sizeof why) == -1 &&
	      strstr(why, ":2: NUL byte"), "NUL: '%s'", why);

	/* Bounded lines: one byte over the limit is refused, at the limit
	 * is read. */
	char longline[UCOPY_PROFILE_LINE_MAX + 64];
	size_t n = (size_t)snprintf(longline, sizeof longline, "note ");
	memset(longline + n, 'x', UCOPY_PROFILE_LINE_MAX - 1 - n);
	strcpy(longline + UCOPY_PROFILE_LINE_MAX - 1, "\n");
	make_profile(buf, sizeof buf, "libc", longline, NULL);
	write_file(buf);
	CHECK(ucopy_profile_load(path, NULL, why, sizeof why) == 0,
	      "a line of %d bytes: %s", UCOPY_PROFILE_LINE_MAX - 1, why);
	strcpy(longline + UCOPY_PROFILE_LINE_MAX - 1, "x\n");
	make_profile(buf, sizeof buf, "libc", longline, NULL);
	expect_rejected(buf, 24, "line longer than");
	check_group("profile: bad profiles are rejected with file, line and reason");
}

static void test_paths(void)
{
	char buf[8192], why[512];

	CHECK(ucopy_profile_load("/nonexistent/ucopy/profile", NULL, why, sizeof why) == -1 &&
	      strstr(why, "/nonexistent/ucopy/profile: cannot open") == why,
	      "missing file: '%s'", why);
	CHECK(ucopy_profile_load(dir, NULL, why, sizeof why) == -1 &&
	      strstr(why, "not a regular file (a directory)"), "a directory: '%s'", why);
	/* A FIFO with no writer blocked the first copy of every program; the
	 * alarm turns a hang back into a failure. */
	char fifo[300];
	snprintf(fifo, sizeof fifo, "%s/fifo", dir);
	CHECK(mkfifo(fifo, 0600) == 0, "mkfifo %s", fifo);
	alarm(20);
	CHECK(ucopy_profile_load(fifo, NULL, why, sizeof why) == -1 &&
	      strstr(why, "not a regular file (a FIFO)"), "a FIFO: '%s'", why);
	alarm(0);
	unlink(fifo);
	CHECK(ucopy_profile_load("/dev/null", NULL, why, sizeof why) == -1 &&
	      strstr(why, "/dev/null: not a regular file (a character device)") == why,
	      "a device: '%s'", why);
	/* A path's control bytes are escaped in the reason, as any outside
	 * text in the library's messages: a program may print it. */
	CHECK(ucopy_profile_load("/nonexistent/a\x1b[2Jb", NULL, why, sizeof why) == -1 &&
	      strstr(why, "/nonexistent/a\\x1b[2Jb: cannot open") == why && !strchr(why, '\x1b'),
	      "a path with ESC: '%s'", why);
	CHECK(ucopy_profile_load("", NULL, why, sizeof why) == -1, "empty path");
	CHECK(ucopy_profile_load(NULL, NULL, why, sizeof why) == -1, "NULL path");
	if (geteuid() != 0) {
		make_profile(buf, sizeof buf, "libc", NULL, NULL);
		write_file(buf);
		chmod(path, 0);
		CHECK(ucopy_profile_load(path, NULL, why, sizeof why) == -1 &&
		      strstr(why, "cannot open: Permission denied"), "unreadable: '%s'", why);
		chmod(path, 0644);
	}

	setenv("XDG_CACHE_HOME", "/x/cache", 1);
	setenv("HOME", "/home/u", 1);
	CHECK(ucopy_profile_default_path(buf, sizeof buf) == 0 &&
	      !strcmp(buf, "/x/cache/ucopy/profile"), "XDG: '%s'", buf);
	setenv("XDG_CACHE_HOME", "relative", 1);
	CHECK(ucopy_profile_default_path(buf, sizeof buf) == 0 &&
	      !strcmp(buf, "/home/u/.cache/ucopy/profile"), "relative XDG: '%s'", buf);
	unsetenv("XDG_CACHE_HOME");
	CHECK(ucopy_profile_default_path(buf, sizeof buf) == 0 &&
	      !strcmp(buf, "/home/u/.cache/ucopy/profile"), "HOME: '%s'", buf);
	CHECK(ucopy_profile_default_path(buf, 10) == -1 && buf[0] == 0, "too small");
	unsetenv("HOME");
	CHECK(ucopy_profile_default_path(buf, sizeof buf) == -1, "no HOME");

	/* The named policy "calibrated" reads the same files. */
	struct ucopy_policy p;
	char err[512];
	uint64_t f = ucopy_cpu()->features;
	unsetenv("UCOPY_PROFILE");
	CHECK(ucopy_policy_resolve(&p, "calibrated", f, err, sizeof err) == -1 &&
	      strstr(err, "needs a profile"), "no profile: '%s'", err);
	setenv("HOME", dir, 1);
	CHECK(ucopy_policy_resolve(&p, "calibrated", f, err, sizeof err) == -1 &&
	      strstr(err, "none at ") && strstr(err, "/.cache/ucopy/profile"),
	      "none at the default path: '%s'", err);
	make_profile(buf, sizeof buf, "64:libc,libc", NULL, NULL);
	write_file(buf);
	setenv("UCOPY_PROFILE", path, 1);
	CHECK(ucopy_policy_resolve(&p, "calibrated", f, err, sizeof err) == 0 &&
	      p.nrules == 2 && !strcmp(p.name, "calibrated"), "UCOPY_PROFILE: '%s'", err);
	write_file("garbage\n");
	CHECK(ucopy_policy_resolve(&p, "calibrated", f, err, sizeof err) == -1 &&
	      strstr(err, "not a ucopy profile"), "bad profile: '%s'", err);
	unsetenv("UCOPY_PROFILE");
	/* A FIFO at the default path is found, and rejected with the reason. */
	char cache[300], def[300];
	snprintf(cache, sizeof cache, "%s/.cache", dir);
	snprintf(def, sizeof def, "%s/.cache/ucopy", dir);
	mkdir(cache, 0700);
	mkdir(def, 0700);
	snprintf(def, sizeof def, "%s/.cache/ucopy/profile", dir);
	CHECK(mkfifo(def, 0600) == 0, "mkfifo %s", def);
	alarm(20);
	CHECK(ucopy_policy_resolve(&p, "calibrated", f, err, sizeof err) == -1 &&
	      strstr(err, "profile: not a regular file (a FIFO)"), "FIFO at the default path: '%s'", err);
	alarm(0);
	unlink(def);
	snprintf(def, sizeof def, "%s/.cache/ucopy", dir);
	rmdir(def);
	rmdir(cache);
	check_group("profile: paths, missing and unreadable files, directories, FIFOs, devices, 'calibrated'");
}

/*=====   Writer and derivation (programs/core/calibration.c)   =====*/

/* What calibrate would save, loaded back as the library loads a profile. */
static void save_and_load(const struct calibration *cal, struct ucopy_policy *p)
{
	char why[512];
	FILE *f = fopen(path, "w");

	CHECK(f && calibration_write(cal, f) == 0, "write");
	if (f)
		fclose(f);
	CHECK(ucopy_profile_load(path, p, why, sizeof why) == 0, "load: %s", why);
}

static void test_round_trip(void)
{
	struct calibration cal;
	char why[512];

	calibration_init(&cal);
	static const size_t sizes[] = { 16, 256, 4096, 65536 };
	/* word: any fault-capable kernel; libc may not be chosen. */
	const struct ucopy_kernel *word = ucopy_kernel_find("word");
	const struct ucopy_kernel *libc = ucopy_kernel_find("libc");
	for (size_t i = 0; i < 4; i++) {
		struct cal_point *pt = calibration_point(&cal, sizes[i]);
		CHECK(pt != NULL, "point %zu", sizes[i]);
		if (!pt)
			continue;
		calibration_set(&cal, pt, CAL_HOT, word, 1.5 + (double)i, 1.0, 1.0);
		calibration_set(&cal, pt, CAL_COLD, word, 100.25 * (double)(i + 1), 1.0, 1.0);
		calibration_set(&cal, pt, CAL_HOT, libc, 1.0 + (double)i, 0.6, 0.7);
	}
	calibration_add_cliff(&cal, word, 8192, 25.0, 0, 1);
	calibration_add_effect(&cal, word, 8192, 25.0, 1.1);
	struct cal_probe *pr = calibration_probe(&cal, 8192, 0, 1);
	CHECK(pr != NULL, "probe");
	if (pr)
		pr->ns[calibration_kernel_index(word)] = 2200;
	calibration_derive(&cal);
	CHECK(cal.policy.nrules == 1 && cal.policy.rule[0].kernel == word,
	      "derived %u rules", cal.policy.nrules);
	cal.gain[CAL_REF_AUTO][CAL_HOT] = 1.07;
	cal.gain[CAL_REF_LIBC][CAL_COLD] = 0.99;

	struct ucopy_policy p;
	save_and_load(&cal, &p);
	char a[256], b[256];
	ucopy_policy_format(&p, a, sizeof a);
	ucopy_policy_format(&cal.policy, b, sizeof b);
	CHECK(!strcmp(a, b), "read back '%s', wrote '%s'", a, b);

	/* Every prefix of what the writer wrote is rejected. */
	FILE *r = fopen(path, "r");
	char text[65536];
	size_t len = r ? fread(text, 1, sizeof text - 1, r) : 0;
	if (r)
		fclose(r);
	int accepted = 0;
	for (size_t n = 0; n < len; n += 7) {
		FILE *w = fopen(path, "w");
		fwrite(text, 1, n, w);
		fclose(w);
		accepted += ucopy_profile_load(path, NULL, why, sizeof why) == 0;
	}
	CHECK(accepted == 0, "%d prefixes of a written profile loaded", accepted);
	calibration_free(&cal);
	check_group("profile: what the writer writes, the loader reads");
}

/* A verify check: derived ns = auto ns * ratio, with the interval
 * [ratio - spread, ratio + spread]; libc 1.2x auto. */
static void add_check(struct calibration *cal, const char *name, enum cal_state s,
		      size_t size, double ratio, double spread)
{
	struct cal_check *c = calibration_check(cal, name, s, size);
	CHECK(c != NULL, "check %s", name);
	if (!c)
		return;
	c->ref[CAL_REF_AUTO] = 100;
	c->ref[CAL_REF_LIBC] = 120;
	c->ns = 100 * ratio;
	c->lo = ratio - spread;
	c->hi = ratio + spread;
}

/* A calibration whose derived policy is `derived`, judged against auto
 * = "1K:word,movsb", with checks at 256 (both pick word), 2K (word vs
 * movsb), 4K (movsb vs movsb): `hot2k` is derived/auto at 2K; `mixed` on a
 * mixed workload; `cold2k` cold at 2K. */
static void judged(struct calibration *cal, struct ucopy_policy *a, const char *derived,
		   double hot2k, double mixed, double cold2k)
{
	calibration_init(cal);
	parse(a, "1K:word," K_REP);
	cal->inherit = a;
	parse(&cal->policy, derived);
	snprintf(cal->policy.name, sizeof cal->policy.name, "calibrated");
	add_check(cal, "256", CAL_HOT, 256, 1.5, 0.01);   /* same kernel: noise */
	add_check(cal, "2048", CAL_HOT, 2048, hot2k, 0.01);
	add_check(cal, "4096", CAL_HOT, 4096, 1.0, 0.01);
	add_check(cal, "mix", CAL_MIXED, 0, mixed, 0.01);
	add_check(cal, "2048", CAL_COLD, 2048, cold2k, 0.01);
	calibration_judge(cal);
}

static void test_judge(void)
{
	struct calibration cal;
	struct ucopy_policy a;
	char text[256];

	/* 15% ahead at 2K, even elsewhere: kept. */
	judged(&cal, &a, "4K:word," K_REP, 0.85, 1.0, 1.0);
	ucopy_policy_format(&cal.policy, text, sizeof text);
	CHECK(cal.accepted && !strcmp(text, "4K:word," K_REP), "better: '%s'", text);
	CHECK(fabs(cal.gain[CAL_REF_AUTO][CAL_HOT] - exp((log(1 / 1.5) + log(1 / 0.85)) / 3)) < 1e-9,
	      "hot gain %f", cal.gain[CAL_REF_AUTO][CAL_HOT]);
	CHECK(cal.nnotes == 0, "a note when kept: %s", cal.notes[0]);
	calibration_free(&cal);

	/* Each of these saves auto's policy, with a note saying why. */
	static const struct {
		const char *derived;
		double hot2k, mixed, cold2k;
		const char *why;
	} rejected[] = {
		{ "4K:word," K_REP, 0.995, 1.0, 1.0, "auto's speed where they differ" },
		{ "4K:word," K_REP, 0.85, 1.05, 1.0, "slower than auto on mix" },
		{ "4K:word," K_REP, 1.30, 0.90, 1.0, "1.30x slower than auto at 2048 bytes hot" },
		{ "4K:word," K_REP, 0.85, 1.0, 1.20, "speed cold" },
		{ "4K:word," K_REP, 0.85, 1.0, 1.03, "speed cold" },
		{ "4K:word," K_REP, 0.85, 1.025, 1.0, "speed on mixed sizes" },
		{ "1K:word," K_REP, 0.85, 1.0, 1.0, "auto's own" },
	};
	for (size_t i = 0; i < sizeof rejected / sizeof rejected[0]; i++) {
		judged(&cal, &a, rejected[i].derived, rejected[i].hot2k, rejected[i].mixed,
		       rejected[i].cold2k);
		ucopy_policy_format(&cal.policy, text, sizeof text);
		CHECK(!cal.accepted && !strcmp(text, "1K:word," K_REP), "case %zu: '%s'", i, text);
		CHECK(cal.nnotes == 1 && strstr(cal.notes[0], "found nothing better than auto") &&
		      strstr(cal.notes[0], rejected[i].why), "case %zu: note '%s'", i, cal.notes[0]);
		CHECK(cal.ncross == 1 && cal.cross[0].inherited && cal.cross[0].limit == 1024,
		      "case %zu: crossovers", i);
		CHECK(cal.gain[CAL_REF_AUTO][CAL_HOT] == 1 &&
		      fabs(cal.gain[CAL_REF_LIBC][CAL_HOT] - 1.2) < 1e-9, "case %zu: gains", i);
		ucopy_policy_format(&cal.derived, text, sizeof text);
		CHECK(!strcmp(text, rejected[i].derived), "case %zu: derived '%s'", i, text);
	}
	/* What is saved then loads, and is auto's. */
	struct ucopy_policy p;
	save_and_load(&cal, &p);
	ucopy_policy_format(&p, text, sizeof text);
	CHECK(!strcmp(text, "1K:word," K_REP), "loaded '%s'", text);
	calibration_free(&cal);
	check_group("profile: a derived policy is saved only when it beats auto");
}

/* The derived 4:byte,4K:word,REP against auto a after a 1.2x loss on a
 * mixed workload, with one check at 2 KiB in `state` at `ratio`: the
 * merged policy in text, or "" when there is none to verify. */
static const char *merge_mixed(const struct ucopy_policy *a, enum cal_state state,
			       double ratio, char *text, size_t len)
{
	struct calibration cal;
	calibration_init(&cal);
	cal.inherit = a;
	parse(&cal.policy, "4:byte,4K:word," K_REP);
	add_check(&cal, "256", CAL_HOT, 256, 1.0, 0.01);    /* both word */
	add_check(&cal, "2048", state, 2048, ratio, 0.01);  /* word against movsb */
	add_check(&cal, "mix", CAL_MIXED, 0, 1.20, 0.01);
	calibration_judge(&cal);
	CHECK(!cal.accepted, "the 1.2x mixed loss rejects the derived policy");
	text[0] = 0;
	if (calibration_merge(&cal))
		ucopy_policy_format(&cal.policy, text, len);
	calibration_free(&cal);
	return text;
}

/* Rejected whole, the derived policy is merged with auto's: its rules where
 * they never lost, auto's where they did; the merge is then judged again. */
static void test_merge(void)
{
	struct calibration cal;
	struct ucopy_policy a;
	char text[256];

	calibration_init(&cal);
	parse(&a, "1K:word," K_REP);
	cal.inherit = &a;
	parse(&cal.policy, "512:byte,4K:word," K_REP);
	snprintf(cal.policy.name, sizeof cal.policy.name, "calibrated");
	add_check(&cal, "256", CAL_HOT, 256, 0.80, 0.01);    /* byte wins */
	add_check(&cal, "2048", CAL_HOT, 2048, 1.30, 0.01);  /* word loses to movsb */
	add_check(&cal, "mix", CAL_MIXED, 0, 0.98, 0.01);
	calibration_judge(&cal);
	CHECK(!cal.accepted, "the 1.3x loss at 2 KiB rejects the derived policy");
	CHECK(calibration_merge(&cal) == 1, "nothing to merge");
	ucopy_policy_format(&cal.policy, text, sizeof text);
	CHECK(!strcmp(text, "512:byte,1K:word," K_REP), "merged '%s'", text);
	CHECK(cal.nchecks == 0 && cal.ncross == 2 && cal.cross[0].limit == 512 &&
	      cal.cross[1].limit == 1024,
	      "checks %zu, crossovers %u", cal.nchecks, cal.ncross);
	CHECK(cal.nnotes == 1 && strstr(cal.notes[0], "where they won"), "note '%s'", cal.notes[0]);
	/* The second verify phase: ahead at 256, even at 2 KiB. */
	add_check(&cal, "256", CAL_HOT, 256, 0.80, 0.01);
	add_check(&cal, "2048", CAL_HOT, 2048, 1.0, 0.01);
	add_check(&cal, "mix", CAL_MIXED, 0, 0.98, 0.01);
	calibration_judge(&cal);
	ucopy_policy_format(&cal.policy, text, sizeof text);
	CHECK(cal.accepted && !strcmp(text, "512:byte,1K:word," K_REP), "kept '%s'", text);
	calibration_free(&cal);

	/* Behind on a mixed workload only: the segments no size check shows
	 * clearly ahead go back to auto's, those that one does, hot or cold,
	 * stay the derived. */
	CHECK(!strcmp(merge_mixed(&a, CAL_HOT, 0.70, text, sizeof text), "4K:word," K_REP),
	      "merged after a mixed loss, 2 KiB ahead hot: '%s'", text);
	CHECK(!strcmp(merge_mixed(&a, CAL_COLD, 0.70, text, sizeof text), "4K:word," K_REP),
	      "merged after a mixed loss, 2 KiB ahead cold: '%s'", text);
	CHECK(!strcmp(merge_mixed(&a, CAL_HOT, 0.99, text, sizeof text), ""),
	      "merged after a mixed loss, nothing ahead: '%s'", text);

	/* A segment verify never saw ahead is auto's: byte below 512 is kept
	 * (ahead at 256), word at 1-4 KiB, even with auto's movsb at 2 KiB,
	 * is not, and K_VEC, behind at 6000, is not either. */
	calibration_init(&cal);
	cal.inherit = &a;
	parse(&cal.policy, "512:byte,4K:word,8K:" K_VEC "," K_REP);
	snprintf(cal.policy.name, sizeof cal.policy.name, "calibrated");
	add_check(&cal, "256", CAL_HOT, 256, 0.80, 0.01);
	add_check(&cal, "2048", CAL_HOT, 2048, 1.0, 0.01);
	add_check(&cal, "6000", CAL_HOT, 6000, 1.5, 0.01);
	calibration_judge(&cal);
	CHECK(!cal.accepted && calibration_merge(&cal) == 1, "a tie and a loss: merged");
	ucopy_policy_format(&cal.policy, text, sizeof text);
	CHECK(!strcmp(text, "512:byte,1K:word," K_REP), "a tie is auto's: '%s'", text);
	calibration_free(&cal);

	/* Behind auto wherever they differ: the merge would be auto's own. */
	calibration_init(&cal);
	cal.inherit = &a;
	parse(&cal.policy, "4K:word," K_REP);
	add_check(&cal, "2048", CAL_HOT, 2048, 1.30, 0.01);
	calibration_judge(&cal);
	CHECK(!cal.accepted && calibration_merge(&cal) == 0, "auto's own merged");
	ucopy_policy_format(&cal.policy, text, sizeof text);
	CHECK(!strcmp(text, "1K:word," K_REP), "auto's stays: '%s'", text);
	calibration_free(&cal);
	check_group("profile: calibrate keeps the derived rules that won, auto's where they lost");
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 2;
	}
	snprintf(path, sizeof path, "%s/profile", dir);
	test_good();
	test_rejected();
	test_paths();
	test_round_trip();
	test_judge();
	test_merge();
	unlink(path);
	rmdir(dir);
	return check_exit();
}
