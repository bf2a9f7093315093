/*
 * check.h - the unit tests' harness.
 *
 * A test program reports one line per check group: "PASS name", "FAIL name:
 * what" or "SKIP name: why".  tests/run.sh adds them up.  CHECK() records a
 * failure with its location and the first few are printed; the program's exit
 * status is non-zero when anything failed.
 */
#ifndef UCOPY_TEST_CHECK_H
#define UCOPY_TEST_CHECK_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

static int check_failures;   /* in the current group */
static int check_failed_groups;

static void check_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), unused));
static void check_fail(const char *file, int line, const char *fmt, ...)
{
	if (check_failures++ < 10) {
		va_list ap;
		fprintf(stdout, "  %s:%d: ", file, line);
		va_start(ap, fmt);
		vfprintf(stdout, fmt, ap);
		va_end(ap);
		fputc('\n', stdout);
	}
}

/* CHECK(cond, fmt, ...): records a failure (with the message) unless cond. */
#define CHECK(cond, ...) \
	do { if (!(cond)) check_fail(__FILE__, __LINE__, __VA_ARGS__); } while (0)

/* Ends a group: prints PASS or FAIL and resets the failure count. */
static void __attribute__((unused)) check_group(const char *name)
{
	if (check_failures) {
		printf("FAIL %s: %d failed check%s\n", name, check_failures,
		       check_failures == 1 ? "" : "s");
		check_failed_groups++;
	} else {
		printf("PASS %s\n", name);
	}
	check_failures = 0;
	fflush(stdout);
}

static void __attribute__((unused)) check_skip(const char *name, const char *why)
{
	printf("SKIP %s: %s\n", name, why);
	fflush(stdout);
}

static int __attribute__((unused)) check_exit(void)
{
	return check_failed_groups ? 1 : 0;
}

/* A test's signal handler: on x86-64 it realigns the stack on entry, as
 * ucopy's own does (lib/arch.h, UCOPY_ARCH_HANDLER), since qemu-user enters
 * handlers 8 bytes off the ABI's alignment and the compiler's aligned
 * vector moves on the stack would fault there. */
#if defined(__x86_64__) || defined(__i386__)
#define CHECK_HANDLER __attribute__((force_align_arg_pointer))
#else
#define CHECK_HANDLER
#endif

/* Anonymous pages with protection prot; exits (status 2) when the system
 * has none to give, which is no test result. */
static __attribute__((unused)) void *check_map(size_t len, int prot)
{
	void *p = mmap(NULL, len, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	return p;
}

/* splitmix64: one 64-bit state, so a run replays from its printed seed. */
static uint64_t __attribute__((unused)) check_rnd(uint64_t *state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15u);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
	return z ^ (z >> 31);
}

#endif
