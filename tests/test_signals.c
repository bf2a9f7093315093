/*
 * test_signals.c - the signal contract (include/ucopy.h, docs/design.md): a
 * fault that is not ucopy's reaches the application as the kernel would
 * have delivered it, ucopy_try works inside a handler ucopy chained to, and
 * no chain loops.
 *
 * Each scenario runs in a child process, since the failure mode is the
 * death of the process (or a stack overflow); children report through
 * their exit status and a shared page.
 */
#define _GNU_SOURCE
#include "check.h"
#include "ucopy.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static size_t page;

/* What children tell the parent besides their exit status. */
struct report {
	int calls;          /* how often the application's handler ran */
	int result[8];      /* scenario-specific values */
	uint64_t mask[2];   /* the signal mask inside the handler, 1..128 */
};
static struct report *shared;

static volatile sig_atomic_t app_handler_ran;
static sigjmp_buf app_jmp;

CHECK_HANDLER static void app_handler(int sig, siginfo_t *si, void *ctx)
{
	(void)si;
	(void)ctx;
	app_handler_ran = sig;
	siglongjmp(app_jmp, 1);
}


/* Installs fn as the handler of sig (SA_SIGINFO and flags, an empty
 * sa_mask); the one it replaces in *old unless NULL. */
static void set_handler_of(int sig, void (*fn)(int, siginfo_t *, void *), int flags,
			   struct sigaction *old)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = fn;
	sa.sa_flags = SA_SIGINFO | flags;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, old);
}

static void set_handler(void (*fn)(int, siginfo_t *, void *), int flags,
			struct sigaction *old)
{
	set_handler_of(SIGSEGV, fn, flags, old);
}

static void install_app_handler(int flags)
{
	set_handler_of(SIGSEGV, app_handler, flags, NULL);
	set_handler_of(SIGBUS, app_handler, flags, NULL);
}

static volatile char *bad_pointer(void)
{
	return (volatile char *)check_map(page, PROT_NONE);
}

/* Runs fn in a child; returns its wait status. */
static int in_child(void (*fn)(void))
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		alarm(30);   /* a scenario that loops ends as SIGALRM */
		fn();
		_exit(0);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	return status;
}

/* A readable page, then a PROT_NONE one; returns the boundary. */
static unsigned char *readable_page(void)
{
	unsigned char *m = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		_exit(2);
	memset(m, 0x5a, page);
	mprotect(m + page, page, PROT_NONE);
	return m + page;
}

/* The end of the chaining scenarios: ucopy recovers a fault of its own, then
 * a fault outside ucopy, a read (or a write with app_fault_writes), must
 * reach the application's handler (exit 42). */
static int app_fault_writes;

static void recover_then_app_fault(volatile char *bad)
{
	char buf[16];
	if (ucopy_try(buf, (const void *)bad, 16) != 16)
		_exit(3);
	if (sigsetjmp(app_jmp, 1) == 0) {
		if (app_fault_writes)
			*bad = 1;
		else
			(void)*bad;
		_exit(4);
	}
	_exit(app_handler_ran == SIGSEGV ? 42 : 5);
}

/* Exit 42 when the application's handler got the fault outside ucopy, after
 * ucopy recovered one of its own: ucopy_try's fault at the end of a
 * readable page, the application's a write to the next. */
static void child_app_handler_first(void)
{
	install_app_handler(0);
	unsigned char *end = readable_page();
	char buf[16];
	if (ucopy_try(buf, end - 4, 8) != 4)
		_exit(3);
	app_fault_writes = 1;
	recover_then_app_fault((volatile char *)end);
}

static void child_no_handler(void)
{
	char buf[16];
	volatile char *bad = bad_pointer();
	if (ucopy_try(buf, (const void *)bad, 16) != 16)
		_exit(3);
	(void)*bad;
	_exit(4);
}

static void child_memcpy_fault(void)
{
	char buf[64];
	ucopy_fault_init();
	ucopy_memcpy(buf, (const void *)bad_pointer(), 64);
	_exit(4);
}

/* Every kernel's plain body (ucopy_memcpy's) has no exception table
 * entries: with ucopy's handler installed, a fault in it still kills. */
static const struct ucopy_kernel *plain_kernel;

static void child_plain_body_fault(void)
{
	char buf[64];
	ucopy_fault_init();
	plain_kernel->fn(buf, (const void *)bad_pointer(), 64);
	_exit(4);
}

static void test_plain_bodies(void)
{
	for (size_t i = 0; i < ucopy_kernel_count(); i++) {
		plain_kernel = ucopy_kernel_at(i);
		if (!ucopy_kernel_supported(plain_kernel, ucopy_cpu()->features))
			continue;
		int st = in_child(child_plain_body_fault);
		CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV,
		      "a fault in %s's plain body must kill with SIGSEGV, status %#x",
		      plain_kernel->name, st);
	}
	check_group("fault in a kernel's plain body kills, for every kernel");
}

