/*
 * dispatch.c - the active policy and the copies that run through it.
 *
 * The active policy is resolved once, at first use, into a compiled table of
 * (limit, function) pairs.  ucopy_memcpy (kernels/<arch>/entry.S) tests the
 * first two rules itself and otherwise jumps through ucopy_memcpy_impl: the
 * third kernel of a three-rule policy, or dispatch_rules() for the rest
 * (within two rules it never gets there).  ucopy_try
 * (entry.S too) does the same over a second table of the kernels' try
 * bodies, in which kernels that cannot recover from a fault are replaced.
 */
#include "internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct compiled_rule plain[UCOPY_MAX_RULES];
static struct {
	size_t limit;
	ucopy_try_fn fn;
} tolerant[UCOPY_MAX_RULES];
static unsigned ntolerant;
static struct ucopy_policy policy;
static char reason[512];
static char profile_path[PATH_MAX_PROFILE];
static struct ucopy_active active = { &policy, UCOPY_SOURCE_DEFAULT, reason, profile_path };
static pthread_once_t once = PTHREAD_ONCE_INIT;

static struct ucopy_ret resolve_then_copy(void *restrict, const void *restrict, size_t);

/* Written once, under `once` (the try words by ucopy_try_enable()); read by
 * entry.S.  The limits start at 0 so that every size goes to the resolvers
 * until then. */
size_t ucopy_first_limit;
ucopy_kernel_fn ucopy_first_fn = resolve_then_copy;
size_t ucopy_second_limit;
ucopy_kernel_fn ucopy_second_fn = resolve_then_copy;
ucopy_kernel_fn ucopy_memcpy_impl = resolve_then_copy;
size_t ucopy_try_first_limit;
ucopy_try_fn ucopy_try_first_fn = ucopy_try_cold;
size_t ucopy_try_second_limit;
ucopy_try_fn ucopy_try_second_fn = ucopy_try_cold;
ucopy_try_fn ucopy_try_impl = ucopy_try_cold;

/* The fast entries (x86-64 only; elsewhere the words are never read). */
size_t ucopy_entry_limit[UCOPY_NENTRIES];
size_t ucopy_try_entry_limit[UCOPY_NENTRIES];

#if defined(__x86_64__)
static const ucopy_kernel_fn entry_plain[UCOPY_NENTRIES] = {
	ucopy_k_sse2, ucopy_k_avx2, ucopy_k_avx512 };
static const ucopy_try_fn entry_try[UCOPY_NENTRIES] = {
	ucopy_t_sse2, ucopy_t_avx2, ucopy_t_avx512 };
#endif

/* Sizes past the second rule of a policy of four or more.  The last rule's
 * limit is SIZE_MAX, and no object has SIZE_MAX bytes, so the scan always
 * stops inside the table. */
static struct ucopy_ret dispatch_rules(void *restrict dst,
				       const void *restrict src, size_t n)
{
	const struct compiled_rule *r = plain + 2;
	while (n >= r->limit)
		r++;
	return r->fn(dst, src, n);
}

static size_t dispatch_try_rules(void *dst, const void *src, size_t n)
{
	unsigned i = 2;
	while (n >= tolerant[i].limit)
		i++;
	return tolerant[i].fn(dst, src, n);
}

static void compile(const struct ucopy_policy *p)
{
	for (unsigned i = 0; i < p->nrules; i++) {
		size_t limit = i + 1 == p->nrules ? SIZE_MAX : p->rule[i].limit;
		plain[i] = (struct compiled_rule){ limit, p->rule[i].kernel->fn };
		tolerant[i].limit = limit;
		tolerant[i].fn = ucopy_kernel_fault_capable(p->rule[i].kernel)->try_fn;
	}
	ntolerant = p->nrules;
	/* One rule: the first test always passes (its limit is SIZE_MAX).
	 * Two: the second.  Three: the third kernel takes the rest directly;
	 * more: the scan. */
	unsigned second = p->nrules > 1;
	ucopy_kernel_fn rest = p->nrules <= 3 ? plain[p->nrules - 1].fn : dispatch_rules;
	/* Function pointers before limits: a thread that sees a new limit
	 * must see the function that goes with it. */
	__atomic_store_n(&ucopy_memcpy_impl, rest, __ATOMIC_RELEASE);
	__atomic_store_n(&ucopy_second_fn, plain[second].fn, __ATOMIC_RELEASE);
	__atomic_store_n(&ucopy_second_limit, plain[second].limit, __ATOMIC_RELEASE);
	__atomic_store_n(&ucopy_first_fn, plain[0].fn, __ATOMIC_RELEASE);
	__atomic_store_n(&ucopy_first_limit, plain[0].limit, __ATOMIC_RELEASE);
#if defined(__x86_64__)
	/* Last: from here the fast entry of the first kernel takes the sizes
	 * below its limit (the kernel is fit for this CPU: ucopy_policy_fit
	 * or the profile loader checked). */
	for (unsigned i = 0; i < UCOPY_NENTRIES; i++)
		if (plain[0].fn == entry_plain[i])
			__atomic_store_n(&ucopy_entry_limit[i], plain[0].limit,
					 __ATOMIC_RELEASE);
#endif
}

/* ucopy_try from now on runs the try bodies directly (called once the
 * signal handler is in place, after the policy was compiled). */
