/*
 * child.c - a program run under libucopy-preload.so (child.h).
 */
#define _GNU_SOURCE
#include "child.h"
#include "ucopy.h"

#include <elf.h>
#include <errno.h>
#include <link.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef UCOPY_LIBDIR
#define UCOPY_LIBDIR "/usr/local/lib"
#endif

#define PRELOAD_NAME "libucopy-preload.so"

/* Whether the PT_NOTE segment ph of fd holds the interposer's note (owner
 * "ucopy", type 1: preload/preload.c). */
static int has_interposer_note(int fd, const ElfW(Phdr) *ph)
{
	unsigned char buf[4096];
	size_t n = ph->p_filesz < sizeof buf ? (size_t)ph->p_filesz : sizeof buf;
	if (pread(fd, buf, n, (off_t)ph->p_offset) != (ssize_t)n)
		return 0;
	for (size_t at = 0; at + 12 <= n;) {
		uint32_t h[3];
		memcpy(h, buf + at, sizeof h);
		size_t name = ((size_t)h[0] + 3) & ~(size_t)3;
		size_t desc = ((size_t)h[1] + 3) & ~(size_t)3;
		if (name > n || desc > n || at + 12 + name + desc > n)
			return 0;
		if (h[0] == 6 && h[2] == 1 && !memcmp(buf + at + 12, "ucopy", 6))
			return 1;
		at += 12 + name + desc;
	}
	return 0;
}

/* Whether the file at p is a shared library this build's programs can
 * preload: an ELF of this machine's class, byte order and architecture,
 * position-independent (ET_DYN) and without an interpreter (which a PIE
 * executable has).  Anything else ld.so skips with a warning, and the
 * program would run without ucopy under a name that says it ran with it;
 * so would it with any other library, hence *interposer: whether the file
 * carries the interposer's note.
 * @return : 1 when it is, 0 when it is not, -errno when it cannot be read. */
static int is_shared_library(const char *p, int *interposer)
{
#if defined(__x86_64__)
	const unsigned want = EM_X86_64;
#elif defined(__aarch64__)
	const unsigned want = EM_AARCH64;
#else
	const unsigned want = 0;   /* any: the other checks still hold */
#endif
	ElfW(Ehdr) eh;
	int fd = open(p, O_RDONLY | O_CLOEXEC | O_NONBLOCK), ok = 0;
	if (fd < 0)
		return -errno;
	if (pread(fd, &eh, sizeof eh, 0) != (ssize_t)sizeof eh ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32) ||
	    eh.e_ident[EI_DATA] != (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB
									 : ELFDATA2MSB) ||
	    eh.e_type != ET_DYN || (want && eh.e_machine != want) ||
	    eh.e_phentsize != sizeof(ElfW(Phdr)) || eh.e_phnum == 0 || eh.e_phnum > 256)
		goto out;
	ok = 1;
	for (unsigned i = 0; i < eh.e_phnum && ok; i++) {
		ElfW(Phdr) ph;
		if (pread(fd, &ph, sizeof ph, (off_t)(eh.e_phoff + i * sizeof ph)) !=
		    (ssize_t)sizeof ph || ph.p_type == PT_INTERP)
			ok = 0;
		else if (ph.p_type == PT_NOTE && !*interposer)
			*interposer = has_interposer_note(fd, &ph);
	}
out:
	close(fd);
	return ok;
}

/* 1 with the absolute path in path when dir/rel is a shared object, else
 * 0 with why it is not in why. */