static void child_ignored(void)
{
	signal(SIGSEGV, SIG_IGN);
	char buf[16];
	volatile char *bad = bad_pointer();
	if (ucopy_try(buf, (const void *)bad, 16) != 16)
		_exit(3);
	(void)*bad;   /* an ignored fault still kills, as without ucopy */
	_exit(4);
}

static void child_altstack(void)
{
	stack_t ss;
	ss.ss_sp = malloc(1 << 16);
	ss.ss_size = 1 << 16;
	ss.ss_flags = 0;
	if (sigaltstack(&ss, NULL) != 0)
		_exit(6);
	install_app_handler(SA_ONSTACK);
	recover_then_app_fault(bad_pointer());
}

/* A handler installed after ucopy's replaces it; ucopy_fault_init() puts
 * ucopy's back and passes other faults to the newer handler. */
static void child_replaced(void)
{
	volatile char *bad = bad_pointer();
	if (ucopy_fault_init() != 0 || !ucopy_fault_installed())
		_exit(7);
	install_app_handler(0);
	if (ucopy_fault_installed())
		_exit(8);
	if (ucopy_fault_init() != 0 || !ucopy_fault_installed())
		_exit(9);
	recover_then_app_fault(bad);
}

/* A SIGSEGV sent with kill() during a program that uses ucopy reaches the
 * application's handler: only kernel-raised faults are ucopy's. */
static void child_sent_signal(void)
{
	install_app_handler(0);
	ucopy_fault_init();
	if (sigsetjmp(app_jmp, 1) == 0) {
		kill(getpid(), SIGSEGV);
		_exit(4);
	}
	_exit(app_handler_ran == SIGSEGV ? 42 : 5);
}


/* ---- the application's handler sees what the kernel would show it ---- */

static void record_mask(void)
{
	sigset_t cur;
	pthread_sigmask(SIG_BLOCK, NULL, &cur);
	shared->mask[0] = shared->mask[1] = 0;
	for (int s = 1; s < 128 && s < NSIG; s++)
		if (sigismember(&cur, s) == 1)
			shared->mask[s / 64] |= UINT64_C(1) << (s % 64);
}

CHECK_HANDLER static void mask_handler(int sig, siginfo_t *si, void *ctx)
{
	(void)si;
	(void)ctx;
	stack_t ss;
	shared->calls++;
	record_mask();
	shared->result[5] = sigaltstack(NULL, &ss) == 0 && (ss.ss_flags & SS_ONSTACK);
	app_handler_ran = sig;
	siglongjmp(app_jmp, 1);
}

static int mask_flags, mask_self;   /* sa_flags; SIGSEGV in sa_mask */

/* The application's handler, with SIGUSR1 in its sa_mask and SIGUSR2
 * blocked by the code that faults; ucopy's installed over it when
 * `with_ucopy`. */
static void mask_scenario(int with_ucopy)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = mask_handler;
	sa.sa_flags = SA_SIGINFO | mask_flags;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGUSR1);
	if (mask_self)
		sigaddset(&sa.sa_mask, SIGSEGV);
	sigaction(SIGSEGV, &sa, NULL);
	/* An alternate stack, which the handler must use exactly when it
	 * asked for it (SA_ONSTACK). */
	stack_t ss = { malloc(1 << 16), 0, 1 << 16 };
	if (!ss.ss_sp || sigaltstack(&ss, NULL) != 0)
		_exit(6);
	if (with_ucopy && ucopy_fault_init() != 0)
		_exit(7);
	sigset_t m;
	sigemptyset(&m);
	sigaddset(&m, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &m, NULL);
	volatile char *bad = bad_pointer();
	if (sigsetjmp(app_jmp, 1) == 0) {
		(void)*bad;
		_exit(4);
	}
	_exit(app_handler_ran == SIGSEGV ? 42 : 5);
}

static void child_mask_plain(void) { mask_scenario(0); }
static void child_mask_ucopy(void) { mask_scenario(1); }

/* The mask inside the handler, and whether it runs on the alternate stack,
 * without ucopy and with it: for a handler without flags, with SA_NODEFER,
 * with SA_NODEFER and the signal in its own sa_mask, with SA_ONSTACK. */
