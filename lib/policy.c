/*
 * policy.c - resolving a policy: a named policy of a real system, auto, the
 * calibrated profile, a kernel name or policy text; and fitting a policy to
 * a CPU.
 *
 * A named policy says what a given OS kernel did for a user copy on a CPU
 * with a given feature set, so that the lab can replay it on another
 * machine; it is deliberately not adapted to the CPU it is resolved for.
 * ucopy_policy_fit() is the separate step that makes a policy runnable.
 * The texts are the port's (lib/<port>/policies.c); this file knows their
 * names only, to say which architecture a foreign one is for.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "arch.h"
#include "named.h"

#define ON_X86_64(fn, name) { name, "x86_64" },
#define ON_AARCH64(fn, name) { name, "aarch64" },
static const struct {
	const char *name;
	const char *arch;
} named[] = {
	UCOPY_NAMED_X86_64(ON_X86_64)
	UCOPY_NAMED_AARCH64(ON_AARCH64)
};

const char *ucopy_policy_named(size_t i)
{
	for (size_t j = 0; ucopy_arch_named[j].name; j++)
		if (j == i)
			return ucopy_arch_named[j].name;
	return NULL;
}

/* The port's text of named policy `name` for `features`, or NULL when the
 * name is not one of the port's. */
static const char *port_named(const char *name, uint64_t features)
{
	for (size_t i = 0; ucopy_arch_named[i].name; i++)
		if (!strcmp(name, ucopy_arch_named[i].name))
			return ucopy_arch_named[i].text(features);
	return NULL;
}

static int from_text(struct ucopy_policy *p, const char *text,
		     const char *name, char *err, size_t errlen)
{
	struct ucopy_policy q;
	if (ucopy_policy_parse(&q, text, err, errlen))
		return -1;
	snprintf(q.name, sizeof q.name, "%s", name);
	lib_copy(p, &q, sizeof q);
	return 0;
}

int ucopy_policy_resolve(struct ucopy_policy *p, const char *spec,
			 uint64_t features, char *err, size_t errlen)
{
	if (err && errlen)
		err[0] = 0;
	if (!spec)
		return ucopy_fail(err, errlen, "empty policy");
	const char *s = spec, *e = spec + strlen(spec);
	ucopy_trim(&s, &e);
	size_t n = (size_t)(e - s);
	char word[32];
	if (n == 0)
		return ucopy_fail(err, errlen, "empty policy");
	if (n >= sizeof word || memchr(s, ':', n) || memchr(s, ',', n))
		return ucopy_policy_parse(p, spec, err, errlen);
	lib_copy(word, s, n);
	word[n] = 0;

	if (!strcmp(word, "calibrated"))
		return ucopy_profile_policy(p, err, errlen);
	if (!strcmp(word, "auto")) {
		char text[128];
		ucopy_arch_auto(ucopy_cpu(), features, text, sizeof text);
		return from_text(p, text, "auto", err, errlen);
	}
	for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
		if (strcmp(word, named[i].name))
			continue;
		const char *text = port_named(word, features);
		if (!text)
			return ucopy_fail(err, errlen, "policy '%s' is for %s; this library is built for %s",
					  word, named[i].arch, ucopy_arch_name);
		return from_text(p, text, word, err, errlen);
	}
	if (ucopy_kernel_find(word))
		return from_text(p, word, "", err, errlen);
	char list[256];
	size_t pos = 0;
	for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
		if (port_named(named[i].name, features))
			ucopy_put(list, sizeof list, &pos, ", %s", named[i].name);
	return ucopy_fail(err, errlen,
			  "unknown policy or kernel '%s' (policies: auto, calibrated%s, "
			  "or policy text such as '64:%s')",
			  ucopy_quote(s, n).s, pos ? list : "", ucopy_kernel_at(0)->name);
}

/*=====   Fitting a policy to a CPU   =====*/

static int runnable(const struct ucopy_kernel *k, uint64_t f)
{
	return ucopy_kernel_supported(k, f) ||
	       (k->requires & ~ucopy_arch_speed_bits & ~f) == 0;
}

