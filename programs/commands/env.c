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
#include "cli.h"
#include "output.h"
#include "ucopy.h"

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
	fput_escaped(why, stderr);
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
		char err[128];
		uint64_t set;
		if (ucopy_features_parse(env, c->detected, &set, err, sizeof err))
			return bad("UCOPY_FEATURES", env, FEATURE_LIST,
				   "%s", err);
		if (set & ~c->detected) {
			char extra[128];
			ucopy_features_format(set & ~c->detected, ",", extra, sizeof extra);
			return bad("UCOPY_FEATURES", env, FEATURE_LIST,
				   "it adds %s, which this CPU lacks (only removals apply)", extra);
		}
	}
	env = getenv("UCOPY_POLICY");
	if (env && *env) {
		struct ucopy_policy p;
		char err[256];
		uint64_t have = ucopy_cpu()->features;
		if (ucopy_policy_resolve(&p, env, have, err, sizeof err))
			return bad("UCOPY_POLICY", env, NULL, "%s", err);
		/* The library would run another kernel in its place, and the
		 * lab would time it under the name asked for, as bench
		 * --policies refuses to. */
		uint64_t missing = cli_policy_missing(&p, have);
		if (ucopy_policy_fit(&p, have, err, sizeof err) > 0)
			return bad("UCOPY_POLICY", env, "kernels this CPU runs ('ucopy features')",
				   "it names kernels this CPU does not run: %s%s", err,
				   cli_masked(missing));
	}
	env = getenv("UCOPY_PROFILE");
	if ((what & CLI_ENV_PROFILE) && env && *env) {
		char why[512];
		if (ucopy_profile_load(env, NULL, why, sizeof why))
			return bad("UCOPY_PROFILE", env,
				   "a profile 'ucopy calibrate' wrote on this CPU", "%s", why);
	}
	return 0;
}

const char *cli_masked(uint64_t missing)
{
	return missing & ucopy_cpu()->detected ? " (UCOPY_FEATURES removed it)" : "";
}

uint64_t cli_policy_missing(const struct ucopy_policy *p, uint64_t have)
{
	uint64_t m = 0;
	for (unsigned i = 0; i < p->nrules; i++)
		m |= p->rule[i].kernel->requires & ~have;
	return m;
}
