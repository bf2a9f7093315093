/*
 * env.c - the environment every command reads through libucopy, checked.
 *
 * The library never prints: a UCOPY_POLICY, UCOPY_PROFILE or UCOPY_FEATURES
 * it cannot use is ignored (auto, the detected features) with the reason in
 * ucopy_active() or ucopy_cpu()->mask_note.  That is right for a program
 * linked with it; for the lab it would time `auto` under a name the user
 * did not ask for.  So each command refuses such a setting before it does
 * anything, asking the library's own parsers and loader.
 */
#include "child.h"
#include "cli.h"
#include "output.h"
#include "ucopy.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FEATURE_LIST "features to remove, as -avx512f,-fsrm, or to keep, as none,sse2"
/* A value as a message shows it: its first 64 bytes. */
#define SHOWN 64

/* "ucopy: bad NAME 'VALUE': WHY (expected EXPECTED)" on stderr, without
 * the parenthesis when expected is NULL (WHY says it), with nothing in VALUE
 * or WHY (which may quote it) acting on a terminal; returns EXIT_USAGE. */
static int bad(const char *name, const char *value, const char *expected,
	       const char *fmt, ...)
{
	char shown[SHOWN + 4], why[600];
	va_list ap;
	snprintf(shown, sizeof shown, "%.*s%s", SHOWN, value,
		 strlen(value) > SHOWN ? "..." : "");
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	fprintf(stderr, "ucopy: bad %s '", name);
	fput_escaped(shown, stderr);
	fputs("': ", stderr);
	fput_escaped_message(why, stderr);
	if (expected)
		fprintf(stderr, " (expected %s)", expected);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

int cli_env_check(unsigned what)
{
	const char *env = getenv("UCOPY_FEATURES");
	if (env && *env) {
		const struct ucopy_cpu *c = ucopy_cpu();
		char err[256];
		uint64_t set;
		if (ucopy_features_mask(env, c->detected, &set, err, sizeof err))
			return bad("UCOPY_FEATURES", env, FEATURE_LIST, "%s", err);
	}
	env = getenv("UCOPY_POLICY");
	if (env && *env) {
		char err[512];
		if (cli_policy_runnable(env, err, sizeof err))
			return bad("UCOPY_POLICY", env, NULL, "%s", err);
	}
	env = getenv("UCOPY_PROFILE");
	if ((what & CLI_ENV_PROFILE) && env && *env) {
		char why[512];
		if (ucopy_profile_load(env, NULL, why, sizeof why))
			return bad("UCOPY_PROFILE", env,
				   "a profile 'ucopy calibrate' wrote on this CPU", "%s", why);
		/* The programs run, trace and compare start may change
		 * directory before their first copy: the path they inherit is
		 * the file checked here, wherever they are. */
		char abs[PATH_MAX];
		if (env[0] != '/' && realpath(env, abs))
			setenv("UCOPY_PROFILE", abs, 1);
	}
	return 0;
}

void cli_mask_note(const struct ucopy_kernel *k, char *buf, size_t len)
{
	const struct ucopy_cpu *c = ucopy_cpu();
	buf[0] = '\0';
	/* Only when the CPU runs k and the mask is what stops it. */
	if (!ucopy_kernel_supported(k, c->detected) || ucopy_kernel_supported(k, c->features))
		return;
	char gone[128];
	ucopy_features_format(k->requires & ~c->features & c->detected, ",", gone, sizeof gone);
	snprintf(buf, len, " (UCOPY_FEATURES removed %s)", gone);
}

int cli_policy_fits(const struct ucopy_policy *p, char *err, size_t errlen)
{
	struct ucopy_policy q = *p;
	char note[256], why[200] = "";
	if (ucopy_policy_fit(&q, ucopy_cpu()->features, note, sizeof note) <= 0)
		return 0;
	for (unsigned i = 0; i < p->nrules && !why[0]; i++)
		if (q.rule[i].kernel != p->rule[i].kernel)
			cli_mask_note(p->rule[i].kernel, why, sizeof why);
	snprintf(err, errlen, "it names kernels this CPU does not run: %s%s", note, why);
	return -1;
}

int cli_policy_runnable(const char *spec, char *err, size_t errlen)
{
	struct ucopy_policy p;
	if (ucopy_policy_resolve(&p, spec, ucopy_cpu()->features, err, errlen))
		return -1;
	return cli_policy_fits(&p, err, errlen);
}

int cli_preload_find(char *path, size_t len)
{
	char err[PATH_MAX + 400];
	int r = preload_find(path, len, err, sizeof err);
	if (r == PRELOAD_BAD_ENV)
		return bad("UCOPY_PRELOAD", getenv("UCOPY_PRELOAD"),
			   "the path of libucopy-preload.so", "%s", err);
	if (r < 0) {
		cli_error("%s", err);
		return EXIT_USAGE;
	}
	return 0;
}
