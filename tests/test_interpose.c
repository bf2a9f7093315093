/*
 * test_interpose.c - libucopy as the program's memcpy: first use must never
 * copy through memcpy, memmove or a ucopy entry.
 *
 * This program defines memcpy and memmove themselves, forwarding to
 * ucopy_memcpy and ucopy_memmove, as a program (or an LD_PRELOAD
 * interposer, tests/cli/interpose.sh) that adopts ucopy would.  The
 * library, linked statically, then calls this memcpy for any copy it makes
 * through the name.  A copy that re-enters memcpy from inside memcpy in the
 * same thread (outside a signal handler) is resolution copying through the
 * public entries: counted, and a failure.  Before the fix it deadlocked at
 * the first copy (pthread_once on itself), which the alarm turns into a
 * failure.  Each scenario runs in a fresh child, so each sees first use.
 */
#define _GNU_SOURCE
#include "check.h"
#include "ucopy.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

static __thread int depth;
static __thread volatile sig_atomic_t in_handler;
static int *reentered;   /* shared with the parent */

void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	if (depth++ && !in_handler)
		__atomic_fetch_add(reentered, 1, __ATOMIC_RELAXED);
	void *r = ucopy_memcpy(dst, src, n);
	depth--;
	return r;
}

void *memmove(void *dst, const void *src, size_t n)
{
	if (depth++ && !in_handler)
		__atomic_fetch_add(reentered, 1, __ATOMIC_RELAXED);
	void *r = ucopy_memmove(dst, src, n);
	depth--;
	return r;
}

/* A copy the compiler cannot see through: the function from memory.  The
 * buffers are on the stack: a handler copies while the code it interrupted
 * is in the middle of its own check. */
static int copy_checks(size_t n)
{
	unsigned char src[8192], dst[8192];
	for (size_t i = 0; i < n; i++)
		src[i] = (unsigned char)(i * 7 + n);
	void *volatile fn = (void *)memcpy;
	((void *(*)(void *, const void *, size_t))fn)(dst, src, n);
	return memcmp(dst, src, n) == 0;   /* memcmp: not interposed */
}

static void first_copy(void)
{
	errno = 1234;   /* first use looks for a profile: errno stays the program's */
	int ok = copy_checks(100);
	_exit(ok && errno == 1234 && copy_checks(5000) ? 0 : 3);
}

static void *thread_copy(void *arg)
{
	pthread_barrier_t *b = arg;
	pthread_barrier_wait(b);
	unsigned char s[300], d[300];
	for (int i = 0; i < 300; i++)
		s[i] = (unsigned char)i;
	int ok = 1;
	for (size_t n = 0; n < 300; n++) {
		void *volatile fn = (void *)memmove;
		((void *(*)(void *, const void *, size_t))fn)(d, s, n);
		ok &= memcmp(d, s, n) == 0;
	}
	return ok ? NULL : (void *)1;
}

/* Eight threads whose first copies start together. */
static void threads_first(void)
{
	pthread_t t[8];
	pthread_barrier_t b;
	pthread_barrier_init(&b, NULL, 8);
	for (int i = 0; i < 8; i++)
		pthread_create(&t[i], NULL, thread_copy, &b);
	int bad = 0;
	for (int i = 0; i < 8; i++) {
		void *r;
		pthread_join(t[i], &r);
		bad |= r != NULL;
	}
	_exit(bad ? 3 : 0);
}

static volatile sig_atomic_t handler_ok;

CHECK_HANDLER static void copying_handler(int sig)
{
	(void)sig;
	in_handler = 1;
	handler_ok = copy_checks(64) ? 1 : -1;
	in_handler = 0;
}

/* The first copy of the process is made inside a signal handler. */
static void handler_first(void)
{
	signal(SIGUSR1, copying_handler);
	raise(SIGUSR1);
	_exit(handler_ok == 1 && copy_checks(200) ? 0 : 3);
}

/* A timer whose handler copies keeps interrupting the first use (which it
 * may catch in the middle of resolving). */
static void handler_interrupts(void)
{
	signal(SIGALRM, copying_handler);
	struct itimerval it = { { 0, 20 }, { 0, 20 } };
	setitimer(ITIMER_REAL, &it, NULL);
	int ok = 1;
	for (int i = 0; i < 200; i++)
		ok &= copy_checks((size_t)i * 37 % 8000);
	it.it_value.tv_usec = 0;
	setitimer(ITIMER_REAL, &it, NULL);
	_exit(ok && handler_ok != -1 ? 0 : 3);
}

/* fork() before the first copy: parent and child each resolve. */
static void fork_first(void)
{
	pid_t pid = fork();
	if (pid == 0)
		_exit(copy_checks(1000) ? 0 : 3);
	int ok = copy_checks(1000), st = 0;
	waitpid(pid, &st, 0);
	_exit(ok && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 3);
}

/* ucopy_try's first use, from a handler too. */
CHECK_HANDLER static void try_first_in_handler_fn(int sig)
{
	(void)sig;
	in_handler = 1;
	unsigned char buf[64];
	unsigned char *m = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	mprotect(m + 4096, 4096, PROT_NONE);
	handler_ok = ucopy_try(buf, m + 4096 - 10, 64) == 54 ? 1 : -1;
	in_handler = 0;
}

static void try_first_in_handler(void)
{
	signal(SIGUSR1, try_first_in_handler_fn);
	raise(SIGUSR1);
	_exit(handler_ok == 1 && copy_checks(300) ? 0 : 3);
}

static void run(const char *name, void (*fn)(void))
{
	*reentered = 0;
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		alarm(20);   /* a deadlock ends as SIGALRM */
		fn();
	}
	int st = 0;
	waitpid(pid, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s: status %#x%s", name, st,
	      WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM ? " (hung: SIGALRM)" : "");
	CHECK(*reentered == 0, "%s: memcpy re-entered %d times from inside a copy", name,
	      *reentered);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	reentered = mmap(NULL, sizeof *reentered, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (reentered == MAP_FAILED)
		return 2;
	/* The parent makes no copy through the library: every child starts
	 * at first use. */
	run("first copy", first_copy);
	run("8 threads at once", threads_first);
	run("first copy in a signal handler", handler_first);
	run("first copy fork()ed", fork_first);
	run("ucopy_try first used in a signal handler", try_first_in_handler);
	for (int i = 0; i < 10; i++)
		run("first use under a copying timer", handler_interrupts);
	check_group("interpose: a program whose memcpy and memmove are ucopy's");
	return check_exit();
}
