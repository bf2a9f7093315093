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
 * sigsetjmp, no system call, no thread-local store, no extra call.  A PC
 * that is in no entry of ucopy's own is looked up in the tables of the
 * objects registered with ucopy_fault_register() (extable_objects.c).
 */
#define _GNU_SOURCE
#include "arch.h"
#include "ucopy-asm.h"

#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

static const int signals[2] = { SIGSEGV, SIGBUS };
/* The handlers ucopy displaced, one per entry of signals[]. */
static struct sigaction previous[2];
unsigned char ucopy_try_ready;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int sorted;

#define TLS __attribute__((tls_model("initial-exec")))
/* The mark pass_on leaves in the uc_link of a context it is passing on, so
 * that the same fault coming back is recognised.  It lives in pass_on's
 * frame and holds the uc_link it replaced, so that marks of several copies
 * of ucopy in one process (libucopy.a linked into two libraries) form a
 * chain each copy can walk for its own: a cycle through two copies is seen
 * by the first copy to meet its mark again.  The kernel writes uc_link as 0
 * in every frame it builds, so a mark in a frame whose handler never
 * returned (siglongjmp) is gone from the next fault's context. */
#define PASSING_MAGIC 0x7373617079706375ULL   /* "ucpypass" */
struct passing {
	uint64_t magic;
	const void *owner;   /* &passing_owner of the copy and thread that set it */
	void *link;          /* the uc_link it replaced */
};
static __thread char passing_owner TLS;

/* Whether ctx carries a mark of this copy's, in this thread: the fault is
 * one pass_on is passing on already.  The walk follows only marks (a kernel
 * frame's uc_link is 0) and is bounded by the number of copies a chain may
 * hold. */
static int passing_back(const ucontext_t *uc)
{
	const struct passing *p = (const void *)uc->uc_link;
	for (int depth = 0; p && depth < 64; depth++, p = p->link) {
		if ((uintptr_t)p % _Alignof(struct passing) || p->magic != PASSING_MAGIC)
			return 0;
		if (p->owner == &passing_owner)
			return 1;
	}
	return 0;
}

/* Set when this thread called a chained handler and may still be inside it,
 * where SIGSEGV/SIGBUS are blocked as the kernel blocks them; a hint the
 * checked entry confirms with the real signal mask. */
static __thread unsigned char chained TLS;
/* Set, for good, the first time a handler is chained to: from then on
 * ucopy_try goes through try_checked(). */
static unsigned char routed_checked;
/* The thread (its id) setting ucopy_try's words in ucopy_fault_init, or 0. */
static int routing;
static unsigned char under_valgrind;

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

static int signals_blocked(void)
{
	sigset_t cur;
	if (pthread_sigmask(SIG_BLOCK, NULL, &cur) != 0)
		return 1;
	return sigismember(&cur, SIGSEGV) == 1 || sigismember(&cur, SIGBUS) == 1;
}

/* ucopy_try once a handler has been chained to.  Inside that handler the
 * signal is blocked, and a fault there would kill: such a call copies
 * without signals.  Everywhere else, and as soon as this thread is seen
 * with both signals deliverable (it left the handler, by siglongjmp too),
 * the try bodies: a thread-local test and a jump more than before. */
static size_t try_checked(void *dst, const void *src, size_t n)
{
	if (unlikely(chained)) {
		if (signals_blocked())
			return ucopy_copy_nosignal(dst, src, n);
		chained = 0;
	}
	return ucopy_try_dispatch(dst, src, n);
}

static ucopy_try_fn try_route(void)
{
	if (under_valgrind)
		return ucopy_copy_nosignal;
	return __atomic_load_n(&routed_checked, __ATOMIC_ACQUIRE) ? try_checked : NULL;
}

static int thread_id(void)
{
	return (int)syscall(SYS_gettid);
}

/* From now on ucopy_try checks whether its thread is in a chained handler
 * (pass_on, before the first chained call).  A ucopy_fault_init() setting
 * the words on another thread may have read routed_checked before it was
 * set: wait for it to finish, then set the words again. */
