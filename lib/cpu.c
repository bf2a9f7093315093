/*
 * cpu.c - what the CPU can do, detected once; the feature vocabulary.
 *
 * Assumptions: Linux.  The port detects (ucopy_arch_detect, <port>/cpu.c)
 * and names its features; this file publishes the result once, lock-free,
 * and names, parses and formats feature lists.  What Linux tells every port
 * (cache sizes, small files) is in sysinfo.c, below the ports.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "arch.h"
#include "env.h"

static struct ucopy_cpu cpus[4];
static struct ucopy_once cpu_once = UCOPY_ONCE(cpus);

/* UCOPY_FEATURES: removals from what was detected, never additions. */
static void apply_mask(struct ucopy_cpu *c)
{
	const char *env = ucopy_getenv("UCOPY_FEATURES");
	char err[128];
	uint64_t set;
	c->detected = c->features;
	if (!env || !*env)
		return;
	if (ucopy_features_mask(env, c->detected, &set, err, sizeof err) != 0) {
		/* The value escaped and cut whole (a "%.40s" of the escaped
		 * text split its escapes), in the 160 bytes the note has. */
		char shown[48];
		snprintf(c->mask_note, sizeof c->mask_note, "UCOPY_FEATURES='%s' ignored: %s",
			 ucopy_show_text(env, shown, sizeof shown), err);
		return;
	}
	c->features = set;
	char gone[128];
	ucopy_features_format(c->detected & ~set, ",", gone, sizeof gone);
	snprintf(c->mask_note, sizeof c->mask_note, "UCOPY_FEATURES removed %s",
		 set == c->detected ? "nothing" : gone);
}

static void detect_slot(void *slot)
{
	/* First use may be anywhere, a signal handler included: errno is
	 * the program's. */
	int saved = errno;
	struct ucopy_cpu *c = slot;
	ucopy_arch_detect(c);
	if (!c->vendor[0])
		lib_copy(c->vendor, "unknown", sizeof "unknown");
	apply_mask(c);
	errno = saved;
}

const struct ucopy_cpu *ucopy_cpu(void)
{
	return ucopy_once(&cpu_once, detect_slot, NULL);
}

const char *ucopy_feature_name(unsigned bit)
{
	return bit < UCOPY_FEAT_COUNT ? ucopy_arch_feature_names[bit] : NULL;
}

size_t ucopy_features_format(uint64_t set, const char *sep, char *buf, size_t len)
{
	size_t pos = 0;
	if (buf && len)
		buf[0] = 0;
	for (unsigned b = 0; b < UCOPY_FEAT_COUNT; b++) {
		if (!(set >> b & 1) || !ucopy_feature_name(b))
			continue;
		int n = snprintf(buf && pos < len ? buf + pos : NULL, buf && pos < len ? len - pos : 0,
				 "%s%s", pos ? sep : "", ucopy_feature_name(b));
		if (n > 0)
			pos += (size_t)n;
	}
	if (pos == 0) {
		int n = snprintf(buf, len, "none");
		pos = n > 0 ? (size_t)n : 0;
	}
	return pos;
}

static int feature_bit(const char *s, size_t n)
{
	for (unsigned i = 0; i < UCOPY_FEAT_COUNT; i++)
		if (ucopy_arch_feature_names[i] && strlen(ucopy_arch_feature_names[i]) == n &&
		    !strncasecmp(ucopy_arch_feature_names[i], s, n))
			return (int)i;
	return -1;
}

int ucopy_features_parse(const char *list, uint64_t base, uint64_t *out,
			 char *err, size_t errlen)
{
	uint64_t set = base;
	int first = 1;

	if (err && errlen)
		err[0] = 0;
	if (!list)
		return ucopy_fail(err, errlen, "empty feature list");
	const char *p = list;
	for (;;) {
		const char *end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		const char *s = p, *e = end;
		while (s < e && isspace((unsigned char)*s))
			s++;
		while (e > s && isspace((unsigned char)e[-1]))
			e--;
		int remove = 0;
		if (s < e && (*s == '-' || *s == '+')) {
			remove = *s == '-';
			s++;
		}
		if (s == e) {
			if (first && !*end)
				return ucopy_fail(err, errlen, "empty feature list");
			return ucopy_fail(err, errlen, "empty feature name in '%s'",
					  ucopy_quote(list, strlen(list)).s);
		}
		if (e - s == 4 && !strncasecmp(s, "none", 4)) {
			if (!first || remove)
				return ucopy_fail(err, errlen, "'none' may only start the list");
			set = 0;
		} else {
			int bit = feature_bit(s, (size_t)(e - s));
			if (bit < 0)
				return ucopy_fail(err, errlen, "unknown feature '%s'",
						  ucopy_quote(s, (size_t)(e - s)).s);
			if (remove)
				set &= ~(UINT64_C(1) << bit);
			else
				set |= UINT64_C(1) << bit;
		}
		first = 0;
		if (!*end)
			break;
		p = end + 1;
	}
	*out = set;
	return 0;
}

int ucopy_features_mask(const char *list, uint64_t detected, uint64_t *out,
			char *err, size_t errlen)
{
	uint64_t set;
	if (ucopy_features_parse(list, detected, &set, err, errlen))
		return -1;
	if (set & ~detected) {
		char extra[128];
		ucopy_features_format(set & ~detected, ",", extra, sizeof extra);
		return ucopy_fail(err, errlen, "it adds %s, which the CPU lacks (only removals apply)",
				  extra);
	}
	*out = set;
	return 0;
}
