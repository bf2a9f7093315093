/*
 * trace_robust_prog.c - the cases of tests/cli/trace_robust.sh, one per
 * argument:
 *   threads N  N threads, one after another, each copying once; then prints
 *              the number of lines of /proc/self/maps (the interposer's
 *              record space must not take a mapping per thread).
 *   longjmp K  a copy out of a PROT_NONE page faults, the SIGSEGV handler
 *              siglongjmps out of it, then K copies: all K must be recorded.
 *   copies N   N copies in the main thread.
 * -fno-builtin keeps the copies calls to the interposed names.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static void *(*volatile cpy)(void *, const void *, size_t) = memcpy;
static unsigned char a[4096], b[4096];
static sigjmp_buf back;

static void *one_copy(void *arg)
{
	(void)arg;
	cpy(a, b, 2027);     /* a size the tools around it are unlikely to copy */
	return NULL;
}

static int threads(long n)
{
	for (long i = 0; i < n; i++) {
		pthread_t t;
		if (pthread_create(&t, NULL, one_copy, NULL) != 0 || pthread_join(t, NULL) != 0)
			return 1;
	}
	/* Counted with read(2) alone: stdio would copy through the interposer. */
	int fd = open("/proc/self/maps", O_RDONLY);
	if (fd < 0)
		return 1;
	long lines = 0;
	char buf[4096];
	ssize_t r;
	while ((r = read(fd, buf, sizeof buf)) > 0)
		for (ssize_t i = 0; i < r; i++)
			lines += buf[i] == '\n';
	close(fd);
	printf("%ld\n", lines);
	return 0;
}

static void on_segv(int sig)
{
	(void)sig;
	siglongjmp(back, 1);
}

static int longjmp_out(long k)
{
	unsigned char *none = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (none == MAP_FAILED)
		return 1;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_segv;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, NULL) != 0)
		return 1;
	if (!sigsetjmp(back, 1)) {
		cpy(a, none, 100);
		return 2;       /* the copy did not fault: the case was not tested */
	}
	for (long i = 0; i < k; i++)
		cpy(a, b, 777);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "threads"))
		return threads(atol(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "longjmp"))
		return longjmp_out(atol(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "copies")) {
		for (long i = atol(argv[2]); i > 0; i--)
			one_copy(NULL);
		return 0;
	}
	fprintf(stderr, "usage: trace_robust_prog threads N | longjmp K | copies N\n");
	return 2;
}