void ucopy_try_enable(void)
{
	unsigned second = ntolerant > 1;
	ucopy_try_fn rest = ntolerant <= 3 ? tolerant[ntolerant - 1].fn : dispatch_try_rules;
	__atomic_store_n(&ucopy_try_impl, rest, __ATOMIC_RELEASE);
	__atomic_store_n(&ucopy_try_second_fn, tolerant[second].fn, __ATOMIC_RELEASE);
	__atomic_store_n(&ucopy_try_second_limit, tolerant[second].limit, __ATOMIC_RELEASE);
	__atomic_store_n(&ucopy_try_first_fn, tolerant[0].fn, __ATOMIC_RELEASE);
	__atomic_store_n(&ucopy_try_first_limit, tolerant[0].limit, __ATOMIC_RELEASE);
#if defined(__x86_64__)
	for (unsigned i = 0; i < UCOPY_NENTRIES; i++)
		if (tolerant[0].fn == entry_try[i])
			__atomic_store_n(&ucopy_try_entry_limit[i],
					 tolerant[0].limit, __ATOMIC_RELEASE);
#endif
}

/* Resolves spec for the running CPU; on failure *p is untouched. */
static int resolve_for_cpu(struct ucopy_policy *p, const char *spec,
			   char *note, size_t len)
{
	struct ucopy_policy tmp;
	uint64_t features = ucopy_cpu()->features;
	if (ucopy_policy_resolve(&tmp, spec, features, note, len) != 0)
		return -1;
	ucopy_policy_fit(&tmp, features, note, len);
	*p = tmp;
	return 0;
}

/* Appends "; text" (or text) to reason, cut short when it is full. */
static void add_reason(const char *text)
{
	size_t used = strlen(reason), room = sizeof reason - 1 - used;
	size_t n = strlen(text);
	if (used && room >= 2) {
		memcpy(reason + used, "; ", 2);
		used += 2;
		room -= 2;
	}
	if (n > room)
		n = room;
	memcpy(reason + used, text, n);
	reason[used + n] = 0;
}

/* The calibration profile, when there is one and it loads.  The loader
 * checks that it was measured on this CPU and that this CPU runs each of its
 * kernels, so the policy needs no fitting.  A rejected profile leaves its path
 * in active.profile and the reason in active.reason for `ucopy features`.
 * @return : 0 with `policy` set, -1 when there is none or it was rejected. */
static int load_profile(void)
{
	char why[sizeof reason - 64], msg[sizeof reason];
	int found = ucopy_profile_find(profile_path, sizeof profile_path);

	if (found < 0) {
		profile_path[0] = 0;
		add_reason("UCOPY_PROFILE ignored: the path is too long");
		return -1;
	}
	if (found == 0)
		return -1;
	if (ucopy_profile_load(profile_path, &policy, why, sizeof why) == 0)
		return 0;
	snprintf(msg, sizeof msg, "profile ignored: %s", why);
	add_reason(msg);
	return -1;
}

static void resolve_active(void)
{
	char err[256] = "";
	const char *env = getenv("UCOPY_POLICY");
	if (env && !*env)
		env = NULL;   /* set but empty: as if unset, as shells make it */

	if (env && resolve_for_cpu(&policy, env, err, sizeof err) == 0) {
		active.source = UCOPY_SOURCE_ENV;
		snprintf(reason, sizeof reason, "%s", err);
		compile(&policy);
		return;
	}
	if (env)
		snprintf(reason, sizeof reason,
			 "UCOPY_POLICY='%.64s' ignored: %s", env, err);
	/* Only a valid UCOPY_POLICY overrides the profile: a typo in it
	 * should not also throw away the calibration. */
	if (load_profile() == 0) {
		active.source = UCOPY_SOURCE_PROFILE;
	} else {
		char note[256] = "";
		/* "auto" always resolves: it is built from the table. */
		resolve_for_cpu(&policy, "auto", note, sizeof note);
		if (note[0])
			add_reason(note);
		active.source = UCOPY_SOURCE_DEFAULT;
	}
	compile(&policy);
}

const struct ucopy_active *ucopy_active(void)
{
	pthread_once(&once, resolve_active);
	return &active;
}

const char *ucopy_source_name(enum ucopy_source s)
{
	switch (s) {
	case UCOPY_SOURCE_ENV: return "UCOPY_POLICY";
	case UCOPY_SOURCE_PROFILE: return "profile";
	default: return "default";
	}
}

static struct ucopy_ret resolve_then_copy(void *restrict dst,
					  const void *restrict src, size_t n)
{
	ucopy_active();
	return (n < ucopy_first_limit ? ucopy_first_fn
		: n < ucopy_second_limit ? ucopy_second_fn
		: ucopy_memcpy_impl)(dst, src, n);
}


void *ucopy_memmove(void *dst, const void *src, size_t n)
{
	uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
	if (d - s >= n && s - d >= n)
		return ucopy_memcpy(dst, src, n);
	if (d > s)
		return ucopy_copy_backward(dst, src, n);
	if (d < s)
		return ucopy_copy_forward_overlap(dst, src, n);
	return dst;
}

const struct ucopy_kernel *ucopy_policy_kernel(const struct ucopy_policy *p,
					       size_t n)
{
	unsigned i = 0;
	while (i + 1 < p->nrules && n >= p->rule[i].limit)
		i++;
	return p->rule[i].kernel;
}

void *ucopy_policy_copy(const struct ucopy_policy *p, void *restrict dst,
			const void *restrict src, size_t n)
{
	return ucopy_policy_kernel(p, n)->fn(dst, src, n).dst;
}
