/*
 * preload_prog.c - what tests/cli/preload.sh runs under
 * libucopy-preload.so: copies before main (a constructor), from four
 * threads at once, in a forked child, through the _chk forms; each copy
 * checked byte for byte.  "chk-overflow" makes a __memcpy_chk that
 * overflows its destination, which must end the process as glibc's
 * __chk_fail does.  Prints which object its memcpy is (dladdr), which
 * object the memcpy of a library it dlopens (argv[1], when given) is, and
 * "ok".
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

void *__memcpy_chk(void *dst, const void *src, size_t n, size_t destlen);
void *__memmove_chk(void *dst, const void *src, size_t n, size_t destlen);
void *__mempcpy_chk(void *dst, const void *src, size_t n, size_t destlen);

static int before_main_ok;

/* Copies n bytes at offsets so and do with each entry, checks, returns 0. */
static int check_copy(size_t n, size_t so, size_t dof, unsigned seed)
{
	static __thread unsigned char src[1 << 17], dst[1 << 17];
	for (size_t i = 0; i < n + so; i++)
		src[i] = (unsigned char)(i * 31 + seed);
	void *(*volatile cpy)(void *, const void *, size_t) = memcpy;
	void *(*volatile move)(void *, const void *, size_t) = memmove;
	void *(*volatile pcpy)(void *, const void *, size_t) = mempcpy;
	if (cpy(dst + dof, src + so, n) != dst + dof || memcmp(dst + dof, src + so, n))
		return 1;
	if (pcpy(dst + dof, src + so, n) != dst + dof + n)
		return 1;
	if (__memcpy_chk(dst + dof, src + so, n, n) != dst + dof ||
	    memcmp(dst + dof, src + so, n))
		return 1;
	/* overlapping, both ways */
	memcpy(dst, src, n + so);
	move(dst + so, dst, n);
	if (memcmp(dst + so, src, n))
		return 1;
	memcpy(dst, src, n + so);
	if (__memmove_chk(dst, dst + so, n, sizeof dst) != dst || memcmp(dst, src + so, n))
		return 1;
	if (__mempcpy_chk(dst, src, n, sizeof dst) != dst + n)
		return 1;
	return 0;
}

static int sweep(unsigned seed)
{
	int bad = 0;
	for (size_t n = 0; n < 600; n++)
		bad |= check_copy(n, n % 64, (n * 7) % 64, seed);
	for (size_t n = 600; n < (1 << 16); n = n * 3 / 2 + 1)
		bad |= check_copy(n, n % 61, n % 59, seed);
	return bad;
}

__attribute__((constructor)) static void early(void)
{
	before_main_ok = !sweep(1);
}

static void *worker(void *arg)
{
	int bad = 0;
	for (int r = 0; r < 20; r++)
		bad |= sweep((unsigned)(uintptr_t)arg + (unsigned)r);
	return (void *)(uintptr_t)bad;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "chk-overflow")) {
		char src[64] = "0123456789abcdef0123456789abcdef";
		char dst[64];
		__memcpy_chk(dst, src, 32, 16);
		puts("not stopped");
		return 0;
	}
	Dl_info info;
	void *volatile fn = (void *)memcpy;
	if (dladdr(fn, &info) && info.dli_fname)
		printf("memcpy is in %s\n", info.dli_fname);
	if (argc > 1) {
		void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
		const char *(*dl_copy)(void *, const void *, size_t) =
			h ? (const char *(*)(void *, const void *, size_t))dlsym(h, "dl_copy") : NULL;
		char a[300], b[300];
		for (int i = 0; i < 300; i++)
			a[i] = (char)i;
		if (!dl_copy) {
			printf("FAIL: cannot load %s: %s\n", argv[1], dlerror());
			return 1;
		}
		const char *where = dl_copy(b, a, 300);
		if (memcmp(a, b, 300)) {
			puts("FAIL: a copy in a dlopen'ed library");
			return 1;
		}
		printf("the dlopen'ed library's memcpy is in %s\n", where);
	}
	if (!before_main_ok) {
		puts("FAIL: a copy before main");
		return 1;
	}
	pthread_t t[4];
	for (int i = 0; i < 4; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)(uintptr_t)(i * 100)))
			return 1;
	int bad = 0;
	for (int i = 0; i < 4; i++) {
		void *r;
		pthread_join(t[i], &r);
		bad |= r != NULL;
	}
	if (bad) {
		puts("FAIL: a copy in a thread");
		return 1;
	}
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0)
		_exit(sweep(7));
	int st;
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
		puts("FAIL: a copy in a forked child");
		return 1;
	}
	puts("ok");
	return 0;
}
