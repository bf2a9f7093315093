/*
 * test_setuid.c - the library's environment variables in a setuid program.
 *
 * A setuid-root program linked with libucopy, run by another user, has that
 * user's environment: UCOPY_PROFILE naming a file only root reads had the
 * library open it as root, and ucopy_active()'s reason tell whether it
 * exists and how its first line reads.  This program makes a copy of itself
 * that is setuid root, runs it as nobody (uid and gid 65534, through
 * setpriv) with UCOPY_PROFILE naming such a file, UCOPY_POLICY and
 * UCOPY_FEATURES set, and checks that the library read none of them.  The
 * same copy without the setuid bit reads all three, which shows the run
 * sets them as the library looks for them.  It needs root, setpriv and a
 * file system that honours setuid, and skips, saying why, without one.
 */
#define _GNU_SOURCE
#include "check.h"
#include "ucopy.h"

#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#define NAME "setuid: the library's environment variables"
#define REPORT_ARG "--report"
#define NOBODY "65534"
#define BAD_POLICY "no-such-policy"
#define BAD_FEATURES "-no-such-feature"

/* What the library made of the environment, one "KEY VALUE" a line. */
static int report(void)
{
	const struct ucopy_active *a = ucopy_active();
	printf("euid %u\n", (unsigned)geteuid());
	printf("source %s\n", ucopy_source_name(a->source));
	printf("profile %s\n", a->profile);
	printf("reason %s\n", a->reason);
	printf("mask %s\n", ucopy_cpu()->mask_note);
	return 0;
}

struct run {
	int ran;           /* the report came */
	unsigned euid;
	char source[64], profile[1024], reason[1024], mask[256];
	char out[4096];    /* everything it printed, for a failure's message */
};

static void field(const char *out, const char *key, char *v, size_t len)
{
	size_t k = strlen(key);
	v[0] = 0;
	for (const char *l = out; *l;) {
		const char *e = strchrnul(l, '\n');
		if ((size_t)(e - l) > k && !strncmp(l, key, k) && l[k] == ' ') {
			snprintf(v, len, "%.*s", (int)(e - l - k - 1), l + k + 1);
			return;
		}
		l = *e ? e + 1 : e;
	}
}

/* Runs prog --report as nobody with the three variables set. */
static void run_as_nobody(const char *prog, const char *secret, struct run *r)
{
	memset(r, 0, sizeof *r);
	int fd[2];
	if (pipe(fd) < 0)
		return;
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fd[1], 1);
		dup2(fd[1], 2);
		close(fd[0]);
		close(fd[1]);
		setenv("UCOPY_PROFILE", secret, 1);
		setenv("UCOPY_POLICY", BAD_POLICY, 1);
		setenv("UCOPY_FEATURES", BAD_FEATURES, 1);
		execlp("setpriv", "setpriv", "--reuid=" NOBODY, "--regid=" NOBODY,
		       "--clear-groups", "--", prog, REPORT_ARG, (char *)NULL);
		printf("cannot run setpriv\n");
		_exit(127);
	}
	close(fd[1]);
	size_t n = 0;
	ssize_t got;
	while (n < sizeof r->out - 1 && (got = read(fd[0], r->out + n, sizeof r->out - 1 - n)) > 0)
		n += (size_t)got;
	r->out[n] = 0;
	close(fd[0]);
	int st;
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		return;
	char euid[32];
	field(r->out, "euid", euid, sizeof euid);
	field(r->out, "source", r->source, sizeof r->source);
	field(r->out, "profile", r->profile, sizeof r->profile);
	field(r->out, "reason", r->reason, sizeof r->reason);
	field(r->out, "mask", r->mask, sizeof r->mask);
	r->euid = (unsigned)strtoul(euid, NULL, 10);
	r->ran = euid[0] != 0;
}

static int copy_file(const char *from, const char *to)
{
	int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0700);
	char buf[65536];
	ssize_t n = 0;
	while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof buf)) > 0)
		if (write(out, buf, (size_t)n) != n) {
			n = -1;
			break;
		}
	int ok = in >= 0 && out >= 0 && n == 0;
	if (in >= 0)
		close(in);
	if (out >= 0 && close(out) < 0)
		ok = 0;
	return ok ? 0 : -1;
}