static void test_mask(void)
{
	static const struct { int flags, self; const char *what; } cases[] = {
		{ 0, 0, "no flags" },
		{ SA_NODEFER, 0, "SA_NODEFER" },
		{ SA_NODEFER, 1, "SA_NODEFER, SIGSEGV in sa_mask" },
		{ SA_ONSTACK, 0, "SA_ONSTACK" },
	};
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		uint64_t want[2];
		mask_flags = cases[c].flags;
		mask_self = cases[c].self;
		shared->result[5] = -1;
		int st = in_child(child_mask_plain);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 42, "%s, without ucopy: status %#x",
		      cases[c].what, st);
		want[0] = shared->mask[0];
		want[1] = shared->mask[1];
		int onstack = shared->result[5];
		shared->result[5] = -1;
		st = in_child(child_mask_ucopy);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 42, "%s, with ucopy: status %#x",
		      cases[c].what, st);
		CHECK(shared->mask[0] == want[0] && shared->mask[1] == want[1],
		      "%s: the handler's mask is %#llx:%#llx with ucopy, %#llx:%#llx without",
		      cases[c].what,
		      (unsigned long long)shared->mask[1], (unsigned long long)shared->mask[0],
		      (unsigned long long)want[1], (unsigned long long)want[0]);
		CHECK(shared->result[5] == onstack, "%s: %s the alternate stack with ucopy, %s without",
		      cases[c].what, shared->result[5] ? "on" : "off", onstack ? "on" : "off");
		CHECK(onstack == !!(cases[c].flags & SA_ONSTACK), "%s: the premise (alternate stack)",
		      cases[c].what);
		CHECK(((want[0] >> SIGSEGV) & 1) == (!(cases[c].flags & SA_NODEFER) || cases[c].self),
		      "%s: the premise (SIGSEGV blocked or not)", cases[c].what);
		CHECK((want[0] >> SIGUSR1) & 1 && (want[0] >> SIGUSR2) & 1,
		      "sa_mask and the interrupted mask: the test's premise");
	}
	check_group("signals: a chained handler runs with the mask and stack the kernel gives it "
		    "(sa_mask, SA_NODEFER, SA_ONSTACK)");
}

/* A handler that leaves by siglongjmp, for faults ever deeper on the stack:
 * each is a new fault, however many came before. */
static sigjmp_buf level_jmp;

CHECK_HANDLER static void level_handler(int sig)
{
	(void)sig;
	shared->calls++;
	siglongjmp(level_jmp, 1);
}

static void fault_at_depth(volatile char *bad, int depth)
{
	volatile char pad[256];
	pad[0] = (char)depth;
	if (depth > 0) {
		fault_at_depth(bad, depth - 1);
		return;
	}
	if (sigsetjmp(level_jmp, 1) == 0)
		(void)*bad;
	(void)pad[0];
}

static void child_deeper(void)
{
	signal(SIGSEGV, level_handler);
	if (ucopy_fault_init() != 0)
		_exit(7);
	volatile char *bad = bad_pointer();
	for (int d = 0; d < 40; d++)
		fault_at_depth(bad, d);
	_exit(42);
}

static void test_deeper(void)
{
	shared->calls = 0;
	int st = in_child(child_deeper);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 42 && shared->calls == 40,
	      "status %#x after %d of 40 faults", st, shared->calls);
	check_group("signals: 40 faults left by siglongjmp, each deeper, all reach the handler");
}

/* ---- SA_RESETHAND ---- */

CHECK_HANDLER static void counting_handler(int sig, siginfo_t *si, void *ctx)
{
	(void)si;
	(void)ctx;
	shared->calls++;
	app_handler_ran = sig;
	siglongjmp(app_jmp, 1);
}

CHECK_HANDLER static void counting_plain_handler(int sig)
{
	counting_handler(sig, NULL, NULL);
}

static int resethand_siginfo;

/* Two faults; the handler (SA_RESETHAND) leaves by siglongjmp.  The second
 * fault must find SIG_DFL and kill, the handler having run once. */
static void child_resethand(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	if (resethand_siginfo) {
		sa.sa_sigaction = counting_handler;
		sa.sa_flags = SA_SIGINFO | SA_RESETHAND;
	} else {
		sa.sa_handler = counting_plain_handler;
		sa.sa_flags = SA_RESETHAND;
	}
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	if (ucopy_fault_init() != 0)
		_exit(7);
	volatile char *bad = bad_pointer();
	for (int i = 0; i < 2; i++)
		if (sigsetjmp(app_jmp, 1) == 0)
			(void)*bad;
	_exit(4);
}

static void test_resethand(void)
{
	for (resethand_siginfo = 0; resethand_siginfo < 2; resethand_siginfo++) {
		shared->calls = 0;
		int st = in_child(child_resethand);
		CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV && shared->calls == 1,
		      "%s: status %#x after %d calls of the handler; want SIGSEGV after 1",
		      resethand_siginfo ? "SA_SIGINFO|SA_RESETHAND" : "SA_RESETHAND",
		      st, shared->calls);
	}
	check_group("signals: SA_RESETHAND resets before the call (second fault kills)");
}

/* ---- SA_NODEFER: a handler that probes memory and handles its own nested
 * fault ---- */

static sigjmp_buf probe_jmp;
static volatile int probing;

