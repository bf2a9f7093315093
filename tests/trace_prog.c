/*
 * trace_prog.c - copies known sizes at known alignments and distances in a
 * known order, in two threads, for tests/cli/trace.sh: `ucopy trace` of it
 * must report exactly these calls.  The second thread starts after the main
 * thread's copies, so it is thread 1.  Nothing else here copies through the
 * interposable names (no stdio; -fno-builtin keeps the calls calls).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

/* src and dst 64 KiB apart: (dst - src) mod 4096 is dst_off - src_off. */
static unsigned char area[3 << 16] __attribute__((aligned(4096)));
#define SRC (area)
#define DST (area + (1 << 16))

enum fn { CPY, MOVE, PCPY };
struct call {
	enum fn fn;
	size_t n;
	unsigned src_off, dst_off;
};

static const struct call main_calls[] = {
	{ CPY, 0, 0, 0 }, { CPY, 7, 1, 3 }, { CPY, 64, 0, 64 },
	{ CPY, 1000, 5, 4000 }, { MOVE, 200, 10, 20 }, { PCPY, 33, 63, 62 },
	{ CPY, 4096, 33, 17 },
};
static const struct call thread_calls[] = {
	{ CPY, 1, 2, 1 }, { CPY, 50000, 0, 4095 }, { MOVE, 16, 60, 4 },
};

static void run(const struct call *c, size_t n)
{
	void *(*volatile cpy)(void *, const void *, size_t) = memcpy;
	void *(*volatile move)(void *, const void *, size_t) = memmove;
	void *(*volatile pcpy)(void *, const void *, size_t) = mempcpy;
	for (size_t i = 0; i < n; i++) {
		unsigned char *s = SRC + c[i].src_off, *d = DST + c[i].dst_off;
		if (c[i].fn == MOVE)    /* overlapping, within the source area */
			d = SRC + c[i].dst_off;
		(c[i].fn == CPY ? cpy : c[i].fn == MOVE ? move : pcpy)(d, s, c[i].n);
	}
}

static void *second(void *arg)
{
	(void)arg;
	run(thread_calls, sizeof thread_calls / sizeof thread_calls[0]);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	/* "big": one copy past the 64 MiB a replay or a distribution takes,
	 * then one that fits. */
	if (argc > 1 && !strcmp(argv[1], "big")) {
		size_t n = ((size_t)64 << 20) + 1;
		void *(*volatile cpy)(void *, const void *, size_t) = memcpy;
		unsigned char *b = mmap(NULL, 2 * n, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (b == MAP_FAILED)
			return 1;
		cpy(b + n, b, n);
		cpy(b + n, b, 64);
		return 0;
	}
	run(main_calls, sizeof main_calls / sizeof main_calls[0]);
	if (pthread_create(&t, NULL, second, NULL) != 0)
		return 1;
	pthread_join(t, NULL);
	return 0;
}
