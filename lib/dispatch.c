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
#include "arch.h"
#include "env.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One resolution of the active policy: the policy, why it was chosen, and
 * its compiled tables.  First use is lock-free (below), so each thread that
 * resolves at the same time fills a slot of its own and the first to finish
 * publishes it; the others' slots are never read. */
struct resolution {
	struct ucopy_policy policy;
	char reason[512];
	char profile_path[PATH_MAX_PROFILE];
	struct ucopy_active active;
	struct compiled_rule plain[UCOPY_MAX_RULES];
	struct {
		size_t limit;
		ucopy_try_fn fn;
	} tolerant[UCOPY_MAX_RULES];
};
static struct resolution slots[4];
static struct ucopy_once first_use = UCOPY_ONCE(slots);
/* Set while this thread resolves: a copy it makes meanwhile (an interposed
 * memcpy in something resolution calls, a signal handler) must not start a
 * second resolution on top of the first. */
static __thread unsigned char resolving __attribute__((tls_model("initial-exec")));

static struct ucopy_ret resolve_then_copy(void *restrict, const void *restrict, size_t);

/* Written once, by the thread whose resolution is published (the try words
 * by ucopy_try_route()); read by entry.S.  The limits start at 0 so that every size goes to the resolvers
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


static const struct resolution *resolved(void);

/* The tables dispatch_rules() and dispatch_try_rules() scan: the published
 * resolution's, set before the words that lead there. */
static const struct resolution *tables;

/* Sizes past the second rule of a policy of four or more.  The last rule's
 * limit is SIZE_MAX, and no object has SIZE_MAX bytes, so the scan always
 * stops inside the table. */
static struct ucopy_ret dispatch_rules(void *restrict dst,
				       const void *restrict src, size_t n)
{
	const struct compiled_rule *r = tables->plain + 2;
	while (n >= r->limit)
		r++;
	return r->fn(dst, src, n);
}

static size_t dispatch_try_rules(void *dst, const void *src, size_t n)
{
	unsigned i = 2;
	while (n >= tables->tolerant[i].limit)
		i++;
	return tables->tolerant[i].fn(dst, src, n);
}

/* The try body of the published policy for n bytes (fault.c's checked
 * entry, after it has decided the signal can be delivered). */
size_t ucopy_try_dispatch(void *dst, const void *src, size_t n)
{
	const struct resolution *r = resolved();
	unsigned i = 0;
	while (n >= r->tolerant[i].limit)
		i++;
	return r->tolerant[i].fn(dst, src, n);
}

/* Fills r's tables; touches nothing shared. */
static void compile(struct resolution *r)
{
	const struct ucopy_policy *p = &r->policy;
	for (unsigned i = 0; i < p->nrules; i++) {
		size_t limit = i + 1 == p->nrules ? SIZE_MAX : p->rule[i].limit;
		r->plain[i] = (struct compiled_rule){ limit, p->rule[i].kernel->fn };
		r->tolerant[i].limit = limit;
		r->tolerant[i].fn = ucopy_kernel_fault_capable(p->rule[i].kernel)->try_fn;
	}
}

/* Points ucopy_memcpy at the published resolution r. */
static void publish_words(const struct resolution *r)
{
	unsigned n = r->policy.nrules;
	/* One rule: the first test always passes (its limit is SIZE_MAX).
	 * Two: the second.  Three: the third kernel takes the rest directly;
	 * more: the scan. */
	unsigned second = n > 1;
	ucopy_kernel_fn rest = n <= 3 ? r->plain[n - 1].fn : dispatch_rules;
	/* Function pointers before limits: a thread that sees a new limit
	 * must see the function that goes with it. */
	__atomic_store_n(&ucopy_memcpy_impl, rest, __ATOMIC_RELEASE);
	__atomic_store_n(&ucopy_second_fn, r->plain[second].fn, __ATOMIC_RELEASE);
	__atomic_store_n(&ucopy_second_limit, r->plain[second].limit, __ATOMIC_RELEASE);
	__atomic_store_n(&ucopy_first_fn, r->plain[0].fn, __ATOMIC_RELEASE);
	__atomic_store_n(&ucopy_first_limit, r->plain[0].limit, __ATOMIC_RELEASE);
	/* Last: the port's faster path for the first rule, if it has one
	 * (the kernel is fit for this CPU: ucopy_policy_fit or the profile
	 * loader checked). */
	ucopy_arch_publish(r->plain[0].fn, r->plain[0].limit);
}

void ucopy_try_route(ucopy_try_fn only)
{
	const struct resolution *r = resolved();
	unsigned n = r->policy.nrules;
	unsigned second = n > 1;
	ucopy_try_fn rest = only ? only : n <= 3 ? r->tolerant[n - 1].fn : dispatch_try_rules;
	size_t first_limit = only ? 0 : r->tolerant[0].limit;
	size_t second_limit = only ? 0 : r->tolerant[second].limit;
	__atomic_store_n(&ucopy_try_impl, rest, __ATOMIC_RELEASE);
	__atomic_store_n(&ucopy_try_second_fn, r->tolerant[second].fn, __ATOMIC_RELEASE);
	__atomic_store_n(&ucopy_try_second_limit, second_limit, __ATOMIC_RELEASE);
	__atomic_store_n(&ucopy_try_first_fn, r->tolerant[0].fn, __ATOMIC_RELEASE);
	__atomic_store_n(&ucopy_try_first_limit, first_limit, __ATOMIC_RELEASE);
	ucopy_arch_publish_try(only ? NULL : r->tolerant[0].fn, first_limit);
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
	lib_copy(p, &tmp, sizeof tmp);
	return 0;
}