static void route_checked(void)
{
	if (under_valgrind)
		return;
	__atomic_store_n(&routed_checked, 1, __ATOMIC_SEQ_CST);
	ucopy_try_route(try_checked);
	int t, self = 0;
	while ((t = __atomic_load_n(&routing, __ATOMIC_SEQ_CST)) != 0) {
		if (!self)
			self = thread_id();
		if (t == self)
			break;   /* it is this thread, below this frame */
		sched_yield();
	}
	ucopy_try_route(try_checked);
}

/* Whether the kernel raised sig, code for an access that runs again, and
 * faults again, when the handlers return: a synchronous fault.  Other
 * positive codes do not come back: SI_KERNEL for a frame the kernel could
 * not build, an action-optional machine check, an asynchronous tag fault. */
static int faults_again(int sig, int code)
{
	if (sig == SIGSEGV)
		return code == SEGV_MAPERR || code == SEGV_ACCERR
#ifdef SEGV_BNDERR
		       || code == SEGV_BNDERR
#endif
#ifdef SEGV_PKUERR
		       || code == SEGV_PKUERR
#endif
#ifdef SEGV_MTESERR
		       || code == SEGV_MTESERR
#endif
			;
	return code == BUS_ADRALN || code == BUS_ADRERR || code == BUS_OBJERR
#ifdef BUS_MCEERR_AR
	       || code == BUS_MCEERR_AR
#endif
		;
}

/* The default action for sig, as the kernel would take it: the disposition
 * becomes SIG_DFL.  A synchronous fault then needs nothing more: the
 * handlers return, the instruction runs again and faults again, and the
 * kernel takes the default action with its own siginfo.  Any other signal
 * is queued again, with its siginfo, to this thread and let in at once
 * (queueing a synchronous fault is what qemu-user 7.2 cannot deliver): it
 * ends the process, or, where the default action does not (the kernel
 * drops a sent SIGSEGV for PID 1), the process goes on with ucopy's handler
 * back in place. */
static void default_action(int sig, siginfo_t *si)
{
	struct sigaction dfl, mine;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, &mine);
	if (si->si_code > 0 && faults_again(sig, si->si_code))
		return;
	if (syscall(SYS_rt_tgsigqueueinfo, (long)getpid(), (long)thread_id(), (long)sig, si) != 0)
		raise(sig);
	sigset_t one, saved;
	sigemptyset(&one);
	sigaddset(&one, sig);
	pthread_sigmask(SIG_UNBLOCK, &one, &saved);
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	sigaction(sig, &mine, NULL);
}

/* Delivers a fault that is not ucopy's to the handler ucopy displaced,
 * exactly as the kernel would have: with that handler's sa_mask and the
 * signal blocked (unless SA_NODEFER) on top of the mask of the interrupted
 * code, SA_RESETHAND applied before the call, SIG_IGN and SIG_DFL meaning
 * what they mean for a real fault.  docs/design.md, "The signal contract". */
static void pass_on(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	/* The same fault, marked by a pass_on still passing it: a handler
	 * passed it back to ucopy (or a copy of its context), and passing it
	 * on again would go round for ever.  A nested fault, a SA_NODEFER
	 * handler's, comes in a frame of its own, unmarked. */
	if (passing_back(uc)) {
		default_action(sig, si);
		return;
	}

	int i = sig == SIGBUS;
	struct sigaction old;
	lib_copy(&old, &previous[i], sizeof old);
	if (old.sa_handler == SIG_IGN && si->si_code <= 0)
		return;   /* a sent signal the application ignores */
	if (old.sa_handler == SIG_DFL || old.sa_handler == SIG_IGN) {
		/* A real fault is never ignored: the kernel forces the default
		 * action on an ignored or blocked one. */
		default_action(sig, si);
		return;
	}
	if (old.sa_flags & SA_RESETHAND) {
		previous[i].sa_flags &= ~SA_SIGINFO;
		__atomic_store_n(&previous[i].sa_handler, SIG_DFL, __ATOMIC_RELEASE);
	}

	sigset_t mask = ((ucontext_t *)ctx)->uc_sigmask, saved;
	sigorset(&mask, &mask, &old.sa_mask);
	if (!(old.sa_flags & SA_NODEFER))
		sigaddset(&mask, sig);
	route_checked();
	unsigned char was_chained = chained;
	struct passing mark = { PASSING_MAGIC, &passing_owner, uc->uc_link };
	uc->uc_link = (void *)&mark;
	chained = 1;
	pthread_sigmask(SIG_SETMASK, &mask, &saved);
	if (old.sa_flags & SA_SIGINFO)
		old.sa_sigaction(sig, si, ctx);
	else
		old.sa_handler(sig);
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	chained = was_chained;
	uc->uc_link = mark.link;
}

