/*
 * test_valgrind.c - faulting fault-tolerant copies under valgrind.
 *
 * valgrind does not keep the registers exact at a faulting access (only
 * SP and PC by default), so a fixup that reads the cursors from them
 * returned wrong counts (4899 for 4900) or crashed.  ucopy detects valgrind
 * and copies without signals there (lib/fault.c).  This program runs its
 * own copies under valgrind when valgrind is installed (a SKIP otherwise)
 * and checks their counts.
 */
#define _GNU_SOURCE
#include "check.h"
#include "internal.h"
#include "ucopy.h"

#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHILD_ARG "--under-valgrind"

/* The copies, under valgrind: exit 0 when every count is right. */
static int child(void)
{
	/* A program may clear its environment: valgrind is still there. */
	unsetenv("LD_PRELOAD");
	if (!ucopy_under_valgrind() || !ucopy_valgrind_core_loaded()) {
		printf("  under valgrind: ucopy_under_valgrind %d, core loaded %d\n",
		       ucopy_under_valgrind(), ucopy_valgrind_core_loaded());
		return 1;
	}
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *m = check_map(4 * page, PROT_READ | PROT_WRITE);
	memset(m, 0x33, 4 * page);
	mprotect(m + 2 * page, page, PROT_NONE);
	unsigned char *edge = m + 2 * page, buf[6000];
	static const size_t cases[][2] = { /* n, readable */
		{ 16, 8 }, { 5000, 100 }, { 64, 0 }, { 4096, 4095 }, { 300, 299 } };
	int bad = 0;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		size_t n = cases[i][0], ok = cases[i][1];
		size_t r = ucopy_try(buf, edge - ok, n);
		if (r != n - ok) {
			printf("  ucopy_try of %zu bytes, %zu readable: returned %zu, want %zu\n",
			       n, ok, r, n - ok);
			bad = 1;
		}
		r = ucopy_try(edge - ok, buf, n);
		if (r != n - ok) {
			printf("  ucopy_try of %zu bytes, %zu writable: returned %zu, want %zu\n",
			       n, ok, r, n - ok);
			bad = 1;
		}
	}
	return bad;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], CHILD_ARG))
		return child();
	if (argc > 1 && !strcmp(argv[1], "--probe"))
		return 0;
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* Natively: valgrind is not seen, whatever LD_PRELOAD's text says (a
	 * path with "vgpreload" in it once sent every ucopy_try through a
	 * system call), and its core is not loaded. */
	setenv("LD_PRELOAD", "/nowhere/vgpreload_core-amd64-linux.so", 1);
	CHECK(!ucopy_under_valgrind(), "natively, LD_PRELOAD naming valgrind's core: "
	      "ucopy_under_valgrind() says valgrind");
	CHECK(!ucopy_valgrind_core_loaded(), "natively: valgrind's core is loaded?");
	unsetenv("LD_PRELOAD");
	check_group("valgrind: not seen natively, whatever LD_PRELOAD says");
	if (system("valgrind --version >/dev/null 2>&1") != 0) {
		check_skip("valgrind", "valgrind is not installed");
		return 0;
	}
#if defined(__SANITIZE_ADDRESS__)
	check_skip("valgrind", "a sanitized build cannot run under valgrind");
	return 0;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
	check_skip("valgrind", "a sanitized build cannot run under valgrind");
	return 0;
#endif
#endif
	char cmd[4200];
	/* valgrind 3.19 gives up on clang 14's DWARF 5 debug information:
	 * whether it runs this program at all is checked first. */
	snprintf(cmd, sizeof cmd, "valgrind -q --log-file=/dev/null %s --probe", argv[0]);
	fflush(stdout);
	if (system(cmd) != 0) {
		check_skip("valgrind", "valgrind cannot run this build (its debug information?)");
		return 0;
	}
	snprintf(cmd, sizeof cmd, "valgrind -q --log-file=/dev/null %s " CHILD_ARG, argv[0]);
	int st = system(cmd);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "under valgrind: status %#x", st);
	check_group("valgrind: seen (the client request and the loaded core), and faulting "
		    "ucopy_try returns exact counts");
	return check_exit();
}
