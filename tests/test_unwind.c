/*
 * test_unwind.c - every assembly routine carries unwind information: a fault
 * inside a kernel, caught by a handler that unwinds the stack
 * (_Unwind_Backtrace, what glibc's backtrace() and gdb's `bt` rely on),
 * reaches the C function that called the kernel and goes on past it.
 *
 * Both bodies of every kernel the CPU runs, at sizes that fault in each of
 * their paths (the short class, the vector loop, rep movsb), with the
 * source's first byte unreadable.  The library's own fault handler is never
 * installed here (no ucopy_try()), so the fault is this program's.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <unwind.h>

#include "check.h"
#include "ucopy.h"

static sigjmp_buf back;
static volatile int callers, frames;

/* The C function that calls a kernel and the one that calls it, alone in a
 * section of their own: the linker's __start_/__stop_ symbols bound it, so
 * a frame is theirs when its address lies between them.  The unwinder must
 * find both. */
#define CALLERS __attribute__((noinline, section("unwind_callers")))
extern const char __start_unwind_callers[], __stop_unwind_callers[];

static void copy_frame(const struct ucopy_kernel *k, int try, void *dst, const void *src,
		       size_t n) CALLERS;
static void copy_frame(const struct ucopy_kernel *k, int try, void *dst, const void *src,
		       size_t n)
{
	if (try)
		k->try_fn(dst, src, n);
	else
		k->fn(dst, src, n);
	__asm__ volatile("" ::: "memory");   /* not a tail call */
}

static void outer_frame(const struct ucopy_kernel *k, int try, void *dst, const void *src,
			size_t n) CALLERS;
static void outer_frame(const struct ucopy_kernel *k, int try, void *dst, const void *src,
			size_t n)
{
	copy_frame(k, try, dst, src, n);
	__asm__ volatile("" ::: "memory");
}

static _Unwind_Reason_Code one_frame(struct _Unwind_Context *ctx, void *arg)
{
	uintptr_t ip = _Unwind_GetIP(ctx);
	(void)arg;
	frames++;
	if (ip > (uintptr_t)__start_unwind_callers && ip <= (uintptr_t)__stop_unwind_callers)
		callers++;
	return frames > 64 ? _URC_END_OF_STACK : _URC_NO_REASON;
}

static CHECK_HANDLER void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)si;
	(void)uc;
	_Unwind_Backtrace(one_frame, NULL);
	siglongjmp(back, 1);
}

/* --crash: ucopy_memcpy from an unreadable page, no handler: the crash a
 * debugger is to walk back from (tests/cli/unwind.sh, under gdb). */
static int crash(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	static unsigned char dst[8192];
	unsigned char *bad = check_map(page, PROT_NONE);
	ucopy_memcpy(dst, bad, sizeof dst);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--crash"))
		return crash();
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t big = (size_t)1 << 20;
	/* A readable region, then an unreadable one where the copies start. */
	unsigned char *map = check_map(big + page, PROT_READ | PROT_WRITE);
	unsigned char *dst = check_map(big, PROT_READ | PROT_WRITE);
	if (mprotect(map + big, page, PROT_NONE)) {
		perror("mprotect");
		return 2;
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);

	static const size_t sizes[] = { 7, 40, 200, 3000, 70000 };
	const struct ucopy_cpu *cpu = ucopy_cpu();
	int tried = 0;
	/* Volatile: live across the siglongjmp back. */
	for (volatile size_t i = 0; i < ucopy_kernel_count(); i++) {
		const struct ucopy_kernel *k = ucopy_kernel_at(i);
		if (!(k->flags & UCOPY_KERNEL_FAULT_CAPABLE) ||
		    !ucopy_kernel_supported(k, cpu->features))
			continue;
		for (volatile int try = 0; try < 2; try++)
			for (volatile size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
				callers = frames = 0;
				if (!sigsetjmp(back, 1)) {
					outer_frame(k, try, dst, map + big, sizes[s]);
					CHECK(0, "%s (%s body) at %zu bytes did not fault", k->name,
					      try ? "try" : "plain", sizes[s]);
					continue;
				}
				tried++;
				CHECK(callers == 2,
				      "%s (%s body) at %zu bytes: %d frames unwound from the fault, "
				      "%d of the 2 callers among them", k->name, try ? "try" : "plain",
				      sizes[s], frames, callers);
			}
	}
	CHECK(tried > 0, "no kernel faulted");
	check_group("unwind: a fault inside every kernel unwinds to its caller and beyond");
	return check_exit();
}
