/*
 * grammar.c - the policy text form: parsing and formatting.
 *
 *   POLICY := RULE { "," RULE }
 *   RULE   := [ LIMIT ":" ] KERNEL     sizes below LIMIT; the last has none
 *   LIMIT  := SIZE (text.c) above 0
 *
 * Kernel names are checked against the table, not against a CPU: that is
 * resolution's job (policy.c), which sits above this file and the profile
 * reader, both of which parse policy text.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"


/* LIMIT := SIZE above 0 and below SIZE_MAX, which marks the last rule. */
static int parse_limit(const char *s, const char *e, size_t *out, char *err,
		       size_t errlen)
{
	size_t n = (size_t)(e - s), v;
	int rc = ucopy_size_span(s, n, &v);
	if (rc == -1)
		return ucopy_fail(err, errlen,
			    "bad limit '%s' (expected a number with optional K, M or G)",
			    ucopy_quote(s, n).s);
	if (rc == -2 || v == SIZE_MAX)
		return ucopy_fail(err, errlen, "limit '%s' is too large", ucopy_quote(s, n).s);
	if (v == 0)
		return ucopy_fail(err, errlen, "limit '%s' must be above 0", ucopy_quote(s, n).s);
	*out = v;
	return 0;
}

static const struct ucopy_kernel *find_kernel(const char *s, size_t n)
{
	char name[32];
	if (n == 0 || n >= sizeof name)
		return NULL;
	lib_copy(name, s, n);
	name[n] = 0;
	return ucopy_kernel_find(name);
}

int ucopy_policy_parse(struct ucopy_policy *p, const char *text, char *err,
		       size_t errlen)
{
	struct ucopy_policy q;
	const char *prev = NULL; /* the previous rule, for messages */
	size_t prevlen = 0;
	const char *prev_ls = NULL; /* the previous limit, as written */
	size_t prev_ll = 0;
	int prev_limited = 1;

	if (err && errlen)
		err[0] = 0;
	memset(&q, 0, sizeof q);
	if (!text)
		return ucopy_fail(err, errlen, "empty policy");
	const char *ts = text, *te = text + strlen(text);
	ucopy_trim(&ts, &te);
	if (ts == te)
		return ucopy_fail(err, errlen, "empty policy");

	for (const char *r = text;;) {
		const char *end = strchr(r, ',');
		if (!end)
			end = r + strlen(r);
		const char *rs = r, *re = end;
		ucopy_trim(&rs, &re);
		if (rs == re) {
			if (!*end && prev)
				return ucopy_fail(err, errlen,
					    "trailing ',' after '%s'",
					    ucopy_quote(prev, prevlen).s);
			if (prev)
				return ucopy_fail(err, errlen,
					    "empty rule after '%s'",
					    ucopy_quote(prev, prevlen).s);
			return ucopy_fail(err, errlen,
				    "empty rule at the start of '%s'",
				    ucopy_quote(text, strlen(text)).s);
		}
		if (q.nrules == UCOPY_MAX_RULES)
			return ucopy_fail(err, errlen, "too many rules (max %d)",
				    UCOPY_MAX_RULES);
		if (!prev_limited)
			return ucopy_fail(err, errlen,
				    "rule '%s' has no limit but is not the last rule",
				    ucopy_quote(prev, prevlen).s);

		struct ucopy_tok rule = ucopy_quote(rs, (size_t)(re - rs));
		const char *ks = rs, *ke = re;
		size_t limit = SIZE_MAX;
		const char *colon = memchr(rs, ':', (size_t)(re - rs));
		if (colon) {
			const char *ls = rs, *le = colon;
			ucopy_trim(&ls, &le);
			ks = colon + 1;
			ucopy_trim(&ks, &ke);
			if (ls == le)
				return ucopy_fail(err, errlen,
					    "rule '%s' has no limit before ':'",
					    rule.s);
			if (ks == ke)
				return ucopy_fail(err, errlen,
					    "rule '%s' has no kernel after ':'",
					    rule.s);
			if (parse_limit(ls, le, &limit, err, errlen))
				return -1;
			if (q.nrules && limit <= q.rule[q.nrules - 1].limit) {
				struct ucopy_tok now = ucopy_quote(ls, (size_t)(le - ls));
				return ucopy_fail(err, errlen,
					    "limit '%s' is not above the previous limit '%s'",
					    now.s, ucopy_quote(prev_ls, prev_ll).s);
			}
			prev_ls = ls;
			prev_ll = (size_t)(le - ls);
		}
		const struct ucopy_kernel *k = find_kernel(ks, (size_t)(ke - ks));
		if (!k)
			return ucopy_fail(err, errlen, "unknown kernel '%s'",
				    ucopy_quote(ks, (size_t)(ke - ks)).s);
		q.rule[q.nrules].limit = limit;
		q.rule[q.nrules].kernel = k;
		q.nrules++;
		prev = rs;
		prevlen = (size_t)(re - rs);
		prev_limited = colon != NULL;
		if (!*end)
			break;
		r = end + 1;
	}
	if (prev_limited)
		return ucopy_fail(err, errlen, "the last rule '%s' must not have a limit",
			    ucopy_quote(prev, prevlen).s);
	lib_copy(p, &q, sizeof q);
	return 0;
}

static void put_size(char *buf, size_t len, size_t *pos, size_t v)
{
	char t[32];
	ucopy_size_format(v, t, sizeof t);
	ucopy_put(buf, len, pos, "%s", t);
}

size_t ucopy_policy_format(const struct ucopy_policy *p, char *buf, size_t len)
{
	size_t pos = 0;

	if (buf && len)
		buf[0] = 0;
	else
		len = 0;
	if (!p)
		return 0;
	for (unsigned i = 0; i < p->nrules && i < UCOPY_MAX_RULES; i++) {
		if (i)
			ucopy_put(buf, len, &pos, ",");
		if (p->rule[i].limit != SIZE_MAX) {
			put_size(buf, len, &pos, p->rule[i].limit);
			ucopy_put(buf, len, &pos, ":");
		}
		ucopy_put(buf, len, &pos, "%s",
		    p->rule[i].kernel ? p->rule[i].kernel->name : "?");
	}
	return pos;
}
