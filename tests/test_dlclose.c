/*
 * test_dlclose.c - unloading libucopy.so leaves no disposition pointing
 * into unmapped code.
 *
 * An application installs its SIGSEGV handler, dlopens libucopy.so (from
 * $B, the build directory make check runs), makes a faulting ucopy_try (so
 * ucopy's handler goes in on top of the application's) and dlcloses it.
 * The next fault outside ucopy must still reach the application's handler;
 * without -z nodelete it jumps into unmapped code and the process dies.
 */
#define _GNU_SOURCE
#include "check.h"

#include <dlfcn.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static sigjmp_buf jmp;
static volatile sig_atomic_t ran;

CHECK_HANDLER static void app_handler(int sig)
{
	ran = sig;
	siglongjmp(jmp, 1);
}

static void child(const char *lib)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = app_handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);

	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		printf("  dlopen %s: %s\n", lib, dlerror());
		_exit(2);
	}
	size_t (*try)(void *, const void *, size_t) =
		(size_t (*)(void *, const void *, size_t))dlsym(h, "ucopy_try");
	if (!try)
		_exit(3);
	char buf[16];
	volatile char *bad = check_map(4096, PROT_NONE);
	if (try(buf, (const void *)bad, 16) != 16)
		_exit(4);
	if (dlclose(h) != 0)
		_exit(5);
	if (sigsetjmp(jmp, 1) == 0) {
		(void)*bad;
		_exit(6);
	}
	_exit(ran == SIGSEGV ? 42 : 7);
}

int main(void)
{
	char lib[4096];
	const char *b = getenv("B");
	snprintf(lib, sizeof lib, "%s/libucopy.so", b && *b ? b : "build");
	if (access(lib, R_OK) != 0) {
		check_skip("dlclose", "no libucopy.so in $B");
		return 0;
	}
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0)
		child(lib);
	int st = 0;
	waitpid(pid, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 42,
	      "the fault after dlclose: status %#x (want exit 42: the application's handler)", st);
	check_group("dlclose: faults still reach the application's handler after unloading");
	return check_exit();
}