CHECK_HANDLER static void probing_handler(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	(void)si;
	shared->calls++;
	if (probing)
		siglongjmp(probe_jmp, 1);
	probing = 1;
	volatile char *bad = bad_pointer();
	if (sigsetjmp(probe_jmp, 0) == 0) {
		(void)*bad;
		shared->result[0] = 1;   /* the probe read */
	} else {
		shared->result[0] = 2;   /* the probe faulted, and we are back */
	}
	probing = 0;
	app_handler_ran = sig;
	siglongjmp(app_jmp, 1);
}

static void child_nodefer(void)
{
	set_handler(probing_handler, SA_NODEFER, NULL);
	if (ucopy_fault_init() != 0)
		_exit(7);
	volatile char *bad = bad_pointer();
	if (sigsetjmp(app_jmp, 1) == 0) {
		(void)*bad;
		_exit(4);
	}
	_exit(app_handler_ran == SIGSEGV && shared->result[0] == 2 ? 42 : 5);
}

static void test_nodefer(void)
{
	shared->calls = 0;
	shared->result[0] = 0;
	int st = in_child(child_nodefer);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 42 && shared->calls == 2,
	      "status %#x, handler ran %d times (want exit 42, 2 times)", st, shared->calls);
	check_group("signals: a SA_NODEFER handler handles a nested fault");
}

/* ---- a chain that comes back to ucopy ---- */

static struct sigaction app_previous;

/* A well-behaved chaining handler: what is not its own goes to the handler
 * it displaced, which is ucopy's. */
CHECK_HANDLER static void chaining_handler(int sig, siginfo_t *si, void *ctx)
{
	shared->calls++;
	if (app_previous.sa_flags & SA_SIGINFO)
		app_previous.sa_sigaction(sig, si, ctx);
	else if (app_previous.sa_handler != SIG_DFL && app_previous.sa_handler != SIG_IGN)
		app_previous.sa_handler(sig);
	else
		signal(sig, SIG_DFL);
}

static void child_cycle(void)
{
	if (ucopy_fault_init() != 0)
		_exit(7);
	set_handler(chaining_handler, 0, &app_previous);
	/* As the header invites: ucopy's handler back on top, the
	 * application's now the one ucopy passes to. */
	if (ucopy_fault_init() != 0)
		_exit(8);
	child_no_handler();   /* a fault of ucopy's, then one that is not */
}

static void test_cycle(void)
{
	shared->calls = 0;
	int st = in_child(child_cycle);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV && shared->calls == 1,
	      "status %#x after %d calls of the chaining handler; want SIGSEGV after 1",
	      st, shared->calls);
	check_group("signals: a fault passed back to ucopy ends in the default action, not a loop");
}

/* ---- signals that were sent ---- */

static int queue_self(int sig, int code)
{
	siginfo_t si;
	memset(&si, 0, sizeof si);
	si.si_signo = sig;
	si.si_code = code;
	si.si_pid = getpid();
	return (int)syscall(SYS_rt_tgsigqueueinfo, (long)getpid(), (long)syscall(SYS_gettid),
			    (long)sig, &si);
}

/* SIG_DFL before ucopy: a SIGSEGV the process queues to itself with a
 * positive si_code (forged: only the kernel raises those, and only a
 * process's own queue accepts them) is taken for the fault it claims to be.
 * The disposition becomes SIG_DFL and the handlers return, where a real
 * fault would fault again and end the process; a forged one does not, and
 * the process goes on with the default disposition (exit 42). */
static void child_sent_positive(void)
{
	if (ucopy_fault_init() != 0)
		_exit(7);
	if (queue_self(SIGSEGV, SEGV_MAPERR) != 0)
		_exit(6);
	struct sigaction cur;
	sigaction(SIGSEGV, NULL, &cur);
	_exit(!(cur.sa_flags & SA_SIGINFO) && cur.sa_handler == SIG_DFL ? 42 : 4);
}

/* SIG_DFL before ucopy: a signal with a positive si_code that is no fault
 * to run again (SI_KERNEL, an action-optional machine check), forged here,
 * is queued again and ends the process as it would without ucopy. */
static int forged_sig, forged_code;

static void child_forged_other(void)
{
	if (ucopy_fault_init() != 0)
		_exit(7);
	if (queue_self(forged_sig, forged_code) != 0)
		_exit(6);
	_exit(4);
}

/* The kernel cannot build SIGUSR1's frame (its alternate stack is
 * PROT_NONE) and forces SIGSEGV with SI_KERNEL on an instruction that does
 * not fault: with SIG_DFL before ucopy the process must end by SIGSEGV, as
 * without ucopy, not go on with ucopy's handler gone. */
CHECK_HANDLER static void usr1_handler(int sig)
{
	(void)sig;
}

static void child_unbuildable_frame(void)
{
	if (ucopy_fault_init() != 0)
		_exit(7);
	stack_t ss = { check_map(1 << 16, PROT_NONE), 0, 1 << 16 };
	if (sigaltstack(&ss, NULL) != 0)
		_exit(6);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = usr1_handler;
	sa.sa_flags = SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	raise(SIGUSR1);
	_exit(4);
}

