/*
 * check_child.c - the cases run in a child process (check_child.h).
 */
#define _GNU_SOURCE
#include "check_child.h"
#include "errmsg.h"
#include "timer.h"
#include "ucopy.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* What the child tells the parent: records written whole (one write of
 * less than PIPE_BUF bytes is never split). */
enum { REC_SITES, REC_FAIL, REC_ERROR, REC_DONE };
struct rec {
	uint32_t type;
	int32_t value;         /* REC_SITES: the count, or -errno */
	uint64_t index;        /* the case */
	char msg[240];
};

struct shared {
	uint64_t at;           /* the case the child is at */
};

/* The child's end of a failed record: nothing left to do but stop. */
static void say(int fd, uint32_t type, int32_t value, uint64_t index, const char *msg)
{
	struct rec r = { .type = type, .value = value, .index = index };
	snprintf(r.msg, sizeof r.msg, "%s", msg);
	if (write(fd, &r, sizeof r) != (ssize_t)sizeof r)
		_exit(4);
}

static void __attribute__((noreturn))
child(int fd, struct shared *sh, const struct routine *r, const struct check_matrix *m,
      struct check_arena *a, const struct check_opts *o, size_t start, size_t budget)
{
	/* A routine killed by a signal is a result, not a core file. */
	struct rlimit none = { 0, 0 };
	setrlimit(RLIMIT_CORE, &none);
#ifdef PR_SET_PDEATHSIG
	/* A hung routine must not outlive a ucopy killed while it waits. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
	if (r->contract == ROUTINE_TRY) {
		int n = ucopy_fault_register((const void *)(uintptr_t)r->try_fn);
		say(fd, REC_SITES, n < 0 ? -errno : n, 0, "");
	}
	size_t failed = 0, i;
	char why[sizeof ((struct rec *)0)->msg];
	for (i = start; i < m->n; i++) {
		__atomic_store_n(&sh->at, i, __ATOMIC_RELEASE);
		int rc = check_case_run(a, r, &m->v[i], o->at_least, why, sizeof why);
		if (rc < 0) {
			say(fd, REC_ERROR, 0, i, why);
			_exit(3);
		}
		if (rc > 0) {
			say(fd, REC_FAIL, 0, i, why);
			if (budget && ++failed == budget) {
				i++;
				break;
			}
		}
	}
	say(fd, REC_DONE, 0, i, "");
	_exit(0);
}

static const char *signal_name(int sig)
{
	switch (sig) {
	case SIGSEGV: return "SIGSEGV";
	case SIGBUS: return "SIGBUS";
	case SIGILL: return "SIGILL";
	case SIGFPE: return "SIGFPE";
	case SIGABRT: return "SIGABRT";
	case SIGTRAP: return "SIGTRAP";
	case SIGSYS: return "SIGSYS";
	case SIGKILL: return "SIGKILL";
	default: return NULL;
	}
}

/* Why a child killed by sig died on case c, in words. */
static void say_killed(char *buf, size_t len, const struct routine *r,
		       const struct check_case *c, int sig, int sites)
{
	const char *name = signal_name(sig);
	char num[32];
	if (!name) {
		snprintf(num, sizeof num, "signal %d", sig);
		name = num;
	}
	int injected = c->kind == CHECK_FAULT &&
		       sig == (c->sig == CHECK_SEGV ? SIGSEGV : SIGBUS);
	if (injected)
		snprintf(buf, len, "the routine was killed by %s at the injected fault "
			 "(the likely cause: the faulting access has no fault-table entry, "
			 "UCOPY_EXTABLE of <ucopy-asm.h>%s)", name,
			 sites == 0 ? "; its object lists none" : "");
	else if (sig == SIGSEGV || sig == SIGBUS)
		snprintf(buf, len, "the routine was killed by %s (a fault outside its "
			 "contract: an access outside src[0..n) and dst[0..n) meets a guard "
			 "page%s)", name, r->contract == ROUTINE_TRY ? ", or a faulting access "
			 "has no fault-table entry" : "");
	else
		snprintf(buf, len, "the routine was killed by %s (%s)", name, strsignal(sig));
}

struct run {
	const struct routine *r;
	const struct check_matrix *m;
	const struct check_opts *o;
	const struct check_report *rep;
	struct check_result *res;
	int sites;             /* REC_SITES's count; -2 before the first */
};

/* A case failed: told, counted; 1 when that was the last one allowed. */
static int failed(struct run *u, size_t index, const char *why)
{
	u->rep->fail(u->rep->ctx, &u->m->v[index], why);
	if (index + 1 > u->res->run)
		u->res->run = index + 1;
	u->res->failed++;
	return u->o->max_failures && u->res->failed >= u->o->max_failures;
}

static ssize_t read_rec(int fd, struct rec *rec)
{
	size_t got = 0;
	while (got < sizeof *rec) {
		ssize_t k = read(fd, (char *)rec + got, sizeof *rec - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return (ssize_t)got;
		got += (size_t)k;
	}
	return (ssize_t)got;
}

/* What the parent does with one record.  @return : 1 on REC_DONE, -1 on
 * REC_ERROR (why in err), else 0. */
static int take(struct run *u, const struct rec *rec, int *stop, char *err, size_t errlen)
{
	switch (rec->type) {
	case REC_SITES:
		if (u->sites == -2 && u->rep->sites)
			u->rep->sites(u->rep->ctx, rec->value < 0 ? -1 : rec->value,
				      rec->value < 0 ? -rec->value : 0);
		u->sites = rec->value;
		return 0;
	case REC_FAIL:
		if (rec->index < u->m->n && !*stop)
			*stop = failed(u, (size_t)rec->index, rec->msg);
		return 0;
	case REC_DONE:
		if (rec->index > u->res->run)
			u->res->run = (size_t)rec->index;
		return 1;
	default:
		errmsg(err, errlen, "%s", rec->msg);
		return -1;
	}
}

/* One child, from case start on.  *next: where the next child starts (the
 * end when this one finished); *stop: max_failures reached.
 * @return : 0, or -1 with why in err. */
static int one_child(struct run *u, struct shared *sh, struct check_arena *a, size_t *next,
		     int *stop, char *err, size_t errlen)
{
	size_t start = *next;
	int fds[2];
	if (pipe2(fds, O_CLOEXEC))
		return errmsg(err, errlen, "pipe: %s", strerror(errno));
	__atomic_store_n(&sh->at, start, __ATOMIC_RELEASE);
	size_t budget = u->o->max_failures ? u->o->max_failures - u->res->failed : 0;
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return errmsg(err, errlen, "fork: %s", strerror(errno));
	}
	if (pid == 0) {
		close(fds[0]);
		child(fds[1], sh, u->r, u->m, a, u->o, start, budget);
	}
	close(fds[1]);
	size_t at = start;
	double since = clock_seconds();
	int done = 0, hung = 0, rc = 0;
	for (;;) {
		struct pollfd pfd = { .fd = fds[0], .events = POLLIN };
		int pr = poll(&pfd, 1, 50);
		if (pr > 0) {
			struct rec rec;
			if (read_rec(fds[0], &rec) != (ssize_t)sizeof rec)
				break;   /* the child is gone */
			int t = take(u, &rec, stop, err, errlen);
			if (t < 0)
				rc = -1;
			done |= t > 0;
			continue;
		}
		size_t now = (size_t)__atomic_load_n(&sh->at, __ATOMIC_ACQUIRE);
		if (now != at) {
			at = now;
			since = clock_seconds();
		} else if (clock_seconds() - since > u->o->timeout) {
			kill(pid, SIGKILL);
			hung = 1;
			break;
		}
	}
	close(fds[0]);
	int st = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	at = (size_t)__atomic_load_n(&sh->at, __ATOMIC_ACQUIRE);
	if (rc || done) {
		*next = u->m->n;
		return rc;
	}
	char why[320];
	if (hung)
		snprintf(why, sizeof why, "the routine did not return within %g s (hung); "
			 "it was killed", u->o->timeout);
	else if (WIFSIGNALED(st))
		say_killed(why, sizeof why, u->r, &u->m->v[at], WTERMSIG(st), u->sites);
	else
		snprintf(why, sizeof why, "the routine ended the process (exit status %d)",
			 WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	if (!*stop)
		*stop = failed(u, at, why);
	*next = at + 1;
	return 0;
}

int check_run(const struct routine *r, const struct check_matrix *m, struct check_arena *a,
	      const struct check_opts *o, const struct check_report *rep,
	      struct check_result *res, char *err, size_t errlen)
{
	memset(res, 0, sizeof *res);
	double t0 = clock_seconds();
	struct shared *sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return errmsg(err, errlen, "mmap: %s", strerror(errno));
	struct run u = { .r = r, .m = m, .o = o, .rep = rep, .res = res, .sites = -2 };
	size_t next = 0;
	int stop = 0, rc = 0;
	while (!rc && !stop && next < m->n)
		rc = one_child(&u, sh, a, &next, &stop, err, errlen);
	res->stopped = stop && res->run < m->n;
	res->seconds = clock_seconds() - t0;
	munmap(sh, sizeof *sh);
	return rc;
}
