/*
 * test_sizespec.c - sizes and size lists as users type them.
 */
#include "check.h"
#include "sizespec.h"

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static void expect(const char *spec, const size_t *want, size_t n)
{
	struct sizes s;
	char err[200] = "";
	int rc = sizespec_parse(spec, NULL, 0, 0, &s, err, sizeof err);
	CHECK(rc == 0, "'%s': %s", spec, err);
	if (rc)
		return;
	CHECK(s.n == n, "'%s': %zu sizes, want %zu", spec, s.n, n);
	for (size_t i = 0; i < n && i < s.n; i++)
		CHECK(s.v[i] == want[i], "'%s'[%zu] = %zu, want %zu", spec, i, s.v[i], want[i]);
	sizes_free(&s);
}

static void reject_as(const char *noun, size_t max, const char *spec, const char *msg)
{
	struct sizes s;
	char err[200] = "";
	int rc = sizespec_parse(spec, noun, 1000, max, &s, err, sizeof err);
	CHECK(rc < 0, "'%s' accepted", spec);
	CHECK(strstr(err, msg) != NULL, "'%s': message '%s' lacks '%s'", spec, err, msg);
	CHECK(s.v == NULL && s.n == 0, "'%s': not emptied", spec);
}

static void reject(const char *spec, const char *msg)
{
	reject_as(NULL, (size_t)1 << 30, spec, msg);
}

/* One SIZE is the library's (test_text.c tests ucopy_size_parse()): a list
 * item quotes its message. */
static void test_one_size(void)
{
	static const size_t four_k[] = { 4096 };
	expect("4k", four_k, 1);
	expect("4K", four_k, 1);
	reject("18446744073709551616", "size '18446744073709551616' is too large");
	reject("4KB", "bad size '4KB' (expected a number with optional K, M or G)");
	check_group("sizespec one size");
}

static void test_lists(void)
{
	expect("64", (size_t[]){ 64 }, 1);
	expect("64,4K,1M", (size_t[]){ 64, 4096, 1 << 20 }, 3);
	expect("1-5", (size_t[]){ 1, 2, 3, 4, 5 }, 5);
	expect("1K-16K:x2", (size_t[]){ 1024, 2048, 4096, 8192, 16384 }, 5);
	expect("1-64:+8", (size_t[]){ 1, 9, 17, 25, 33, 41, 49, 57 }, 8);
	expect("0-16:+8", (size_t[]){ 0, 8, 16 }, 3);
	expect("100-400:x1.5", (size_t[]){ 100, 150, 225, 338 }, 4);
	expect("1-3:x1.1", (size_t[]){ 1, 2, 3 }, 3);  /* always moves on */
	expect("5-5", (size_t[]){ 5 }, 1);
	expect("8,1-9:x2,8", (size_t[]){ 8, 1, 2, 4 }, 4);  /* first place kept */
	expect("1K-1M:x2,64", (size_t[]){ 1024, 2048, 4096, 8192, 16384, 32768, 65536,
					  131072, 262144, 524288, 1048576, 64 }, 12);
	check_group("sizespec lists");
}

static void test_errors(void)
{
	reject("", "empty size list");
	reject(",", "empty item");
	reject("1,,2", "empty item");
	reject("1-2,", "empty item");
	reject("12Q", "bad size '12Q' (expected a number with optional K, M or G)");
	reject("64,4X", "bad size '4X'");
	reject("256-1", "bad range '256-1' (the end is below the start)");
	reject("1-", "bad size '1-' (expected a number with optional K, M or G, or a range");
	reject("-5", "bad size '-5' (expected a number with optional K, M or G, or a range");
	reject("64,-", "bad size '-'");
	reject("1-8:x1", "bad step 'x1'");
	reject("1-8:x", "bad step 'x'");
	reject("1-8:+0", "bad step '+0'");
	reject("1-8:y2", "bad step 'y2'");
	reject("1-8:xnan", "bad step 'xnan'");
	reject("0-8:x2", "cannot start at 0");
	reject("1-100000", "too many sizes (at most 1000)");
	reject("2G", "too large");
	/* The range's end is checked before it is expanded (max 1000 sizes). */
	reject("1-2G", "size 2147483648 is too large (at most 1073741824)");
	reject("1-2-3", "bad size '2-3'");
	/* The limits' messages name what the numbers are (bench's offsets). */
	reject_as("offset", 4095, "0,5000", "offset 5000 is too large (at most 4095)");
	reject_as("offset", 4095, "0-10G", "offset 10737418240 is too large (at most 4095)");
	reject_as("offset", 4095, "0-4095,1-999:+1", "too many offsets (at most 1000)");
	check_group("sizespec errors");
}

/* err is the parser's to write on failure only: a list that parses does not
 * read it (bench passed an uninitialised buffer, and the parser ran strlen
 * over it).  Here err holds no NUL and ends where an inaccessible page
 * begins, so that reading it faults: in a child, which says so. */
static void test_err_unread(void)
{
	static const char *const good[] = { "64", "1-8:x2", "0,4095", "1K-2K:+1K" };
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	char *m = check_map(2 * page, PROT_READ | PROT_WRITE);
	CHECK(mprotect(m + page, page, PROT_NONE) == 0, "mprotect");
	char *err = m + page - 64;
	memset(err, 'x', 64);
	for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
		fflush(stdout);
		pid_t pid = fork();
		if (pid == 0) {
			struct sizes s;
			int rc = sizespec_parse(good[i], "offset", 0, 4095, &s, err, 64);
			_exit(rc == 0 && err[0] == 'x' && err[63] == 'x' ? 0 : 1);
		}
		int st = 0;
		CHECK(pid > 0 && waitpid(pid, &st, 0) == pid, "fork");
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "'%s': %s", good[i],
		      WIFSIGNALED(st) ? "killed by a signal: err was read past its end"
				      : "refused, or err written");
	}
	munmap(m, 2 * page);
	check_group("sizespec: err not read when the list parses");
}

int main(void)
{
	test_one_size();
	test_lists();
	test_errors();
	test_err_unread();
	return check_exit();
}