/* SIG_IGN before ucopy: a sent SIGSEGV is ignored and ucopy stays. */
static void child_sent_ignored(void)
{
	signal(SIGSEGV, SIG_IGN);
	if (ucopy_fault_init() != 0)
		_exit(7);
	kill(getpid(), SIGSEGV);
	if (queue_self(SIGSEGV, SI_QUEUE) != 0)
		_exit(6);
	_exit(ucopy_fault_installed() ? 42 : 5);
}

/* A handler before ucopy: a sent SIGSEGV with a positive code reaches it,
 * and ucopy stays installed. */
static void child_sent_positive_handler(void)
{
	install_app_handler(0);
	if (ucopy_fault_init() != 0)
		_exit(7);
	if (sigsetjmp(app_jmp, 1) == 0) {
		queue_self(SIGSEGV, SEGV_ACCERR);
		_exit(4);
	}
	_exit(app_handler_ran == SIGSEGV && ucopy_fault_installed() ? 42 : 5);
}

/* qemu-user 7.2 takes a SIGSEGV with a positive si_code for a fault of the
 * emulated program's and fails an assertion of its own (rcu_read_unlock,
 * exit 127) when none is there: a probe that uses no ucopy shows it, and the
 * cases that queue such a signal (ucopy's default action for one that does
 * not fault again) are skipped where it fails. */
static void child_forged_probe(void)
{
	install_app_handler(0);
	if (sigsetjmp(app_jmp, 1) == 0) {
		queue_self(SIGSEGV, SEGV_ACCERR);
		_exit(4);
	}
	_exit(app_handler_ran == SIGSEGV ? 42 : 5);
}

static void test_sent(void)
{
	int st = in_child(child_sent_ignored);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 42,
	      "SIG_IGN, sent with kill and sigqueue: status %#x, want exit 42", st);
	check_group("signals: a sent signal is passed on, ucopy stays installed");

	const char *group = "signals: a positive si_code: forged, or a fault that does not come "
			    "back (SI_KERNEL, BUS_MCEERR_AO)";
	st = in_child(child_forged_probe);
	if (!(WIFEXITED(st) && WEXITSTATUS(st) == 42)) {
		char why[200];
		snprintf(why, sizeof why, "this system does not deliver a forged fault to a "
			 "handler even without ucopy (a probe ended with status %#x)", st);
		check_skip(group, why);
		return;
	}
	st = in_child(child_sent_positive);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 42,
	      "SIG_DFL, sent with si_code SEGV_MAPERR: status %#x, want exit 42 with the "
	      "default disposition restored", st);
	st = in_child(child_sent_positive_handler);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 42,
	      "a handler, sent with si_code SEGV_ACCERR: status %#x, want exit 42", st);
	static const struct { int sig, code; const char *what; } other[] = {
		{ SIGSEGV, SI_KERNEL, "SIGSEGV, SI_KERNEL" },
		{ SIGBUS, BUS_MCEERR_AO, "SIGBUS, BUS_MCEERR_AO" },
	};
	for (size_t k = 0; k < sizeof other / sizeof *other; k++) {
		forged_sig = other[k].sig;
		forged_code = other[k].code;
		st = in_child(child_forged_other);
		CHECK(WIFSIGNALED(st) && WTERMSIG(st) == forged_sig,
		      "SIG_DFL, sent with %s: status %#x, want death by the signal",
		      other[k].what, st);
	}
	/* A real one, raised by the kernel, that delivery needs the same
	 * queueing for. */
	st = in_child(child_unbuildable_frame);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV,
	      "SIG_DFL, a SIGSEGV the kernel forced (SIGUSR1's frame could not be built): "
	      "status %#x, want SIGSEGV", st);
	check_group(group);
}

/* PID 1: the kernel drops a sent SIGSEGV whose action is the default.  ucopy
 * must still be installed afterwards and recover its own faults. */
static void child_pid1_inner(void)
{
	if (ucopy_fault_init() != 0)
		_exit(7);
	kill(getpid(), SIGSEGV);
	if (!ucopy_fault_installed())
		_exit(5);
	char buf[16];
	if (ucopy_try(buf, (const void *)bad_pointer(), 16) != 16)
		_exit(3);
	_exit(42);
}

/* The same without ucopy: the probe of what the system does.  qemu-user 7.2
 * takes the default action itself, by a signal the kernel drops for PID 1,
 * and never returns (child_pid1 kills it). */
static void child_pid1_probe_inner(void)
{
	kill(getpid(), SIGSEGV);
	_exit(42);
}

static void (*pid1_inner)(void);

/* PID 1 of a new namespace runs pid1_inner; it is killed after 3 s (exit
 * 78), since nothing it does to itself can end it. */
