/*
 * fault.c - fault-tolerant copies: the exception table and the signal handler.
 *
 * The Linux kernel's mechanism, in user space.  Every kernel is built twice
 * (kernels/<arch>/README.md): a plain body for ucopy_memcpy, with no
 * exception table entries, and a try body, run only by the fault-tolerant
 * copies, whose every instruction that may fault is listed with a fixup
 * address in the section ucopy_extable.  So a thread faulted inside a
 * fault-tolerant copy exactly when its PC is in the table: the per-thread
 * "inside" flag is the PC itself.  A SIGSEGV or SIGBUS that the kernel
 * raised at a listed instruction is answered by moving the thread's PC to
 * the fixup, which finishes the copy byte by byte up to the faulting byte
 * and returns the count not copied.  Any other signal goes where it would
 * have gone without ucopy.  The fast path is the kernel itself: no
 * sigsetjmp, no system call, no thread-local store, no extra call.
 */
#define _GNU_SOURCE
#include "internal.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <ucontext.h>

static const int signals[2] = { SIGSEGV, SIGBUS };
/* The handlers ucopy displaced, one per entry of signals[]. */
static struct sigaction previous[2];
unsigned char ucopy_try_ready;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t sorted = PTHREAD_ONCE_INIT;

/* The linker lays entries out in object order, not address order: sort once
 * (a few hundred entries, before any handler can search them). */
static void sort_extable(void)
{
	struct extable_entry *t = __start_ucopy_extable;
	size_t n = (size_t)(__stop_ucopy_extable - __start_ucopy_extable);
	for (size_t i = 1; i < n; i++) {
		struct extable_entry e = t[i];
		size_t j = i;
		for (; j > 0 && t[j - 1].insn > e.insn; j--)
			t[j] = t[j - 1];
		t[j] = e;
	}
}

/* Binary search: async-signal-safe, no locks, no allocation. */
static uintptr_t extable_fixup(uintptr_t pc)
{
	const struct extable_entry *t = __start_ucopy_extable;
	size_t lo = 0, hi = (size_t)(__stop_ucopy_extable - __start_ucopy_extable);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t[mid].insn == pc)
			return t[mid].fixup;
		if (t[mid].insn < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static uintptr_t *context_pc(void *ctx)
{
	ucontext_t *uc = ctx;
#if defined(__x86_64__)
	return (uintptr_t *)&uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
	return (uintptr_t *)&uc->uc_mcontext.pc;
#else
#error "fault.c: no program counter for this architecture"
#endif
}

static void restore_default(int sig)
{
	struct sigaction dfl;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
}

/* Delivers the signal as if ucopy had never installed a handler. */
static void pass_on(int sig, siginfo_t *si, void *ctx)
{
	struct sigaction *old = &previous[sig == SIGBUS];
	int from_kernel = si->si_code > 0;

	if (old->sa_handler == SIG_DFL || old->sa_handler == SIG_IGN) {
		/* A signal someone sent and the application ignores stays
		 * ignored.  Otherwise the default action: the kernel does
		 * the same for an ignored fault (force_sig resets it).  On
		 * return the faulting instruction runs again and kills the
		 * process with the original signal; a sent one is raised
		 * again and delivered once this handler returns. */
		if (old->sa_handler == SIG_IGN && !from_kernel)
			return;
		restore_default(sig);
		if (!from_kernel)
			raise(sig);
		return;
	}

	sigset_t saved;
	pthread_sigmask(SIG_BLOCK, &old->sa_mask, &saved);
	if (old->sa_flags & SA_SIGINFO)
		old->sa_sigaction(sig, si, ctx);
	else
		old->sa_handler(sig);
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	if (old->sa_flags & SA_RESETHAND)
		old->sa_handler = SIG_DFL;
}

static void handler(int sig, siginfo_t *si, void *ctx)
{
	/* si_code > 0: raised by the kernel for an access, not sent by
	 * kill/raise/sigqueue, which must not redirect a copy. */
	if (si->si_code > 0) {
		uintptr_t *pc = context_pc(ctx);
		uintptr_t fixup = extable_fixup(*pc);
		if (fixup) {
			*pc = fixup;
			return;
		}
	}
	pass_on(sig, si, ctx);
}

static int is_ours(const struct sigaction *sa)
{
	return (sa->sa_flags & SA_SIGINFO) && sa->sa_sigaction == handler;
}

int ucopy_fault_init(void)
{
	int rc = 0;
	pthread_once(&sorted, sort_extable);
	/* Compiles the policy ucopy_try_enable() publishes. */
	ucopy_active();
	pthread_mutex_lock(&lock);
	for (int i = 0; i < 2 && rc == 0; i++) {
		struct sigaction cur, sa;
		if (sigaction(signals[i], NULL, &cur) != 0) {
			rc = -1;
			break;
		}
		if (is_ours(&cur))
			continue;
		memset(&sa, 0, sizeof sa);
		sa.sa_sigaction = handler;
		sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
		sigemptyset(&sa.sa_mask);
		/* Record the displaced handler before ours can run. */
		previous[i] = cur;
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		if (sigaction(signals[i], &sa, NULL) != 0)
			rc = -1;
	}
	if (rc == 0) {
		ucopy_try_enable();
		__atomic_store_n(&ucopy_try_ready, 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

int ucopy_fault_installed(void)
{
	for (int i = 0; i < 2; i++) {
		struct sigaction cur;
		if (sigaction(signals[i], NULL, &cur) != 0 || !is_ours(&cur))
			return 0;
	}
	return 1;
}

/* ucopy_try before the first fault-tolerant copy: nothing is copied if the
 * handler cannot be installed, since a fault would then kill the process,
 * which is exactly what the caller asked ucopy to prevent. */
size_t ucopy_try_cold(void *dst, const void *src, size_t n)
{
	if (ucopy_fault_init() != 0)
		return n;
	return ucopy_try_local(dst, src, n);
}

size_t ucopy_from(void *dst, const void *src, size_t n)
{
	size_t left = ucopy_try_local(dst, src, n);
	if (unlikely(left))
		memset((char *)dst + (n - left), 0, left);
	return left;
}

size_t ucopy_policy_try(const struct ucopy_policy *p, void *restrict dst,
			const void *restrict src, size_t n)
{
	if (unlikely(!__atomic_load_n(&ucopy_try_ready, __ATOMIC_ACQUIRE)) &&
	    ucopy_fault_init() != 0)
		return n;
	const struct ucopy_kernel *k = ucopy_policy_kernel(p, n);
	return ucopy_kernel_fault_capable(k)->try_fn(dst, src, n);
}
