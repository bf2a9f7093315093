/*
 * test_dist.c - the distribution readers (each format, and files that are
 * missing, empty, malformed or cut short) and the copy-sequence sampler.
 * The real fleetbench files are the ten that ship in data/distributions,
 * found as the command finds them (programs/core/datadir.h).
 */
#include "check.h"
#include "datadir.h"
#include "dist.h"

#include <math.h>
#include <signal.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int parse(const char *text, struct dist *d, char *err, size_t errlen)
{
	return dist_parse("t.csv", text, strlen(text), d, err, errlen);
}

static double prob(const struct dist *d, size_t size)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->size[i] == size)
			return d->cdf[i] - (i ? d->cdf[i - 1] : 0);
	return 0;
}

static void test_formats(void)
{
	struct dist d;
	char err[300] = "";

	CHECK(parse("0:0.25,8:0.5,4352:0.25\n0:1\n1:0.5,64:0.5\n", &d, err, sizeof err) == 0,
	      "fleetbench: %s", err);
	CHECK(d.format == DIST_FLEETBENCH && d.n == 3 && d.has_align, "fleetbench shape");
	CHECK(fabs(prob(&d, 8) - 0.5) < 1e-12 && fabs(prob(&d, 4352) - 0.25) < 1e-12, "probs");
	CHECK(fabs(d.mean - (0.5 * 8 + 0.25 * 4352)) < 1e-9, "mean %g", d.mean);
	CHECK(d.max_size == 4352, "max");
	CHECK(fabs(d.align[0] - 0.5) < 1e-12 && fabs(d.align[6] - 0.5) < 1e-12, "align");
	dist_free(&d);

	/* One line only (no overlap or alignment), or sizes and overlap without
	 * alignment: both alike, offsets will be uniform. */
	CHECK(parse("16:3,32:1\n", &d, err, sizeof err) == 0 && !d.has_align && d.n == 2 &&
	      fabs(prob(&d, 16) - 0.75) < 1e-12, "fleetbench sizes only: %s", err);
	dist_free(&d);
	CHECK(parse("16:3,32:1\n0:1\n", &d, err, sizeof err) == 0 && !d.has_align && d.n == 2 &&
	      fabs(prob(&d, 16) - 0.75) < 1e-12, "fleetbench without alignment: %s", err);
	dist_free(&d);
	/* Comments on any line, the first included; comment-only lines skipped. */
	CHECK(parse("1:0.5,8:0.5 # c\n# overlap next\n0:1\n1:1 # all odd\n", &d, err,
		    sizeof err) == 0 && d.format == DIST_FLEETBENCH && d.n == 2 && d.has_align &&
	      d.align[0] == 1, "fleetbench with comments: %s", err);
	dist_free(&d);
	CHECK(parse("0.5,0.5 # sizes 0 and 1\n# more\n0.5\n", &d, err, sizeof err) == 0 &&
	      d.format == DIST_LLVM && d.n == 3 && fabs(prob(&d, 2) - 1.0 / 3) < 1e-12,
	      "llvm with comments: %s", err);
	dist_free(&d);
	/* A comment before the sizes is no size line; in the other formats,
	 * whose lines have no place, a blank line before the first is none. */
	CHECK(parse("# from fleetbench\n8:1\n0:1\n", &d, err, sizeof err) == 0 &&
	      d.format == DIST_FLEETBENCH && d.n == 1 && d.size[0] == 8,
	      "fleetbench after a comment: %s", err);
	dist_free(&d);
	CHECK(parse("\n64 1\n", &d, err, sizeof err) == 0 && d.format == DIST_PLAIN &&
	      d.n == 1 && d.size[0] == 64, "plain after a blank line: %s", err);
	dist_free(&d);
	CHECK(parse("\n0.5,0.5\n", &d, err, sizeof err) == 0 && d.format == DIST_LLVM &&
	      d.n == 2, "llvm after a blank line: %s", err);
	dist_free(&d);

	/* Weights at the ends of double: sums that would overflow are scaled,
	 * subnormals are weights (strtod says ERANGE for them). */
	CHECK(parse("8 1e308\n16 1e308\n", &d, err, sizeof err) == 0 && d.n == 2 &&
	      fabs(prob(&d, 8) - 0.5) < 1e-12, "huge weights: %s", err);
	dist_free(&d);
	CHECK(parse("8 1e308\n8 1e308\n16 1e308\n", &d, err, sizeof err) == 0 && d.n == 2 &&
	      fabs(prob(&d, 8) - 2.0 / 3) < 1e-12, "huge repeated weights: %s", err);
	dist_free(&d);
	CHECK(parse("8 1e-320\n", &d, err, sizeof err) == 0 && d.n == 1 && prob(&d, 8) == 1,
	      "subnormal weight: %s", err);
	dist_free(&d);
	CHECK(parse("8 1e-320\n16 3e-320\n", &d, err, sizeof err) == 0 && d.n == 2 &&
	      fabs(prob(&d, 16) - 0.75) < 1e-3, "subnormal weights: %s", err);
	dist_free(&d);
	CHECK(parse("8 1e308\n16 1e-320\n", &d, err, sizeof err) == 0 && d.n == 1 &&
	      prob(&d, 8) == 1, "a weight too small to count beside another: %s", err);
	dist_free(&d);
	/* One weight 1e17 times the rest (found by fuzz_dist in the LLVM
	 * format, whose probabilities are now at most 1: here its weights
	 * as 'SIZE WEIGHT' lines): normalising each weight first made the
	 * running sum pass 1 before the end. */
	CHECK(parse("1 8\n2 9\n3 88\n4 8\n5 988888888888888888\n6 9\n7 88\n8 8\n"
		    "9 98\n10 9\n11 88\n12 6\n13 88\n14 888\n15 8\n16 8\n17 9\n"
		    "18 88\n19 9\n20 88\n21 8\n22 8\n23 88\n24 88\n25 9\n26 88\n"
		    "27 6\n28 88\n29 888\n30 8\n31 8\n32 9\n33 88\n34 9\n35 88\n"
		    "36 8\n37 8\n", &d, err, sizeof err) == 0 &&
	      d.cdf[d.n - 1] == 1, "lopsided weights: %s", err);
	for (size_t i = 1; i < d.n; i++)
		CHECK(d.cdf[i] >= d.cdf[i - 1] && d.cdf[i] <= 1, "cdf[%zu] = %.17g after %.17g", i,
		      d.cdf[i], d.cdf[i - 1]);
	CHECK(d.mean <= (double)d.max_size, "mean %.17g", d.mean);
	dist_free(&d);
	CHECK(parse("8:1\n0:1\n1:1e308,2:1e308\n", &d, err, sizeof err) == 0 && d.has_align &&
	      fabs(d.align[0] - 0.5) < 1e-12 && fabs(d.align[1] - 0.5) < 1e-12,
	      "huge alignment weights: %s", err);
	/* ... and the offsets drawn from them are odd or 2 mod 4, never 0. */
	struct copy_seq q;
	CHECK(dist_sample(&d, 1000, 5, &q) == 0, "sample");
	int bad = 0;
	for (size_t i = 0; i < q.len; i++)
		bad += q.op[i].src_off % 4 == 0 || q.op[i].dst_off % 4 == 0;
	CHECK(bad == 0, "%d offsets aligned beyond 2 bytes", bad);
	copy_seq_free(&q);
	dist_free(&d);

	CHECK(parse("0.5,0,0.25,0.25\n", &d, err, sizeof err) == 0, "llvm: %s", err);
	CHECK(d.format == DIST_LLVM && d.n == 3 && fabs(prob(&d, 0) - 0.5) < 1e-12 &&
	      prob(&d, 1) == 0 && fabs(prob(&d, 3) - 0.25) < 1e-12, "llvm shape");
	dist_free(&d);
	/* No final newline, a trailing comma, exponents, a second line. */
	CHECK(parse("1e-1,2.5e-1,\n0.65", &d, err, sizeof err) == 0 && d.n == 3 &&
	      fabs(prob(&d, 2) - 0.65) < 1e-12, "llvm variants: %s", err);
	dist_free(&d);

	CHECK(parse("# sizes seen\n64 3\n\n4K 1   # pages\n 64 1\n", &d, err, sizeof err) == 0,
	      "plain: %s", err);
	CHECK(d.format == DIST_PLAIN && d.n == 2 && fabs(prob(&d, 64) - 0.8) < 1e-12 &&
	      fabs(prob(&d, 4096) - 0.2) < 1e-12, "plain shape (repeats merge)");
	dist_free(&d);
	/* A comment with a comma does not make it LLVM. */
	CHECK(parse("64 1 # a, b: c\r\n", &d, err, sizeof err) == 0 && d.format == DIST_PLAIN,
	      "plain with punctuation in a comment: %s", err);
	dist_free(&d);
	check_group("dist formats");
}