/* A directory for the setuid copy that nobody can reach: beside this
 * program (the build directory), else in /tmp; "" when neither honours
 * setuid. */
static void make_dir(const char *self, char *dir, size_t len)
{
	char buf[4096];
	snprintf(buf, sizeof buf, "%s", self);
	const char *bases[2] = { dirname(buf), "/tmp" };
	for (int i = 0; i < 2; i++) {
		struct statvfs v;
		if (statvfs(bases[i], &v) < 0 || (v.f_flag & ST_NOSUID))
			continue;
		snprintf(dir, len, "%s/setuid-XXXXXX", bases[i]);
		if (mkdtemp(dir) && chmod(dir, 0755) == 0)
			return;
	}
	dir[0] = 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], REPORT_ARG))
		return report();
	setvbuf(stdout, NULL, _IOLBF, 0);
	const char *wrap = getenv("UCOPY_TEST_WRAP");
	if (wrap && *wrap) {
		check_skip(NAME, "run under an emulator, which does not honour setuid");
		return 0;
	}
	if (geteuid() != 0) {
		check_skip(NAME, "not root: cannot make a program setuid root");
		return 0;
	}
	if (system("setpriv --version >/dev/null 2>&1") != 0) {
		check_skip(NAME, "no setpriv (util-linux) to run a program as nobody");
		return 0;
	}
	char self[4096], dir[4200], prog[4300], secret[4300];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0) {
		check_skip(NAME, "cannot find this program (/proc/self/exe)");
		return 0;
	}
	self[n] = 0;
	make_dir(self, dir, sizeof dir);
	if (!dir[0]) {
		check_skip(NAME, "neither the build directory nor /tmp is on a file system "
			   "that honours setuid (nosuid)");
		return 0;
	}
	snprintf(prog, sizeof prog, "%s/prog", dir);
	snprintf(secret, sizeof secret, "%s/secret", dir);
	int fd = open(secret, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0 && write(fd, "root's secret\n", 14) == 14, "writing %s", secret);
	if (fd >= 0)
		close(fd);
	CHECK(copy_file(self, prog) == 0 && chmod(prog, 0755) == 0, "copying to %s", prog);

	/* Without the setuid bit: nobody's program reads the variables, and
	 * cannot open the file. */
	struct run plain, suid;
	run_as_nobody(prog, secret, &plain);
	if (!plain.ran) {
		char why[4600];
		snprintf(why, sizeof why, "nobody cannot run %s: %.200s", prog, plain.out);
		check_skip(NAME, why);
		goto out;
	}
	CHECK(plain.euid == 65534, "plain copy: euid %u", plain.euid);
	CHECK(!strcmp(plain.profile, secret) && strstr(plain.reason, secret) &&
	      strstr(plain.reason, BAD_POLICY) && strstr(plain.mask, BAD_FEATURES),
	      "plain copy: the variables not read as set:\n%s", plain.out);

	/* Setuid root: none of them is read. */
	CHECK(chown(prog, 0, 0) == 0 && chmod(prog, 04755) == 0, "chmod 4755 %s", prog);
	run_as_nobody(prog, secret, &suid);
	if (suid.ran && suid.euid != 0) {
		check_skip(NAME, "the setuid bit did not take effect here (no_new_privs, or a "
			   "user namespace)");
		goto out;
	}
	CHECK(suid.ran, "setuid copy did not report:\n%s", suid.out);
	CHECK(!strstr(suid.profile, secret) && !strstr(suid.reason, secret),
	      "setuid copy: UCOPY_PROFILE read, the file opened as root (profile '%s', "
	      "reason '%s')", suid.profile, suid.reason);
	CHECK(!strstr(suid.reason, BAD_POLICY), "setuid copy: UCOPY_POLICY read: %s",
	      suid.reason);
	CHECK(!suid.mask[0], "setuid copy: UCOPY_FEATURES read: %s", suid.mask);
	CHECK(!strcmp(suid.source, "default"), "setuid copy: source %s", suid.source);
	check_group(NAME);
out:
	unlink(prog);
	unlink(secret);
	rmdir(dir);
	return check_exit();
}
