/*
 * toolchain.c - the headers and the compiler `ucopy kbuild` builds with,
 * its command line and its run (toolchain.h).
 */
#include "toolchain.h"
#include "child.h"
#include "cli.h"
#include "output.h"
#include "ucopy.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The messages are kbuild's, and name its options. */
#define CMD "kbuild"

/* Where `make install` puts the headers: kcompat/ under
 * INCLUDEDIR/ucopy, beside <ucopy-asm.h> in INCLUDEDIR (the Makefile
 * passes its INCLUDEDIR). */
#ifndef UCOPY_INCLUDEDIR
#define UCOPY_INCLUDEDIR "/usr/local/include"
#endif

/*=====   Where the headers are, and the compiler   =====*/

static int is_file(const char *dir, const char *rel)
{
	char path[PATH_MAX + 64];
	struct stat st;
	snprintf(path, sizeof path, "%s/%s", dir, rel);
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int try_dirs(struct toolchain *t, const char *kc, const char *inc)
{
	if (!is_file(kc, "common/linux/linkage.h") || !is_file(inc, "ucopy-asm.h"))
		return 0;
	return realpath(kc, t->kcompat) && realpath(inc, t->include);
}

int toolchain_headers(struct toolchain *t)
{
	char exe[PATH_MAX], kc[PATH_MAX + 64], inc[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	char *slash = n > 0 ? (exe[n] = 0, strrchr(exe, '/')) : NULL;
	if (slash) {
		*slash = 0;
		snprintf(kc, sizeof kc, "%s/../kcompat", exe);
		snprintf(inc, sizeof inc, "%s/../include", exe);
		if (try_dirs(t, kc, inc))
			return 0;
		snprintf(kc, sizeof kc, "%s/../include/ucopy/kcompat", exe);
		if (try_dirs(t, kc, inc))
			return 0;
	}
	if (try_dirs(t, UCOPY_INCLUDEDIR "/ucopy/kcompat", UCOPY_INCLUDEDIR))
		return 0;
	cli_error("cannot find the kernel compatibility headers (kcompat/ and ucopy-asm.h "
		  "beside the command, or in %s)", UCOPY_INCLUDEDIR);
	return EXIT_FAIL;
}

/* The first line `words -dumpmachine` prints, or "" when it does not run. */
static void dumpmachine(char *const *words, char *buf, size_t len)
{
	char *argv[18];
	size_t n = 0;
	int fd[2];
	buf[0] = 0;
	while (words[n] && n < 16) {
		argv[n] = words[n];
		n++;
	}
	argv[n++] = "-dumpmachine";
	argv[n] = NULL;
	if (pipe(fd))
		return;
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0)
			dup2(null, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fd[1]);
	ssize_t got = pid > 0 ? read(fd[0], buf, len - 1) : -1;
	close(fd[0]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	buf[got > 0 ? got : 0] = 0;
	buf[strcspn(buf, "\n")] = 0;
}

static size_t split_words(char *s, char **words, size_t max)
{
	size_t n = 0;
	for (char *t = strtok(s, " \t"); t && n < max - 1; t = strtok(NULL, " \t"))
		words[n++] = t;
	words[n] = NULL;
	return n;
}

static int targets(const char *machine, const char *arch)
{
	size_t n = strlen(arch);
	return !strncmp(machine, arch, n) && machine[n] == '-';
}

/* $CC and cc are asked too, not assumed: under qemu-user an aarch64
 * ucopy's `cc` is the host's. */
int toolchain_compiler(struct toolchain *t, const char *arch, const char *cc)
{
	char cross[64], machine[128];
	snprintf(cross, sizeof cross, "%s-linux-gnu-gcc", arch);
	const char *env = getenv("CC");
	const char *cands[3] = { cc ? cc : env && env[0] ? env : NULL,
				 cc ? NULL : "cc", cc ? NULL : cross };
	for (int i = 0; i < 3; i++) {
		if (!cands[i])
			continue;
		snprintf(t->cc_buf, sizeof t->cc_buf, "%s", cands[i]);
		snprintf(t->cc_text, sizeof t->cc_text, "%s", cands[i]);
		if (!split_words(t->cc_buf, t->cc_words, 16))
			continue;
		dumpmachine(t->cc_words, machine, sizeof machine);
		if (targets(machine, arch))
			return 0;
		if (cc && machine[0])
			return cli_usage_error(CMD, "bad --cc '%s': it builds for %s (expected a "
					       "compiler for %s)", cc, machine, arch);
		if (cc)
			return cli_usage_error(CMD, "bad --cc '%s': '%s -dumpmachine' does not run "
					       "(expected a C compiler for %s)", cc, cc, arch);
	}
	cli_error("no C compiler for %s (tried %s%scc and %s): --cc names one", arch,
		  env && env[0] ? env : "", env && env[0] ? ", " : "", cross);
	return EXIT_USAGE;
}

/*=====   The command line   =====*/

static void arg_add(struct toolchain_argv *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void arg_add(struct toolchain_argv *a, const char *fmt, ...)
{
	va_list ap;
	if (a->n + 1 >= TOOLCHAIN_MAX_ARGS || a->used >= sizeof a->store)
		return;
	va_start(ap, fmt);
	int len = vsnprintf(a->store + a->used, sizeof a->store - a->used, fmt, ap);
	va_end(ap);
	if (len < 0 || a->used + (size_t)len + 1 > sizeof a->store)
		return;
	a->argv[a->n++] = a->store + a->used;
	a->argv[a->n] = NULL;
	a->used += (size_t)len + 1;
}

static void file_dir(const char *file, char *buf, size_t len)
{
	const char *slash = strrchr(file, '/');
	if (!slash)
		snprintf(buf, len, ".");
	else
		snprintf(buf, len, "%.*s", slash == file ? 1 : (int)(slash - file), file);
}

/* The headers come after FILE's directory, so that `#include
 * "copy_template.S"` and a tree's own headers come first. */
void toolchain_command(const struct toolchain *t, const struct toolchain_job *j,
		       struct toolchain_argv *a)
{
	char dir[PATH_MAX];
	file_dir(j->file, dir, sizeof dir);
	for (size_t i = 0; t->cc_words[i]; i++)
		arg_add(a, "%s", t->cc_words[i]);
	static const char *const fixed[] = {
		"-shared", "-fPIC", "-nostdlib", "-Wa,--noexecstack", "-Wl,-z,noexecstack",
		"-Wl,-z,text", "-Wl,-z,defs", "-D__ASSEMBLY__" };
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		arg_add(a, "%s", fixed[i]);
	arg_add(a, "-DUCOPY_KSYMBOL=%s", j->symbol);
	arg_add(a, "-DUCOPY_KENTRY=%s", j->entry);
	for (unsigned b = 0; b < UCOPY_FEAT_COUNT; b++) {
		const char *name = ucopy_feature_name(b);
		char up[32];
		size_t i;
		if (!name || !((j->features >> b) & 1))
			continue;
		for (i = 0; name[i] && i < sizeof up - 1; i++)
			up[i] = (char)toupper((unsigned char)name[i]);
		up[i] = 0;
		arg_add(a, "-DUCOPY_KFEAT_%s", up);
	}
	arg_add(a, "-I%s", dir);
	arg_add(a, "-I%s/%s", t->kcompat, j->arch);
	arg_add(a, "-I%s/common", t->kcompat);
	arg_add(a, "-I%s", t->include);
	arg_add(a, "%s", j->file);
	arg_add(a, "%s/%s/wrap-%s.S", t->kcompat, j->arch, j->convention);
	arg_add(a, "-o");
	arg_add(a, "%s", j->out);
}

void toolchain_print(char *const *argv, FILE *f)
{
	for (size_t i = 0; argv[i]; i++) {
		if (i)
			putc(' ', f);
		shell_word(f, argv[i]);
	}
	putc('\n', f);
}

/*=====   The run   =====*/

int toolchain_run(const struct toolchain *t, char *const *argv, const char *file)
{
	struct child_opts o = { .preload = NULL };
	struct child_result r;
	char err[256];
	if (child_run(argv, &o, &r, err, sizeof err) < 0) {
		cli_error("%s", err);
		return EXIT_USAGE;
	}
	if (!WIFEXITED(r.status) || WEXITSTATUS(r.status)) {
		char how[96];
		child_describe(r.status, how, sizeof how);
		cli_error("%s did not build (%s: %s; its messages are above)", file, t->cc_text, how);
		return EXIT_USAGE;
	}
	return 0;
}