static const char *const *nearest(const char *kernel)
{
	for (size_t i = 0; ucopy_arch_fallback[i][0]; i++)
		if (!strcmp(ucopy_arch_fallback[i][0], kernel))
			return ucopy_arch_fallback[i] + 1;
	return NULL;
}

static const struct ucopy_kernel *replacement(const struct ucopy_kernel *k,
					      uint64_t f)
{
	const char *const *near = nearest(k->name);
	for (size_t j = 0; near && near[j]; j++) {
		const struct ucopy_kernel *r = ucopy_kernel_find(near[j]);
		if (r && runnable(r, f))
			return r;
	}
	for (size_t j = 0; ucopy_arch_last_resort[j]; j++) {
		const struct ucopy_kernel *r = ucopy_kernel_find(ucopy_arch_last_resort[j]);
		if (r && runnable(r, f))
			return r;
	}
	return NULL;
}

int ucopy_policy_fit(struct ucopy_policy *p, uint64_t features, char *note,
		     size_t notelen)
{
	const struct ucopy_kernel *noted[UCOPY_MAX_RULES];
	unsigned nnoted = 0;
	size_t pos = 0;
	int changed = 0;

	if (note && notelen)
		note[0] = 0;
	else
		notelen = 0;
	if (!p)
		return 0;
	for (unsigned i = 0; i < p->nrules && i < UCOPY_MAX_RULES; i++) {
		const struct ucopy_kernel *k = p->rule[i].kernel, *r;
		if (!k || runnable(k, features) || !(r = replacement(k, features)))
			continue;
		p->rule[i].kernel = r;
		changed++;

		/* one note per replaced kernel, however many rules use it */
		unsigned j;
		for (j = 0; j < nnoted && noted[j] != k; j++)
			;
		if (j < nnoted)
			continue;
		noted[nnoted++] = k;
		ucopy_put(note, notelen, &pos, "%s%s -> %s (CPU lacks ",
		    pos ? "; " : "", k->name, r->name);
		uint64_t lack = k->requires & ~features;
		const char *sep = "";
		for (unsigned b = 0; b < UCOPY_FEAT_COUNT; b++)
			if (lack >> b & 1) {
				ucopy_put(note, notelen, &pos, "%s%s", sep,
				    ucopy_feature_name(b));
				sep = "+";
			}
		ucopy_put(note, notelen, &pos, ")");
	}
	return changed;
}

/*=====   auto's rows   =====*/

int ucopy_auto_for(const struct ucopy_cpu *cpu, char *policy, size_t policy_len, char *why,
		   size_t why_len)
{
	if (policy && policy_len)
		policy[0] = 0;
	if (why && why_len)
		why[0] = 0;
	if (!cpu || strcmp(cpu->arch, ucopy_cpu()->arch))
		return -1;
	if (policy && policy_len)
		ucopy_arch_auto(cpu, cpu->features, policy, policy_len);
	const struct ucopy_auto_row *row = ucopy_arch_auto_row(cpu, cpu->features);
	size_t pos = 0;
	ucopy_put(why, why_len, &pos, "%s: %s", row->name, row->why);
	return pos > INT_MAX ? INT_MAX : (int)pos;
}

size_t ucopy_auto_explain(char *buf, size_t len)
{
	const struct ucopy_cpu *c = ucopy_cpu();
	const struct ucopy_auto_row *row = ucopy_arch_auto_row(c, c->features);
	size_t pos = 0;
	if (buf && len)
		buf[0] = 0;
	ucopy_put(buf, len, &pos, "%s: %s", row->name, row->why);
	/* The row speaks of the CPU's kernels; under a mask it may name one
	 * the library no longer sees, so say what the row made of the
	 * features that are left. */
	if (c->features != c->detected) {
		char text[128];
		ucopy_arch_auto(c, c->features, text, sizeof text);
		ucopy_put(buf, len, &pos, "; without the features UCOPY_FEATURES removed, "
			  "the row gives %s", text);
	}
	return pos;
}