static void child_pid1(void)
{
	if (unshare(CLONE_NEWPID) != 0)
		_exit(errno == EPERM ? 77 : 6);
	pid_t pid = fork();
	if (pid == 0) {
		pid1_inner();
		_exit(0);
	}
	int st = 0;
	for (int i = 0; i < 300 && waitpid(pid, &st, WNOHANG) == 0; i++)
		usleep(10000);
	if (waitpid(pid, &st, WNOHANG) == 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		_exit(78);
	}
	_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
}

static void test_pid1(void)
{
	const char *group = "signals: a sent SIGSEGV that PID 1 survives leaves ucopy installed";
	pid1_inner = child_pid1_probe_inner;
	int st = in_child(child_pid1);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 77) {
		check_skip(group, "no permission for a PID namespace");
		return;
	}
	if (!(WIFEXITED(st) && WEXITSTATUS(st) == 42)) {
		char why[200];
		snprintf(why, sizeof why, "PID 1 here does not survive a sent SIGSEGV even "
			 "without ucopy (a probe ended with status %#x)", st);
		check_skip(group, why);
		return;
	}
	pid1_inner = child_pid1_inner;
	st = in_child(child_pid1);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 42,
	      "as PID 1: status %#x (exit 5: uninstalled, 128+11: killed at the next fault, "
	      "78: never ended)", st);
	check_group(group);
}

/* ---- fault-tolerant copies inside handlers ---- */

static unsigned char *readable_end;   /* readable up to here, then PROT_NONE */
static int chained_then_ucopy_first;

CHECK_HANDLER static void copy_in_handler(int sig, siginfo_t *si, void *ctx)
{
	(void)si;
	(void)ctx;
	unsigned char buf[128];
	shared->calls++;
	memset(buf, 0x11, sizeof buf);
	if (chained_then_ucopy_first) {
		/* Not chained to: only the signal-free copies are promised. */
		shared->result[0] = (int)ucopy_try_sigsafe(buf, readable_end - 10, 100);
		shared->result[2] = (int)ucopy_from_sigsafe(buf, readable_end - 30, 100);
		shared->result[1] = memcmp(buf, readable_end - 30, 30) == 0 && buf[30] == 0 &&
				    buf[99] == 0 && buf[100] == 0x11;
	} else {
		shared->result[0] = (int)ucopy_try(buf, readable_end - 10, 100);
		shared->result[1] = memcmp(buf, readable_end - 10, 10) == 0 && buf[10] == 0x11;
		shared->result[2] = (int)ucopy_from(buf, readable_end - 30, 100);
	}
	errno = 1234;
	shared->result[3] = (int)ucopy_try_sigsafe(buf, readable_end - 50, 100);
	shared->result[4] = errno == 1234;
	if (!chained_then_ucopy_first) {
		errno = 4321;
		ucopy_try(buf, readable_end - 10, 100);
		shared->result[4] &= errno == 4321;
	}
	app_handler_ran = sig;
	siglongjmp(app_jmp, 1);
}

/* The application's handler copies with ucopy_try: chained to by ucopy
 * (installed before it), or installed after ucopy without chaining, where
 * only ucopy_try_sigsafe is promised. */
static void child_copy_in_handler(void)
{
	readable_end = readable_page();
	if (chained_then_ucopy_first && ucopy_fault_init() != 0)
		_exit(7);
	set_handler(copy_in_handler, 0, NULL);
	if (!chained_then_ucopy_first && ucopy_fault_init() != 0)
		_exit(7);
	volatile char *bad = bad_pointer();
	if (sigsetjmp(app_jmp, 1) == 0) {
		(void)*bad;
		_exit(4);
	}
	/* Back outside, after siglongjmp: the fast path again (where ucopy's
	 * handler is the installed one). */
	if (chained_then_ucopy_first)
		_exit(app_handler_ran == SIGSEGV ? 42 : 5);
	unsigned char buf[128];
	if (ucopy_try(buf, readable_end - 20, 100) != 80)
		_exit(6);
	_exit(app_handler_ran == SIGSEGV ? 42 : 5);
}

static void test_copy_in_handler(void)
{
	chained_then_ucopy_first = 0;
	memset(shared, 0, sizeof *shared);
	int st = in_child(child_copy_in_handler);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 42, "chained: status %#x", st);
	CHECK(shared->result[0] == 90 && shared->result[1] == 1,
	      "chained: ucopy_try in the handler returned %d (want 90), copy %s",
	      shared->result[0], shared->result[1] ? "right" : "wrong");
	CHECK(shared->result[2] == 70, "chained: ucopy_from returned %d (want 70)", shared->result[2]);
	CHECK(shared->result[3] == 50, "chained: ucopy_try_sigsafe returned %d (want 50)",
	      shared->result[3]);
	CHECK(shared->result[4] == 1, "chained: errno changed by a copy in the handler");
	check_group("signals: ucopy_try inside the application handler ucopy chained to");

	/* Installed after ucopy, not chaining: ucopy_try_sigsafe is what the
	 * header promises there (ucopy_try would kill: its precondition). */
	chained_then_ucopy_first = 1;
	memset(shared, 0, sizeof *shared);
	st = in_child(child_copy_in_handler);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 42, "unchained: status %#x", st);
	CHECK(shared->result[0] == 90 && shared->result[2] == 70 && shared->result[3] == 50 &&
	      shared->result[1] == 1,
	      "unchained: ucopy_try_sigsafe, ucopy_from_sigsafe returned %d, %d, %d "
	      "(want 90, 70, 50), bytes %s", shared->result[0], shared->result[2],
	      shared->result[3], shared->result[1] ? "right" : "wrong");
	check_group("signals: ucopy_try_sigsafe inside a handler that does not chain");
}