UCOPY_ARCH_HANDLER static void handler(int sig, siginfo_t *si, void *ctx)
{
	/* si_code > 0: raised by the kernel for an access, not sent by
	 * kill/raise/sigqueue, which must not redirect a copy.  (A sent
	 * signal that claims a positive code and lands on a listed
	 * instruction only makes the fixup finish the copy byte by byte,
	 * which then copies what it can, as it would have.) */
	if (si->si_code > 0) {
		uintptr_t *pc = ucopy_arch_context_pc(ctx);
		uintptr_t fixup = extable_fixup(*pc);
		unsigned type;
		if (fixup) {
			*pc = fixup;
			return;
		}
		if (ucopy_objects_fixup(*pc, &fixup, &type)) {
			if (type == UCOPY_EX_TRAPNR)
				ucopy_arch_context_trapnr(ctx);
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

/* Under valgrind the registers a fixup reads are not exact at the faulting
 * access (only with --vex-iropt-register-updates=allregs-at-mem-access), so
 * the try bodies would return wrong counts: ucopy_try copies without
 * signals there, at a system call's cost.  valgrind's client request says
 * so where its header was there to build with (a no-op natively); else its
 * core, which it preloads into every program it runs, is among the loaded
 * objects.  Not LD_PRELOAD's text: a program may clear it, and any path
 * with "vgpreload" in it, loaded or not, made every ucopy_try a system
 * call, about a thousand times a short copy's cost (docs/performance.md,
 * "Under valgrind, and only there"). */
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define HAVE_VALGRIND_H 1
#endif
#endif

static int is_valgrind_core(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	(void)arg;
	const char *name = info->dlpi_name ? info->dlpi_name : "";
	const char *base = strrchr(name, '/');
	base = base ? base + 1 : name;
	return !strncmp(base, "vgpreload_core-", 15);
}

int ucopy_valgrind_core_loaded(void)
{
	return dl_iterate_phdr(is_valgrind_core, NULL) != 0;
}

int ucopy_under_valgrind(void)
{
#ifdef HAVE_VALGRIND_H
	return RUNNING_ON_VALGRIND != 0;
#else
	return ucopy_valgrind_core_loaded();
#endif
}

/* A child of fork() has one thread: a lock or a `routing` another thread
 * held at the fork is nobody's there. */
static void after_fork_child(void)
{
	pthread_mutex_init(&lock, NULL);
	__atomic_store_n(&routing, 0, __ATOMIC_SEQ_CST);
}

/* Whether valgrind runs the process is asked at load time: valgrind's core
 * is loaded by then, and install() may run inside a signal handler (a first
 * use there), where dl_iterate_phdr(), which takes the loader's lock, may
 * not be called.  A static program's own constructor may have made the
 * first copy before this one ran: its words are then routed again. */
__attribute__((constructor)) static void register_fork_handler(void)
{
	pthread_atfork(NULL, NULL, after_fork_child);
	under_valgrind = (unsigned char)ucopy_under_valgrind();
	if (under_valgrind && __atomic_load_n(&sorted, __ATOMIC_ACQUIRE))
		ucopy_try_route(try_route());
}

/* Installs the handler and sets ucopy_try's words; the lock is held. */
static int install(void)
{
	int rc = 0;
	if (!ucopy_arch_faults) {
		errno = ENOSYS;   /* a port without try bodies: docs/design.md */
		return -1;
	}
	if (!sorted) {
		sort_extable();
		sorted = 1;
	}
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
		/* On the alternate stack exactly when the displaced handler
		 * was: it then runs on the stack it would have run on. */
		sa.sa_flags = SA_SIGINFO | (cur.sa_flags & SA_ONSTACK);
		sigemptyset(&sa.sa_mask);
		/* Record the displaced handler before ours can run. */
		lib_copy(&previous[i], &cur, sizeof cur);
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		if (sigaction(signals[i], &sa, NULL) != 0)
			rc = -1;
	}
	if (rc == 0) {
		__atomic_store_n(&routing, thread_id(), __ATOMIC_SEQ_CST);
		ucopy_try_route(try_route());
		/* A handler chained to meanwhile (route_checked waits). */
		ucopy_try_route(try_route());
		__atomic_store_n(&routing, 0, __ATOMIC_SEQ_CST);
		__atomic_store_n(&ucopy_try_ready, 1, __ATOMIC_RELEASE);
	}
	return rc;
}

int ucopy_fault_init(void)
{
	/* Resolves the policy whose try bodies install() routes to. */
	ucopy_active();
	pthread_mutex_lock(&lock);
	int rc = install();
	pthread_mutex_unlock(&lock);
	return rc;
}

/* The handler goes in once the table is published, so that one call
 * suffices; an object without sites changes nothing. */
int ucopy_fault_register(const void *addr)
{
	if (!ucopy_arch_faults) {
		errno = ENOSYS;
		return -1;
	}
	int added;
	int n = ucopy_objects_add(addr, &added);
	if (n > 0 && ucopy_fault_init() != 0) {
		int e = errno;
		if (added)
			ucopy_objects_remove(addr);
		errno = e;
		return -1;
	}
	return n;
}

int ucopy_fault_unregister(const void *addr)
{
	if (!ucopy_arch_faults) {
		errno = ENOSYS;
		return -1;
	}
	return ucopy_objects_remove(addr);
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

/* Installs the handler unless it is in place, without waiting for the lock:
 * this may run in a signal handler, or while another thread installs.
 * @return : 0 when the try bodies can be used, -1 when a copy must be made
 *           without signals (the lock is busy, sigaction failed). */
static int installed_or_busy(void)
{
	if (likely(__atomic_load_n(&ucopy_try_ready, __ATOMIC_ACQUIRE)))
		return 0;
	int saved = errno;
	ucopy_active();
	int rc = -1;
	if (pthread_mutex_trylock(&lock) == 0) {
		rc = install();
		pthread_mutex_unlock(&lock);
	}
	errno = saved;
	return rc;
}

/* Whether the first fault-tolerant copy must go without signals: nothing
 * installed yet and the install failed or is under way on another thread,
 * or the signals are blocked here.  A first use may come from inside a
 * handler (a crash handler reading memory it cannot trust: the obvious
 * use), where the kernel blocked the signal and a try body's fault would
 * kill the process.  The thread is then taken for one in a handler ucopy
 * chained to: its later copies there go without signals too, and the try
 * bodies again once it is seen with the signals deliverable. */
static int first_use_nosignal(void)
{
	int rc = installed_or_busy();
	if (!signals_blocked())
		return rc != 0;
	chained = 1;
	if (rc == 0)
		route_checked();
	else   /* another thread installs: it routes ucopy_try by this word */
		__atomic_store_n(&routed_checked, 1, __ATOMIC_SEQ_CST);
	return 1;
}

/* ucopy_try before the first fault-tolerant copy: the words lead here until
 * install() sets them. */
size_t ucopy_try_cold(void *dst, const void *src, size_t n)
{
	if (first_use_nosignal())
		return ucopy_copy_nosignal(dst, src, n);
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
	int cold = !__atomic_load_n(&ucopy_try_ready, __ATOMIC_ACQUIRE);
	if ((unlikely(cold) && first_use_nosignal()) || unlikely(under_valgrind) ||
	    (unlikely(chained) && signals_blocked()))
		return ucopy_copy_nosignal(dst, src, n);
	const struct ucopy_kernel *k = ucopy_policy_kernel(p, n);
	return ucopy_kernel_fault_capable(k)->try_fn(dst, src, n);
}
