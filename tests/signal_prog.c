/*
 * signal_prog.c - two programs a user wrote, built by tests/cli/signal_prog.sh
 * at -O0, -O1 and -O2 against libucopy.a and libucopy.so, since whether a
 * stale record of a passed-on fault met the next fault's frame depended on
 * the caller's stack layout (it passed at -O2 only).
 *
 *   signal_prog first   an application handler installed before ucopy's:
 *                       ucopy_try recovers its own fault, then the
 *                       application's own write fault reaches its handler
 *   signal_prog leave   a handler that leaves ucopy's pass-on by siglongjmp,
 *                       then a handler over ucopy's that chains to it: both
 *                       faults recovered
 *
 * Exit 0 when every fault reached the handler it should have.
 *
 *   signal_prog two A.so B.so
 *                       two copies of ucopy (tests/signal_copy.c) and a
 *                       handler that chains, in a cycle: copy A, the
 *                       chain, copy B, copy A again.  A fault must end the
 *                       process by SIGSEGV after one call of the chain
 *                       (exit 9: it went round).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include "ucopy.h"

static sigjmp_buf jb;
static volatile int ran;
static char *guard;
static struct sigaction prev;

static void app(int s)
{
	(void)s;
	ran++;
	siglongjmp(jb, 1);
}

static void h1(int s, siginfo_t *i, void *c)
{
	(void)s;
	(void)i;
	(void)c;
	ran++;
	siglongjmp(jb, 1);
}

static void h2(int s, siginfo_t *i, void *c)
{
	prev.sa_sigaction(s, i, c);
}

static void probe(void)
{
	if (!sigsetjmp(jb, 1))
		*(volatile char *)guard = 1;
}

static int first(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = app;
	sigaction(SIGSEGV, &sa, 0);
	char *m = mmap(0, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return 2;
	mprotect(m + 4096, 4096, PROT_NONE);
	char d[16];
	if (ucopy_try(d, m + 4092, 8) != 4)
		return 3;
	if (!sigsetjmp(jb, 1))
		*(volatile char *)(m + 4096) = 1;
	return ran == 1 ? 0 : 4;
}

static int leave(void)
{
	guard = mmap(0, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (guard == MAP_FAILED)
		return 2;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = h1;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, 0);
	if (ucopy_fault_init() != 0)
		return 5;
	probe();
	sa.sa_sigaction = h2;
	sigaction(SIGSEGV, &sa, &prev);
	probe();
	return ran == 2 ? 0 : 4;
}

static void chain_once(int s, siginfo_t *i, void *c)
{
	if (ran++)
		_exit(9);
	prev.sa_sigaction(s, i, c);
}

static int two(const char *a_path, const char *b_path)
{
	void *a = dlopen(a_path, RTLD_NOW | RTLD_LOCAL);
	void *b = dlopen(b_path, RTLD_NOW | RTLD_LOCAL);
	int (*a_init)(void) = a ? (int (*)(void))dlsym(a, "a_fault_init") : NULL;
	int (*b_init)(void) = b ? (int (*)(void))dlsym(b, "b_fault_init") : NULL;
	if (!a_init || !b_init || a_init() || b_init())
		return 7;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = chain_once;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, &prev);
	if (a_init())
		return 8;
	guard = mmap(0, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	*(volatile char *)guard = 1;
	return 4;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "two"))
		return two(argv[2], argv[3]);
	if (argc == 2 && !strcmp(argv[1], "first"))
		return first();
	if (argc == 2 && !strcmp(argv[1], "leave"))
		return leave();
	return 2;
}