static void reject(const char *text, const char *msg)
{
	struct dist d;
	char err[300] = "";
	int rc = dist_parse("bad.csv", text, strlen(text), &d, err, sizeof err);
	CHECK(rc < 0, "accepted: '%.40s'", text);
	CHECK(strstr(err, msg) != NULL, "'%.40s': message '%s' lacks '%s'", text, err, msg);
	CHECK(d.n == 0 && d.size == NULL, "not emptied");
}

static void test_errors(void)
{
	reject("", "bad.csv: empty distribution file");
	reject("\n\n  \n# only a comment\n", "bad.csv: empty distribution file");
	reject("0:0.5,8\n", "bad.csv:1: bad entry '8' in the size line (expected SIZE:PROBABILITY)");
	reject("0:0.5,8:\n", "bad.csv:1: bad entry '8:'");
	reject("0:0.5,x:1\n", "bad entry 'x:1'");
	reject("0:-1\n", "bad entry '0:-1'");
	reject("0:nan\n", "bad entry '0:nan'");
	reject("0:inf\n", "bad entry '0:inf'");
	reject("0:1,,8:1\n", "bad.csv:1: empty entry");
	reject("0:0,8:0\n", "no size has a weight above 0");
	reject("8 1e400\n", "bad line '8 1e400'");
	reject("99999999999:1\n", "too large");
	reject("8:1\n0:1\n3:1\n", "bad.csv:3: bad alignment 3");
	reject("8:1\n0:1\n1:0,64:0\n", "bad.csv:3: every alignment has probability 0");
	reject("8:1\n0:1\n64:1\nmore\n", "bad.csv:4: unexpected line");
	reject("8:1\n\n64:1\n", "bad.csv:2: empty overlap line");
	/* A fleetbench file's lines are told by their place: an empty size line
	 * is refused as an empty overlap line is, not skipped to make the
	 * overlap line "0:1" the sizes. */
	reject("\n0:1\n1:0.5,8:0.5\n", "bad.csv:1: empty size line (expected SIZE:PROBABILITY pairs)");
	reject(" \t\r\n8:1\n0:1\n", "bad.csv:1: empty size line");
	reject("# from fleetbench\n\n8:1\n0:1\n", "bad.csv:2: empty size line");
	/* Cut short: in the middle of the sizes, before the alignment line, in
	 * the middle of the last line. */
	reject("0:0.1,8:0.3,16:0.", "bad.csv:1: truncated");
	reject("0:0.1,8:0.3,16:", "bad.csv:1: bad entry '16:'");
	reject("0:0.1,8:0.3\n0:1\n1:0.5,64:0", "bad.csv:3: truncated");
	reject("0.5,0.5,abc\n", "bad.csv:1: bad probability 'abc' for size 2");
	reject("0.5,,0.5\n", "bad.csv:1: empty entry for size 1");
	reject("0.5,0x10\n", "bad probability '0x10'");
	/* "SIZE,WEIGHT" lines are not LLVM's probabilities of sizes 0, 1... */
	reject("64,1\n128,1\n4096,2\n", "bad.csv:1: probability '64' for size 0 is above 1");
	reject("1,64\n", "bad.csv:1: probability '64' for size 1 is above 1");
	reject("64 1\n64\n", "bad.csv:2: bad line '64' (expected SIZE WEIGHT)");
	reject("64 1\n64 1 2\n", "bad.csv:2: bad line '64 1 2'");
	reject("64 one\n", "bad.csv:1: bad line '64 one'");
	reject("12Q 1\n", "bad line '12Q 1'");
	/* Digits past any size are too large, as a size past the limit is. */
	reject("18446744073709551616 1\n",
	       "bad.csv:1: size '18446744073709551616' is too large (at most 67108864)");
	{
		struct dist d;
		char err[300] = "";
		const char *padded = "0000000000000000000000000000000000064 1\n";
		CHECK(dist_parse("p.csv", padded, strlen(padded), &d, err, sizeof err) == 0 &&
		      d.n == 1 && d.size[0] == 64, "zeros in front of a size: %s", err);
		dist_free(&d);
	}
	reject("99999999999999999999999999999999999:1\n0:1\n1:1\n",
	       "size '99999999999999999999999999999999999' is too large");
	/* A file's bytes never reach the terminal raw: an escape sequence is
	 * shown, not obeyed; a long line is cut. */
	reject("64 1\n\x1b[31mred 2\n", "bad.csv:2: bad line '\\x1b[31mred 2' (expected SIZE WEIGHT)");
	reject("64 1\n64 1 \x7f\n", "bad line '64 1 \\x7f'");
	reject("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20\n",
	       "bad line '1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 1...' (expected");
	reject("64 0\n16 0\n", "bad.csv: no size has a weight above 0");
	const char nul[] = "64 1\n\0 1\n";
	struct dist d;
	char err[300];
	CHECK(dist_parse("nul.csv", nul, sizeof nul - 1, &d, err, sizeof err) < 0 &&
	      strstr(err, "nul.csv:2: a NUL byte"), "NUL: %s", err);
	/* A message that does not fit is cut, never overrun. */
	char tiny[8];
	CHECK(dist_parse("bad.csv", "x", 1, &d, tiny, sizeof tiny) < 0 && strlen(tiny) == 7,
	      "short message buffer");
	CHECK(dist_parse("bad.csv", "x", 1, &d, NULL, 0) < 0, "no message buffer");
	check_group("dist errors");
}