static int try_file(const char *dir, const char *rel, char *path, size_t len,
		    char *why, size_t wl)
{
	char p[PATH_MAX + 64];
	struct stat st;
	snprintf(p, sizeof p, dir[0] ? "%s/%s" : "%s%s", dir, rel);
	if (stat(p, &st) != 0) {
		snprintf(why, wl, "%s", errno == ENOENT || errno == ENOTDIR ? "no such file"
									: strerror(errno));
		return 0;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, wl, "%s", S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
		return 0;
	}
	int interposer = 0, lib = is_shared_library(p, &interposer);
	if (lib <= 0) {
		if (lib < 0)
			snprintf(why, wl, "cannot read it: %s", strerror(-lib));
		else
			snprintf(why, wl, "not a shared library for this machine");
		return 0;
	}
	if (!interposer) {
		snprintf(why, wl, "a shared library, but not ucopy's interposer (%s)", PRELOAD_NAME);
		return 0;
	}
	/* ld.so resolves a relative LD_PRELOAD against each program's own
	 * working directory: the path must be absolute.  The canonical one,
	 * unless only the path as given (a link) is one LD_PRELOAD can carry:
	 * ld.so splits it at a space or a colon, with no way to escape them. */
	char abs[PATH_MAX], given[PATH_MAX + 64] = "";
	if (!realpath(p, abs)) {
		snprintf(why, wl, "%s", strerror(errno));
		return 0;
	}
	if (p[0] == '/')
		snprintf(given, sizeof given, "%s", p);
	else if (getcwd(given, PATH_MAX)) {
		size_t at = strlen(given), n = strlen(p);
		if (at + 1 + n < sizeof given) {
			given[at] = '/';
			memcpy(given + at + 1, p, n + 1);
		} else {
			given[0] = 0;
		}
	}
	const char *use = !strpbrk(abs, " :") ? abs : given[0] && !strpbrk(given, " :") ? given
											: NULL;
	if (!use) {
		snprintf(why, wl, "its full path has a space or a colon, which LD_PRELOAD "
			 "cannot carry (ld.so(8)): copy or link it to a path without them");
		return 0;
	}
	if (strlen(use) >= len) {
		snprintf(why, wl, "its full path is longer than %zu bytes", len - 1);
		return 0;
	}
	memcpy(path, use, strlen(use) + 1);
	return 1;
}

int preload_find(char *path, size_t len, char *err, size_t errlen)
{
	const char *env = getenv("UCOPY_PRELOAD");
	if (env && env[0])
		return try_file(env[0] == '/' ? "" : ".", env, path, len, err, errlen)
			       ? 0 : PRELOAD_BAD_ENV;
	/* The first candidate that is there but unusable says why the search
	 * failed better than "not found". */
	char why[160], first[PATH_MAX + 200] = "";
	const char *dirs[3] = { NULL, NULL, UCOPY_LIBDIR };
	const char *rels[3] = { PRELOAD_NAME, ("../lib/" PRELOAD_NAME), PRELOAD_NAME };
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	char *slash = n > 0 ? (exe[n] = 0, strrchr(exe, '/')) : NULL;
	if (slash) {
		*slash = 0;
		dirs[0] = dirs[1] = exe;
	}
	for (int i = 0; i < 3; i++) {
		if (!dirs[i])
			continue;
		if (try_file(dirs[i], rels[i], path, len, why, sizeof why))
			return 0;
		if (!first[0] && strcmp(why, "no such file"))
			snprintf(first, sizeof first, "; %s/%s: %s", dirs[i], rels[i], why);
	}
	snprintf(err, errlen, "cannot find %s (not beside the command, nor in %s%s; "
		 "UCOPY_PRELOAD may name it)", PRELOAD_NAME, UCOPY_LIBDIR, first);
	return -1;
}

/* LD_PRELOAD without the interposer: a run without it (compare's `libc`)
 * started from under `ucopy run` would otherwise still have it.  Entries
 * are separated by colons or spaces (ld.so(8)). */
static void strip_interposer(void)
{
	const char *old = getenv("LD_PRELOAD");
	if (!old)
		return;
	size_t n = strlen(old), at = 0;
	char *v = malloc(n + 1);
	if (!v)
		return;
	for (const char *p = old; *p;) {
		size_t l = strcspn(p, ": ");
		const char *base = p + l;
		while (base > p && base[-1] != '/')
			base--;
		size_t bl = (size_t)(p + l - base);
		if (l && !(bl == strlen(PRELOAD_NAME) && !memcmp(base, PRELOAD_NAME, bl))) {
			if (at)
				v[at++] = ':';
			memcpy(v + at, p, l);
			at += l;
		}
		p += l;
		if (*p)
			p++;
	}
	v[at] = 0;
	if (at)
		setenv("LD_PRELOAD", v, 1);
	else
		unsetenv("LD_PRELOAD");
	free(v);
}

/* In the child, before exec: the environment the options ask for.  notify:
 * the pipe the interposer says it loaded on, or -1. */
