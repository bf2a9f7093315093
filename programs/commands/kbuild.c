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
 * which entry a source defines is ksource.h's, the headers, the compiler
 * and its command line toolchain.h's; here are the options and the flow.
 */
#include "cli.h"
#include "ksource.h"
#include "toolchain.h"
#include "ucopy.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#define CMD "kbuild"

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
	struct toolchain tc;
};

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

static int build(const struct kbuild *k)
{
	const struct toolchain_job j = {
		.file = k->file, .out = k->out, .symbol = k->symbol, .entry = k->entry,
		.convention = k->convention, .arch = k->arch, .features = k->set };
	struct toolchain_argv a = { .n = 0 };
	toolchain_command(&k->tc, &j, &a);
	if (k->dry_run) {
		toolchain_print(a.argv, stdout);
		return EXIT_OK;
	}
	int rc = toolchain_run(&k->tc, a.argv, k->file);
	if (rc)
		return rc;
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
	rc = toolchain_headers(&k.tc);
	if (!rc)
		rc = toolchain_compiler(&k.tc, k.arch, k.cc);
	return rc ? rc : build(&k);
}