static void test_files(void)
{
	char dir[] = "/tmp/ucopy-test-dist-XXXXXX";
	char path[128], err[300];
	struct dist d;
	CHECK(mkdtemp(dir) != NULL, "mkdtemp");
	snprintf(path, sizeof path, "%s/missing.csv", dir);
	CHECK(dist_read_file(path, &d, err, sizeof err) < 0 && strstr(err, "cannot read '") &&
	      strstr(err, "missing.csv': No such file"), "missing: %s", err);
	snprintf(path, sizeof path, "%s/empty.csv", dir);
	FILE *f = fopen(path, "w");
	fclose(f);
	CHECK(dist_read_file(path, &d, err, sizeof err) < 0 && strstr(err, "empty.csv: empty"),
	      "empty: %s", err);
	unlink(path);
	snprintf(path, sizeof path, "%s/ok.csv", dir);
	f = fopen(path, "w");
	/* Bigger than the reader's first buffer, to cross a reallocation. */
	for (int i = 0; i < 20000; i++)
		fprintf(f, "%d %d\n", i, i % 7 + 1);
	fclose(f);
	CHECK(dist_read_file(path, &d, err, sizeof err) == 0 && d.n == 20000 &&
	      d.format == DIST_PLAIN, "big plain file: %s", err);
	dist_free(&d);
	unlink(path);
	CHECK(dist_read_file(dir, &d, err, sizeof err) < 0 && strstr(err, dir) &&
	      strstr(err, "expected a regular file, not a directory"), "a directory: %s", err);
	/* A FIFO with no writer hung the reader in open(); the alarm ends the
	 * test (as a failure) should it come back. */
	snprintf(path, sizeof path, "%s/fifo.csv", dir);
	CHECK(mkfifo(path, 0600) == 0, "mkfifo");
	alarm(10);
	CHECK(dist_read_file(path, &d, err, sizeof err) < 0 && strstr(err, "fifo.csv") &&
	      strstr(err, "not a FIFO)"), "a FIFO: %s", err);
	alarm(0);
	unlink(path);
	CHECK(dist_read_file("/dev/null", &d, err, sizeof err) < 0 &&
	      strstr(err, "not a character device"), "a device: %s", err);
	rmdir(dir);
	check_group("dist files");
}

