/*
 * kbuild.c - `ucopy kbuild FILE.S`: the kernel's own usercopy source, as
 * it is, built into a shared object whose one export has ucopy's `try`
 * contract, its fault sites listed for libucopy's handler
 * (docs/kbuild.md).
 *
 * The kernel's assembler names get their user-space meaning from the
 * compatibility headers (kcompat/: ALTERNATIVE chosen from a feature list,
 * _ASM_EXTABLE_UA as a fault site, SYM_FUNC_START ...), and a wrapper of
 * kcompat/ARCH/wrap-CONVENTION.S adapts the entry's registers to the C
 * ABI.  The command only finds what to build with and runs the compiler:
 * which entry a source defines is ksource.h's; here are the options, what
 * it builds with and the flow.
 */
#include "child.h"
#include "cli.h"
#include "ksource.h"
#include "ucopy.h"

#include <ctype.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define CMD "kbuild"

/* Where `make install` puts the headers: kcompat/ under
 * INCLUDEDIR/ucopy, beside <ucopy-asm.h> in INCLUDEDIR (the Makefile
 * passes its INCLUDEDIR). */
#ifndef UCOPY_INCLUDEDIR
#define UCOPY_INCLUDEDIR "/usr/local/include"
#endif

#define MAX_ARGS 128

void help_kbuild(FILE *f)
{
	fputs("usage: ucopy kbuild FILE.S [-o OUT.so] [--features LIST] [--entry SYMBOL]\n"
	      "                    [--convention C] [--symbol NAME] [--arch ARCH] [--cc CMD]\n"
	      "                    [--dry-run]\n\n"
	      "Builds a kernel's usercopy source as it is (arch/x86/lib/copy_user_64.S of\n"
	      "Linux 6.3 to 6.6, arch/arm64/lib/copy_from_user.S with copy_template.S of\n"
	      "4.19 to 5.15) into a shared object that exports one function, NAME, with\n"
	      "ucopy's try contract: size_t NAME(void *dst, const void *src, size_t n)\n"
	      "returning the bytes not copied.  The kernel's exception-table entries\n"
	      "become fault sites that `ucopy check` and `ucopy bench` register, so\n"
	      "  ucopy check --routine OUT.so:NAME:try\n"
	      "runs it through the fault matrix.  Compatibility headers give the\n"
	      "kernel's assembler names their user-space meaning (docs/kbuild.md).\n\n"
	      "  -o, --output OUT  the shared object (default: FILE's name with .so, here)\n"
	      "  --features LIST   the CPU the kernel's ALTERNATIVEs are chosen for, as\n"
	      "                    `ucopy features` names them: erms,-fsrm changes this\n"
	      "                    CPU's (the default), none,erms is the whole set.  For\n"
	      "                    another architecture than this ucopy's: none only\n"
	      "  --entry SYMBOL    the routine to export; found from FILE when it defines\n"
	      "                    one kbuild knows: rep_movs_alternative (6.4 and\n"
	      "                    later); copy_user_enhanced_fast_string with erms,\n"
	      "                    else copy_user_generic_string with rep_good, else\n"
	      "                    copy_user_generic_unrolled (up to 6.3, as the kernel's\n"
	      "                    copy_user_generic() chose); __arch_copy_from_user or\n"
	      "                    __arch_copy_to_user (arm64)\n"
	      "  --convention C    how SYMBOL is called, for one kbuild does not know:\n"
	      "                    rep_movs  rdi, rsi, rcx in; rcx not copied out (x86-64)\n"
	      "                    copy_user rdi, rsi, rdx in; eax not copied out (x86-64)\n"
	      "                    c         the C ABI: the try contract already\n"
	      "  --symbol NAME     the exported function (default ucopy_kroutine)\n"
	      "  --arch ARCH       x86_64 or aarch64 (default: this ucopy's)\n"
	      "  --cc CMD          the C compiler, words split at spaces (default: the\n"
	      "                    first of $CC, cc and ARCH-linux-gnu-gcc that builds for\n"
	      "                    ARCH, as its -dumpmachine says)\n"
	      "  --dry-run         print the compiler's command line; build nothing\n\n"
	      "The compiler runs once: -shared -fPIC -nostdlib, -z text (a source that\n"
	      "would need its code patched at load time is refused), -z defs, with\n"
	      "FILE's directory and the headers on the include path and one\n"
	      "-DUCOPY_KFEAT_NAME per feature.  What was built, for which features, is\n"
	      "the one line on stdout.  A FILE that does not build: the compiler's\n"
	      "messages, then one line, exit 2.\n", f);
}