static void child_env(const struct child_opts *o, int notify)
{
	unsetenv("UCOPY_PRELOAD_NOTIFY");
	if (!o->preload)
		strip_interposer();
	struct stat st;
	if (notify >= 0 && fstat(notify, &st) == 0 && fcntl(notify, F_SETFD, 0) == 0) {
		char v[48];
		snprintf(v, sizeof v, "%d:%llu", notify, (unsigned long long)st.st_ino);
		setenv("UCOPY_PRELOAD_NOTIFY", v, 1);
	}
	if (o->preload) {
		const char *old = getenv("LD_PRELOAD");
		if (old && old[0]) {
			size_t l = strlen(o->preload) + strlen(old) + 2;
			char *v = malloc(l);
			if (v) {
				snprintf(v, l, "%s:%s", o->preload, old);
				setenv("LD_PRELOAD", v, 1);
			}
		} else {
			setenv("LD_PRELOAD", o->preload, 1);
		}
		if (o->no_inherit)
			setenv("UCOPY_PRELOAD_NO_INHERIT", "1", 1);
		else
			unsetenv("UCOPY_PRELOAD_NO_INHERIT");
	}
	if (o->policy)
		setenv("UCOPY_POLICY", o->policy, 1);
	if (o->trace_out)
		setenv("UCOPY_TRACE_OUT", o->trace_out, 1);
	else
		unsetenv("UCOPY_TRACE_OUT");
	if (o->trace_cap)
		setenv("UCOPY_TRACE_CAP", o->trace_cap, 1);
	if (o->quiet) {
		int fd = open("/dev/null", O_WRONLY);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
			if (fd > 2)
				close(fd);
		}
	}
}

/* fd moved to 3 or above, close-on-exec, or -1: started with 0, 1 or 2
 * closed, ucopy would get them from pipe(), and the child's dup2 onto its
 * stdout would then replace the pipe that says exec failed. */
static int above_stdio(int fd)
{
	if (fd > 2)
		return fd;
	int n = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	close(fd);
	return n;
}

static int pipe_above_stdio(int p[2], int flags)
{
	if (pipe2(p, O_CLOEXEC | flags) != 0)
		return -1;
	p[0] = above_stdio(p[0]);
	p[1] = above_stdio(p[1]);
	if (p[0] >= 0 && p[1] >= 0)
		return 0;
	int e = errno;
	if (p[0] >= 0)
		close(p[0]);
	if (p[1] >= 0)
		close(p[1]);
	errno = e;
	return -1;
}

static void close_pair(int p[2])
{
	for (int i = 0; i < 2; i++)
		if (p[i] >= 0)
			close(p[i]);
	p[0] = p[1] = -1;
}

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The child a SIGTERM or SIGHUP sent to ucopy is passed on to: the command
 * then waits for it and does what it does after any run (trace merges the
 * records), rather than dying and leaving the program running. */
static volatile pid_t forward_to;

static void forward(int sig)
{
	pid_t p = forward_to;
	if (p > 0)
		kill(p, sig);
}