/* The ten files that ship, found as the command finds them: this test is
 * build/tests/test_dist, two directories below the source tree. */
static void test_fleetbench(void)
{
	static const char *const names[] = { "Memcpy_0.csv", "Memcpy_1.csv", "Memcpy_2.csv",
		"Memcpy_3.csv", "Memcpy_4.csv", "Memcpy_5.csv", "Memcpy_6.csv", "Memcpy_7.csv",
		"Memcpy_8.csv", "Memcpy_Fleet.csv" };
	struct data_dir dd;
	char why[4200] = "";
	char **files = NULL;
	size_t nfiles = 0;
	data_exe_depth = 2;
	int found = data_dir_find(NULL, NULL, &dd, why, sizeof why);
	CHECK(found == 1 && !strcmp(dd.from, "source tree"), "the shipped directory: %s", why);
	if (found == 1)
		nfiles = data_list(dd.path, &files, DATA_MAX_DISTS);
	CHECK(nfiles == 10, "%zu distribution files in %s", nfiles, found == 1 ? dd.path : why);
	for (size_t k = 0; k < nfiles; k++) {
		const char *path = files[k];
		CHECK(k < 10 && !strcmp(strrchr(path, '/') + 1, names[k]), "file %zu: %s", k, path);
		char err[300] = "";
		struct dist d;
		int rc = dist_read_file(path, &d, err, sizeof err);
		CHECK(rc == 0, "%s", err);
		if (rc)
			continue;
		CHECK(d.format == DIST_FLEETBENCH && d.has_align && d.n > 10, "%s: shape", path);
		CHECK(fabs(d.cdf[d.n - 1] - 1) < 1e-12, "%s: cdf ends at 1", path);
		/* Production memcpy sizes are mostly small: mean well under 4 KiB. */
		CHECK(d.mean > 1 && d.mean < 4096 && d.max_size <= DIST_MAX_SIZE, "%s: mean %g",
		      path, d.mean);
		struct copy_seq s;
		CHECK(dist_sample(&d, 1 << 14, 42, &s) == 0, "sample");
		double sum = 0;
		for (size_t i = 0; i < s.len; i++)
			sum += (double)s.op[i].n;
		CHECK(fabs(sum / (double)s.len - d.mean) < 0.25 * d.mean + 16,
		      "%s: sampled mean %g vs %g", path, sum / (double)s.len, d.mean);
		copy_seq_free(&s);
		dist_free(&d);
	}
	data_list_free(files, nfiles);
	check_group("dist fleetbench files");
}