struct kbuild {
	const char *file, *out, *features, *entry, *convention, *symbol, *arch, *cc;
	int dry_run;
	uint64_t set;           /* the features built for */
	char set_text[256];     /* and as words, with where they came from */
	char out_buf[PATH_MAX];
	char kcompat[PATH_MAX], include[PATH_MAX];
	char *cc_words[16];
	char cc_buf[512];
	char cc_text[512];
};

/*=====   Where the headers are, and the compiler   =====*/

static int is_file(const char *dir, const char *rel)
{
	char path[PATH_MAX + 64];
	struct stat st;
	snprintf(path, sizeof path, "%s/%s", dir, rel);
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int try_dirs(struct kbuild *k, const char *kc, const char *inc)
{
	if (!is_file(kc, "common/linux/linkage.h") || !is_file(inc, "ucopy-asm.h"))
		return 0;
	return realpath(kc, k->kcompat) && realpath(inc, k->include);
}

/* kcompat/ and include/ of the source tree the command was built in
 * (build/ucopy), else those an install put beside its bin/, else where
 * `make install` put them. */
static int headers_find(struct kbuild *k)
{
	char exe[PATH_MAX], kc[PATH_MAX + 64], inc[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	char *slash = n > 0 ? (exe[n] = 0, strrchr(exe, '/')) : NULL;
	if (slash) {
		*slash = 0;
		snprintf(kc, sizeof kc, "%s/../kcompat", exe);
		snprintf(inc, sizeof inc, "%s/../include", exe);
		if (try_dirs(k, kc, inc))
			return 0;
		snprintf(kc, sizeof kc, "%s/../include/ucopy/kcompat", exe);
		if (try_dirs(k, kc, inc))
			return 0;
	}
	if (try_dirs(k, UCOPY_INCLUDEDIR "/ucopy/kcompat", UCOPY_INCLUDEDIR))
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

/* --cc, else the first of $CC, cc and ARCH-linux-gnu-gcc that builds for
 * the architecture: under qemu-user an aarch64 ucopy's `cc` is the host's. */
static int compiler_find(struct kbuild *k)
{
	char cross[64], machine[128];
	snprintf(cross, sizeof cross, "%s-linux-gnu-gcc", k->arch);
	const char *env = getenv("CC");
	const char *cands[3] = { k->cc ? k->cc : env && env[0] ? env : NULL,
				 k->cc ? NULL : "cc", k->cc ? NULL : cross };
	for (int i = 0; i < 3; i++) {
		if (!cands[i])
			continue;
		snprintf(k->cc_buf, sizeof k->cc_buf, "%s", cands[i]);
		snprintf(k->cc_text, sizeof k->cc_text, "%s", cands[i]);
		if (!split_words(k->cc_buf, k->cc_words, 16))
			continue;
		dumpmachine(k->cc_words, machine, sizeof machine);
		if (targets(machine, k->arch))
			return 0;
		if (k->cc && machine[0])
			return cli_usage_error(CMD, "bad --cc '%s': it builds for %s (expected a "
					       "compiler for %s)", k->cc, machine, k->arch);
		if (k->cc)
			return cli_usage_error(CMD, "bad --cc '%s': '%s -dumpmachine' does not run "
					       "(expected a C compiler for %s)", k->cc, k->cc, k->arch);
	}
	cli_error("no C compiler for %s (tried %s%scc and %s): --cc names one", k->arch,
		  env && env[0] ? env : "", env && env[0] ? ", " : "", cross);
	return EXIT_USAGE;
}

/*=====   The build   =====*/

/* The features built for: this CPU's changed by --features, or for
 * another architecture none (its names are not this build's). */
static int features_choose(struct kbuild *k)
{
	char err[256], words[200];
	if (strcmp(k->arch, ucopy_cpu()->arch)) {
		if (k->features && strcmp(k->features, "none"))
			return cli_usage_error(CMD, "bad --features '%s': this ucopy names %s's "
					       "features, not %s's (expected none)", k->features,
					       ucopy_cpu()->arch, k->arch);
		k->set = 0;
		snprintf(k->set_text, sizeof k->set_text, "none");
		return 0;
	}
	uint64_t base = ucopy_cpu()->features;
	if (k->features && ucopy_features_parse(k->features, base, &k->set, err, sizeof err) < 0)
		return cli_usage_error(CMD, "bad --features '%s': %s", k->features, err);
	if (!k->features)
		k->set = base;
	ucopy_features_format(k->set, ",", words, sizeof words);
	snprintf(k->set_text, sizeof k->set_text, "%s (%s)", words,
		 !k->features ? "this CPU's" : k->set == base ? "this CPU's, as given" : "as given");
	return 0;
}

/* FILE's name with .so for .S, in the current directory. */
static void out_default(struct kbuild *k)
{
	const char *base = strrchr(k->file, '/');
	base = base ? base + 1 : k->file;
	size_t n = strlen(base);
	if (n > 2 && (!strcmp(base + n - 2, ".S") || !strcmp(base + n - 2, ".s")))
		n -= 2;
	snprintf(k->out_buf, sizeof k->out_buf, "%.*s.so", (int)n, base);
	k->out = k->out_buf;
}

static int valid_symbol(const char *s)
{
	if (!s[0] || isdigit((unsigned char)s[0]) || strlen(s) > 200)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '.' && *s != '$')
			return 0;
	return 1;
}

struct argv_buf {
	char *argv[MAX_ARGS];
	char store[16384];
	size_t n, used;
};

static void arg_add(struct argv_buf *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void arg_add(struct argv_buf *a, const char *fmt, ...)
{
	va_list ap;
	if (a->n + 1 >= MAX_ARGS || a->used >= sizeof a->store)
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

/* The compiler's command line: the headers after FILE's directory, so
 * that `#include "copy_template.S"` and a tree's own headers come first. */
static void command_line(const struct kbuild *k, struct argv_buf *a)
{
	char dir[PATH_MAX];
	file_dir(k->file, dir, sizeof dir);
	for (size_t i = 0; k->cc_words[i]; i++)
		arg_add(a, "%s", k->cc_words[i]);
	static const char *const fixed[] = {
		"-shared", "-fPIC", "-nostdlib", "-Wa,--noexecstack", "-Wl,-z,noexecstack",
		"-Wl,-z,text", "-Wl,-z,defs", "-D__ASSEMBLY__" };
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		arg_add(a, "%s", fixed[i]);
	arg_add(a, "-DUCOPY_KSYMBOL=%s", k->symbol);
	arg_add(a, "-DUCOPY_KENTRY=%s", k->entry);
	for (unsigned b = 0; b < UCOPY_FEAT_COUNT; b++) {
		const char *name = ucopy_feature_name(b);
		char up[32];
		size_t i;
		if (!name || !((k->set >> b) & 1))
			continue;
		for (i = 0; name[i] && i < sizeof up - 1; i++)
			up[i] = (char)toupper((unsigned char)name[i]);
		up[i] = 0;
		arg_add(a, "-DUCOPY_KFEAT_%s", up);
	}
	arg_add(a, "-I%s", dir);
	arg_add(a, "-I%s/%s", k->kcompat, k->arch);
	arg_add(a, "-I%s/common", k->kcompat);
	arg_add(a, "-I%s", k->include);
	arg_add(a, "%s", k->file);
	arg_add(a, "%s/%s/wrap-%s.S", k->kcompat, k->arch, k->convention);
	arg_add(a, "-o");
	arg_add(a, "%s", k->out);
}

/* A word as a shell reads it back: quoted when it holds anything but
 * the characters of paths and options. */
static void print_word(const char *w, FILE *f)
{
	if (w[strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
		       "_-+=/.,:@%")] == 0 && w[0]) {
		fputs(w, f);
		return;
	}
	putc('\'', f);
	for (; *w; w++)
		if (*w == '\'')
			fputs("'\\''", f);
		else
			putc(*w, f);
	putc('\'', f);
}

static int build(const struct kbuild *k)
{
	struct argv_buf a = { .n = 0 };
	command_line(k, &a);
	if (k->dry_run) {
		for (size_t i = 0; i < a.n; i++) {
			if (i)
				putchar(' ');
			print_word(a.argv[i], stdout);
		}
		putchar('\n');
		return EXIT_OK;
	}
	struct child_opts o = { .preload = NULL };
	struct child_result r;
	char err[256];
	if (child_run(a.argv, &o, &r, err, sizeof err) < 0) {
		cli_error("%s", err);
		return EXIT_USAGE;
	}
	if (!WIFEXITED(r.status) || WEXITSTATUS(r.status)) {
		char how[96];
		child_describe(r.status, how, sizeof how);
		cli_error("%s did not build (%s: %s; its messages are above)", k->file, k->cc_text, how);
		return EXIT_USAGE;
	}
	printf("%s: %s = %s (%s convention), %s, features %s\n", k->out, k->symbol, k->entry,
	       k->convention, k->arch, k->set_text);
	return EXIT_OK;
}

static int options(int argc, char **argv, struct kbuild *k)
{
	int rc = 0;
	const char *v;
	for (int i = 1; i < argc && !rc; i++) {
		if (!strcmp(argv[i], "--dry-run"))
			k->dry_run = 1;
		else if ((v = cli_opt_value2(CMD, argc, argv, &i, "-o", "--output", 0, &rc)))
			k->out = v;
		else if ((v = cli_opt_value(CMD, argc, argv, &i, "--features", CLI_VALUE_DASH, &rc)))
			k->features = v;
		else if ((v = cli_opt_value(CMD, argc, argv, &i, "--entry", 0, &rc)))
			k->entry = v;
		else if ((v = cli_opt_value(CMD, argc, argv, &i, "--convention", 0, &rc)))
			k->convention = v;
		else if ((v = cli_opt_value(CMD, argc, argv, &i, "--symbol", 0, &rc)))
			k->symbol = v;
		else if ((v = cli_opt_value(CMD, argc, argv, &i, "--arch", 0, &rc)))
			k->arch = v;
		else if ((v = cli_opt_value(CMD, argc, argv, &i, "--cc", 0, &rc)))
			k->cc = v;
		else if (rc)
			break;
		else if (argv[i][0] == '-' && argv[i][1])
			rc = cli_usage_error(CMD, "unknown option '%s'", argv[i]);
		else if (k->file)
			rc = cli_usage_error(CMD, "unexpected argument '%s' (one FILE.S is built "
					     "at a time)", argv[i]);
		else
			k->file = argv[i];
	}
	if (!rc && !k->file)
		rc = cli_usage_error(CMD, "no FILE.S to build");
	return rc;
}

static int check_names(struct kbuild *k)
{
	char list[64];
	if (!k->arch)
		k->arch = ucopy_cpu()->arch;
	else if (strcmp(k->arch, "x86_64") && strcmp(k->arch, "aarch64"))
		return cli_usage_error(CMD, "bad --arch '%s' (expected x86_64 or aarch64)", k->arch);
	if (!k->symbol)
		k->symbol = "ucopy_kroutine";
	else if (!valid_symbol(k->symbol))
		return cli_usage_error(CMD, "bad --symbol '%s' (expected a C identifier)", k->symbol);
	if (k->entry && !valid_symbol(k->entry))
		return cli_usage_error(CMD, "bad --entry '%s' (expected a symbol)", k->entry);
	ksource_conventions(k->arch, list, sizeof list);
	if (k->convention && !ksource_convention_valid(k->arch, k->convention))
		return cli_usage_error(CMD, "bad --convention '%s' for %s (expected %s)",
				       k->convention, k->arch, list);
	if (k->entry && !k->convention) {
		const struct ksource_entry *e = ksource_known(k->arch, k->entry);
		if (!e)
			return cli_usage_error(CMD, "--entry %s is no routine kbuild knows for %s: "
					       "--convention says how it is called (%s)", k->entry,
					       k->arch, list);
		k->convention = e->convention;
	}
	return 0;
}

int cmd_kbuild(int argc, char **argv)
{
	struct kbuild k = { .file = NULL };
	char err[1024], funcs[768];
	int rc = options(argc, argv, &k);
	if (!rc)
		rc = check_names(&k);
	if (!rc)
		rc = features_choose(&k);
	if (rc)
		return rc;
	funcs[0] = 0;
	if (ksource_functions(k.file, 3, funcs, sizeof funcs, err, sizeof err) < 0)
		return cli_usage_error(CMD, "%s", err);
	if (!k.entry) {
		const struct ksource_entry *e = ksource_entry(k.arch, k.set, k.file, funcs, err,
							      sizeof err);
		if (!e)
			return cli_usage_error(CMD, "%s", err);
		k.entry = e->name;
		k.convention = e->convention;
	}
	if (!k.out)
		out_default(&k);
	rc = headers_find(&k);
	if (!rc)
		rc = compiler_find(&k);
	return rc ? rc : build(&k);
}