/* A crash handler whose fault-tolerant copy is the process's first: ucopy
 * installs its handler there, with the signal blocked by the kernel, and the
 * copy itself goes without signals (a try body's fault would kill), and so
 * do the handler's later copies, of either entry.  Once back outside,
 * ucopy_try takes the installed handler's fast path. */
static int first_use_policy;

CHECK_HANDLER static void first_use_handler(int sig, siginfo_t *si, void *ctx)
{
	(void)si;
	(void)ctx;
	unsigned char buf[100];
	for (int k = 0; k < 3; k++) {
		int policy = k == 0 ? first_use_policy : k == 1 ? !first_use_policy : first_use_policy;
		memset(buf, 0, sizeof buf);
		shared->result[2 * k] = policy
			? (int)ucopy_policy_try(ucopy_active()->policy, buf, readable_end - 30, 100)
			: (int)ucopy_try(buf, readable_end - 30, 100);
		shared->result[2 * k + 1] = buf[0] == 0x5a && buf[29] == 0x5a;
	}
	app_handler_ran = sig;
	siglongjmp(app_jmp, 1);
}

static void child_first_use_in_handler(void)
{
	readable_end = readable_page();
	set_handler(first_use_handler, 0, NULL);
	volatile char *bad = bad_pointer();
	if (sigsetjmp(app_jmp, 1) == 0) {
		(void)*bad;
		_exit(4);
	}
	unsigned char buf[64];
	if (!ucopy_fault_installed() || ucopy_try(buf, readable_end - 10, 64) != 54)
		_exit(6);
	_exit(app_handler_ran == SIGSEGV ? 42 : 5);
}

static void test_first_use_in_handler(void)
{
	for (first_use_policy = 0; first_use_policy < 2; first_use_policy++) {
		memset(shared, 0, sizeof *shared);
		int st = in_child(child_first_use_in_handler);
		const char *fn = first_use_policy ? "ucopy_policy_try" : "ucopy_try";
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 42, "%s first used in a SIGSEGV "
		      "handler: status %#x", fn, st);
		for (int k = 0; k < 3; k++)
			CHECK(shared->result[2 * k] == 70 && shared->result[2 * k + 1] == 1,
			      "%s first, copy %d in the handler returned %d (want 70), bytes %s",
			      fn, k, shared->result[2 * k], shared->result[2 * k + 1] ? "right" : "wrong");
	}
	check_group("signals: the first fault-tolerant copy made inside a SIGSEGV handler");
}

/* With SIGSEGV blocked by the thread, ucopy_try_sigsafe is exact and the
 * process lives. */
static void child_blocked(void)
{
	sigset_t m;
	sigemptyset(&m);
	sigaddset(&m, SIGSEGV);
	sigaddset(&m, SIGBUS);
	pthread_sigmask(SIG_BLOCK, &m, NULL);
	unsigned char *end = readable_page(), buf[64];
	if (ucopy_try_sigsafe(buf, end - 24, 64) != 40)
		_exit(5);
	if (ucopy_fault_init() != 0 || ucopy_try_sigsafe(buf, end - 8, 64) != 56)
		_exit(6);
	_exit(42);
}

static void test_blocked(void)
{
	int st = in_child(child_blocked);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 42, "status %#x", st);
	check_group("signals: SIGSEGV blocked: ucopy_try_sigsafe recovers");
}

/* ---- a displaced handler that leaves as it likes, then a chain ---- */

/* The handler ucopy displaces: its first call leaves as `leave_how` says,
 * every later one by siglongjmp.  Whatever state ucopy kept for passing the
 * first fault on must not outlive that call, however it ended: a handler
 * installed over ucopy's that chains to it then passes the next fault, at
 * the same place or another, in this thread or another, and it must
 * arrive here again. */
enum { LEAVE_JUMP, LEAVE_RETURN, LEAVE_RERAISE, LEAVE_HOWS };
static const char *const leave_name[LEAVE_HOWS] = {
	"leaves by siglongjmp", "returns", "re-raises" };