static void test_sample(void)
{
	struct dist d;
	char err[200];
	CHECK(parse("8:0.75,4096:0.25\n0:1\n1:0.5,64:0.5\n", &d, err, sizeof err) == 0, "%s", err);
	struct copy_seq a, b;
	size_t n = 40000;
	CHECK(dist_sample(&d, n, 7, &a) == 0 && dist_sample(&d, n, 7, &b) == 0, "sample");
	CHECK(a.seed == 7 && a.len == n && a.max_n == 4096 && a.max_off <= 63, "fields");
	CHECK(!memcmp(a.op, b.op, n * sizeof *a.op), "a seed replays");
	size_t small = 0, odd = 0, zero = 0, other = 0;
	for (size_t i = 0; i < n; i++) {
		small += a.op[i].n == 8;
		uint32_t o = a.op[i].src_off;
		odd += o & 1;
		zero += o == 0;
		other += o && !(o & 1);
	}
	/* Alignment line: half exactly 1-aligned (odd offsets), half 64 (0). */
	CHECK(fabs((double)small / (double)n - 0.75) < 0.02, "size mix %zu", small);
	CHECK(fabs((double)odd / (double)n - 0.5) < 0.02 && other == 0, "offsets %zu %zu %zu", odd,
	      zero, other);
	CHECK(fabs(a.mean_n - (0.75 * 8 + 0.25 * 4096)) < 40, "mean %g", a.mean_n);
	copy_seq_free(&a);
	copy_seq_free(&b);
	dist_free(&d);

	/* Without an alignment line offsets cover the whole line. */
	CHECK(parse("100 1\n", &d, err, sizeof err) == 0, "%s", err);
	CHECK(dist_sample(&d, 10000, 1, &a) == 0, "sample");
	unsigned seen[64] = { 0 };
	for (size_t i = 0; i < a.len; i++)
		seen[a.op[i].dst_off & 63]++;
	int all = 1;
	for (int i = 0; i < 64; i++)
		all &= seen[i] > 0;
	CHECK(all && a.max_off <= 63 && a.max_n == 100, "uniform offsets");
	copy_seq_free(&a);
	CHECK(dist_sample(&d, 0, 1, &a) < 0, "empty sequence refused");
	dist_free(&d);

	CHECK(copy_seq_fixed(&a, 4352, 0, 1) == 0 && a.len == 1 && a.op[0].n == 4352 &&
	      a.max_off == 1 && a.mean_n == 4352, "fixed");
	copy_seq_free(&a);
	size_t sz[] = { 64, 32 };
	CHECK(copy_seq_sizes(&a, sz, 2) == 0 && a.len == 2 && a.mean_n == 48 && a.max_n == 64,
	      "sizes");
	copy_seq_free(&a);
	check_group("dist sampler");
}

int main(void)
{
	test_formats();
	test_errors();
	test_files();
	test_fleetbench();
	test_sample();
	return check_exit();
}