/* Over 100 lines: fork to wait, with the signals and pipes every exit restores in one frame. */
int child_run(char *const *argv, const struct child_opts *o,
	      struct child_result *r, char *err, size_t errlen)
{
	/* report: the child's exec errno, or EOF when exec succeeded;
	 * go: the parent's word that the counters are open;
	 * notify: a byte from the interposer when it loaded (preload/preload.c,
	 * UCOPY_PRELOAD_NOTIFY), non-blocking for both: the program must
	 * never wait on it, nor ucopy on a daemon that holds it open. */
	int report[2] = { -1, -1 }, go[2] = { -1, -1 }, notify[2] = { -1, -1 };
	memset(r, 0, sizeof *r);
	for (int i = 0; i < CTR_SLOTS; i++) {
		r->ctr_total[i] = NAN;
		r->ctr_reason[i] = "disabled";
	}
	if (pipe_above_stdio(report, 0) != 0 || pipe_above_stdio(go, 0) != 0 ||
	    (o->preload && pipe_above_stdio(notify, O_NONBLOCK) != 0)) {
		snprintf(err, errlen, "cannot run '%s': %s", argv[0], strerror(errno));
		close_pair(report);
		close_pair(go);
		return -1;
	}
	/* An ignored SIGCHLD, which survives the exec that started ucopy, makes
	 * the kernel reap the child itself and wait4() fail with ECHILD. */
	struct sigaction dfl = { .sa_handler = SIG_DFL }, ochld;
	sigaction(SIGCHLD, &dfl, &ochld);
	fflush(NULL);
	double t0 = mono_s();
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "cannot run '%s': %s", argv[0], strerror(errno));
		close_pair(report);
		close_pair(go);
		close_pair(notify);
		sigaction(SIGCHLD, &ochld, NULL);
		return -1;
	}
	if (pid == 0) {
		char c;
		/* The parent's handlers (outfile's, which remove its temporary
		 * files) are not the child's business before exec resets them:
		 * a ^C now must not delete what the parent is writing.  An
		 * ignored signal stays ignored, as exec keeps it. */
		static const int caught[] = { SIGINT, SIGTERM, SIGHUP };
		for (size_t i = 0; i < sizeof caught / sizeof caught[0]; i++) {
			struct sigaction cur;
			if (sigaction(caught[i], NULL, &cur) == 0 && cur.sa_handler != SIG_IGN)
				signal(caught[i], SIG_DFL);
		}
		close(report[0]);
		close(go[1]);
		while (read(go[0], &c, 1) < 0 && errno == EINTR)
			;
		child_env(o, notify[1]);
		execvp(argv[0], argv);
		int e = errno;
		ssize_t w = write(report[1], &e, sizeof e);
		(void)w;
		_exit(127);
	}
	close(report[1]);
	close(go[0]);
	if (notify[1] >= 0) {
		close(notify[1]);
		notify[1] = -1;
	}
	/* ^C and ^\ reach the child from the terminal: ucopy outlives them. */
	struct sigaction ign = { .sa_handler = SIG_IGN }, fwd = { .sa_handler = forward };
	struct sigaction oint, oquit, oterm, ohup;
	if (o->forward_signals) {
		forward_to = pid;
		sigaction(SIGINT, &ign, &oint);
		sigaction(SIGQUIT, &ign, &oquit);
		sigaction(SIGTERM, &fwd, &oterm);
		sigaction(SIGHUP, &fwd, &ohup);
	}
	if (o->counters)
		counters_open_child(&r->ctr, pid, o->events);
	close(go[1]);
	int e = 0;
	ssize_t got;
	while ((got = read(report[0], &e, sizeof e)) < 0 && errno == EINTR)
		;
	close(report[0]);
	struct rusage ru;
	int status = 0, waited;
	while ((waited = (int)wait4(pid, &status, 0, &ru)) < 0 && errno == EINTR)
		;
	int wait_errno = errno;
	r->wall_s = mono_s() - t0;
	if (notify[0] >= 0) {
		char b[64];
		r->preload_loaded = read(notify[0], b, sizeof b) > 0;
		close(notify[0]);
	}
	if (o->forward_signals) {
		sigaction(SIGINT, &oint, NULL);
		sigaction(SIGQUIT, &oquit, NULL);
		sigaction(SIGTERM, &oterm, NULL);
		sigaction(SIGHUP, &ohup, NULL);
		forward_to = 0;
	}
	sigaction(SIGCHLD, &ochld, NULL);
	if (waited < 0) {
		if (o->counters)
			counters_close(&r->ctr);
		snprintf(err, errlen, "cannot wait for '%s': %s", argv[0], strerror(wait_errno));
		return -1;
	}
	r->status = status;
	r->cpu_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
		   (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
	if (o->counters) {
		for (int i = 0; i < CTR_SLOTS; i++) {
			r->ctr_total[i] = counters_total(&r->ctr, i);
			r->ctr_reason[i] = counters_reason(&r->ctr, i);
		}
		counters_close(&r->ctr);
	}
	if (got == (ssize_t)sizeof e) {
		struct stat st;
		/* ENOENT for a file that is there: what exec could not find is
		 * what the file names, its #! interpreter or its loader. */
		if (e == ENOENT && strchr(argv[0], '/') && stat(argv[0], &st) == 0)
			snprintf(err, errlen, "cannot run '%s': its interpreter (the #! line) or "
				 "dynamic loader does not exist", argv[0]);
		else
			snprintf(err, errlen, "cannot run '%s': %s", argv[0], strerror(e));
		return -1;
	}
	return 0;
}

void child_not_loaded(char *const *argv, char *buf, size_t len)
{
	snprintf(buf, len, "the interposer was not loaded by '%s' (a statically linked or "
		 "setuid program ignores LD_PRELOAD)", argv[0]);
}

int child_exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 1;
}

void child_describe(int status, char *buf, size_t len)
{
	if (WIFEXITED(status))
		snprintf(buf, len, "exit %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "status 0x%x", status);
}

int child_dashdash(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--"))
			return i;
	return 0;
}