static int leave_how, leave_other_page, leave_other_thread;
static volatile char *leave_page;
static sigjmp_buf leave_jmp;
static struct sigaction leave_chained_to;   /* ucopy's, displaced by the chain */

CHECK_HANDLER static void leave_displaced(int sig, siginfo_t *si, void *ctx)
{
	(void)si;
	(void)ctx;
	int call = shared->calls++;
	if (call == 0 && leave_how == LEAVE_RETURN) {
		/* The access succeeds when it runs again. */
		mprotect((void *)leave_page, page, PROT_READ);
		return;
	}
	if (call == 0 && leave_how == LEAVE_RERAISE) {
		/* Blocked here: it arrives, sent, as the handlers return, before
		 * the access runs again. */
		raise(sig);
		return;
	}
	siglongjmp(leave_jmp, 1);
}

CHECK_HANDLER static void leave_chain(int sig, siginfo_t *si, void *ctx)
{
	shared->result[0]++;
	leave_chained_to.sa_sigaction(sig, si, ctx);
}

/* Both faults come from here, at the same depth of the stack, so that the
 * kernel puts the second fault's frame where it put the first's. */
__attribute__((noinline)) static void leave_probe(volatile char *at)
{
	if (sigsetjmp(leave_jmp, 1) == 0)
		(void)*at;
}

static void *leave_probe_thread(void *at)
{
	leave_probe(at);
	return NULL;
}

static void child_leave(void)
{
	set_handler(leave_displaced, 0, NULL);
	if (ucopy_fault_init() != 0)
		_exit(7);
	leave_page = bad_pointer();
	leave_probe(leave_page);
	if (shared->calls != 1 + (leave_how == LEAVE_RERAISE))
		_exit(3);
	mprotect((void *)leave_page, page, PROT_NONE);
	set_handler(leave_chain, 0, &leave_chained_to);
	volatile char *at = leave_other_page ? bad_pointer() : leave_page;
	if (leave_other_thread) {
		pthread_t t;
		if (pthread_create(&t, NULL, leave_probe_thread, (void *)at) != 0 ||
		    pthread_join(t, NULL) != 0)
			_exit(6);
	} else {
		leave_probe(at);
	}
	/* The first fault's calls (two when re-raised), then the chained one. */
	_exit(shared->result[0] == 1 && shared->calls == 2 + (leave_how == LEAVE_RERAISE) ? 42 : 5);
}

static void test_leave(void)
{
	for (leave_how = 0; leave_how < LEAVE_HOWS; leave_how++)
		for (int v = 0; v < 4; v++) {
			leave_other_page = v & 1;
			leave_other_thread = v >> 1;
			memset(shared, 0, sizeof *shared);
			int st = in_child(child_leave);
			CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 42,
			      "the displaced handler %s, then a fault through a chain at %s "
			      "page from %s thread: status %#x (exit 3: first fault, 5: chain), "
			      "%d calls", leave_name[leave_how],
			      leave_other_page ? "another" : "the same",
			      leave_other_thread ? "another" : "the same", st, shared->calls);
		}
	check_group("signals: a displaced handler that returns, leaves by siglongjmp or "
		    "re-raises leaves nothing behind for the next fault");
}

static void test_chaining(void)
{
	int st = in_child(child_app_handler_first);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 42,
	      "application handler installed first: status %#x", st);
	st = in_child(child_altstack);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 42, "on a sigaltstack: status %#x", st);
	st = in_child(child_replaced);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 42,
	      "handler replaced, then ucopy_fault_init again: status %#x", st);
	st = in_child(child_sent_signal);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 42, "a sent SIGSEGV: status %#x", st);
	check_group("fault chaining: application handlers, altstack, re-install");
	st = in_child(child_no_handler);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV,
	      "no handler: a fault outside ucopy must kill with SIGSEGV, status %#x", st);
	st = in_child(child_memcpy_fault);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV,
	      "a fault inside ucopy_memcpy must kill with SIGSEGV, status %#x", st);
	st = in_child(child_ignored);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV,
	      "SIG_IGN: a real fault must still kill with SIGSEGV, status %#x", st);
	check_group("fault chaining: the default action");
	test_plain_bodies();
}


int main(void)
{
	page = (size_t)sysconf(_SC_PAGESIZE);
	setvbuf(stdout, NULL, _IOLBF, 0);
	shared = mmap(NULL, sizeof *shared, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED) {
		perror("mmap");
		return 2;
	}
	/* Every scenario in a child, while no handler is installed here. */
	test_chaining();
	test_mask();
	test_deeper();
	test_leave();
	test_pid1();
	test_resethand();
	test_nodefer();
	test_cycle();
	test_sent();
	test_copy_in_handler();
	test_first_use_in_handler();
	test_blocked();
	CHECK(!ucopy_fault_installed(), "a scenario installed the handler in the parent");
	check_group("signals: the parent was left alone");
	return check_exit();
}