/* Appends "; text" (or text) to r's reason, cut short when it is full. */
static void add_reason(struct resolution *r, const char *text)
{
	char *reason = r->reason;
	size_t used = strlen(reason), room = sizeof r->reason - 1 - used;
	size_t n = strlen(text);
	if (used && room >= 2) {
		lib_copy(reason + used, "; ", 2);
		used += 2;
		room -= 2;
	}
	if (n > room)
		n = room;
	lib_copy(reason + used, text, n);
	reason[used + n] = 0;
}

/* The calibration profile, when there is one and it loads.  The loader
 * checks that it was measured on this CPU and that this CPU runs each of its
 * kernels, so the policy needs no fitting.  A rejected profile leaves its path
 * in active.profile and the reason in active.reason for `ucopy features`.
 * @return : 0 with r's policy set, -1 when there is none or it was rejected. */
static int load_profile(struct resolution *r)
{
	char why[sizeof r->reason - 64], msg[sizeof r->reason];
	int found = ucopy_profile_find(r->profile_path, sizeof r->profile_path);

	if (found < 0) {
		r->profile_path[0] = 0;
		add_reason(r, "UCOPY_PROFILE ignored: the path is too long");
		return -1;
	}
	if (found == 0)
		return -1;
	if (ucopy_profile_load(r->profile_path, &r->policy, why, sizeof why) == 0)
		return 0;
	snprintf(msg, sizeof msg, "profile ignored: %s", why);
	add_reason(r, msg);
	return -1;
}

/* Resolves into r: UCOPY_POLICY, else the profile, else auto. */
static void resolve(struct resolution *r)
{
	char err[256] = "";
	const char *env = ucopy_getenv("UCOPY_POLICY");
	if (env && !*env)
		env = NULL;   /* set but empty: as if unset, as shells make it */

	r->active = (struct ucopy_active){ &r->policy, UCOPY_SOURCE_DEFAULT,
					   r->reason, r->profile_path };
	r->reason[0] = 0;
	r->profile_path[0] = 0;
	if (env && resolve_for_cpu(&r->policy, env, err, sizeof err) == 0) {
		r->active.source = UCOPY_SOURCE_ENV;
		snprintf(r->reason, sizeof r->reason, "%s", err);
	} else {
		if (env)
			snprintf(r->reason, sizeof r->reason,
				 "UCOPY_POLICY='%s' ignored: %s", ucopy_quote(env, strlen(env)).s, err);
		/* Only a valid UCOPY_POLICY overrides the profile: a typo
		 * in it should not also throw away the calibration. */
		if (load_profile(r) == 0) {
			r->active.source = UCOPY_SOURCE_PROFILE;
		} else {
			char note[256] = "";
			/* "auto" is built from the port's own table; should it
			 * ever fail, libc, which every port has, rather than an
			 * empty policy. */
			if (resolve_for_cpu(&r->policy, "auto", note, sizeof note) != 0) {
				add_reason(r, "auto failed");
				resolve_for_cpu(&r->policy, "libc", NULL, 0);
			}
			if (note[0])
				add_reason(r, note);
		}
	}
	compile(r);
}

/* Fills a slot of first_use: the policy, compiled.  A copy this thread makes
 * meanwhile takes the byte loop (resolve_then_copy). */
static void resolve_slot(void *slot)
{
	/* First use may be anywhere, a signal handler included: errno is
	 * the program's. */
	int saved = errno;
	unsigned char was = resolving;
	resolving = 1;
	resolve(slot);
	resolving = was;
	errno = saved;
}

/* First use takes no lock (once.c): pthread_once would deadlock a signal
 * handler that copies while its own thread resolves. */
static const struct resolution *resolved(void)
{
	const struct resolution *p = __atomic_load_n(&first_use.published, __ATOMIC_ACQUIRE);
	if (likely(p))
		return p;
	int won;
	p = ucopy_once(&first_use, resolve_slot, &won);
	if (won) {
		__atomic_store_n(&tables, p, __ATOMIC_RELEASE);
		publish_words(p);
	}
	return p;
}

const struct ucopy_active *ucopy_active(void)
{
	return &resolved()->active;
}

const char *ucopy_source_name(enum ucopy_source s)
{
	switch (s) {
	case UCOPY_SOURCE_ENV: return "UCOPY_POLICY";
	case UCOPY_SOURCE_PROFILE: return "profile";
	default: return "default";
	}
}

/* ucopy_memcpy before first use.  Dispatches by the resolution it gets (the
 * words may not be set yet when another thread won); a copy made while this
 * thread resolves takes the byte loop. */
static struct ucopy_ret resolve_then_copy(void *restrict dst,
					  const void *restrict src, size_t n)
{
	if (unlikely(resolving)) {
		lib_copy(dst, src, n);
		return (struct ucopy_ret){ dst, 0 };
	}
	const struct resolution *r = resolved();
	unsigned i = 0;
	while (n >= r->plain[i].limit)
		i++;
	return r->plain[i].fn(dst, src, n);
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
