/*
 * cpu.c - what the CPU can do, detected once; the feature vocabulary.
 *
 * Assumptions: Linux.  The port detects (ucopy_arch_detect, <port>/cpu.c)
 * and names its features; this file publishes the result once, lock-free,
 * parses feature lists, and offers the ports what Linux tells about caches
 * on any architecture (sysconf, then sysfs).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "arch.h"
#include "env.h"

static struct ucopy_cpu cpus[4];
static struct ucopy_once cpu_once = UCOPY_ONCE(cpus);

/* The start of a small file, NUL-terminated: open/read rather than stdio,
 * since detection runs at a program's first copy, maybe in a signal handler
 * or inside malloc (docs/design.md, "First use").
 * @return : the bytes read, or -1. */
ssize_t ucopy_read_text(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	size_t got = 0;
	while (got + 1 < len) {
		ssize_t r = read(fd, buf + got, len - 1 - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	buf[got] = 0;
	return (ssize_t)got;
}

void ucopy_cpu_set_cache(struct ucopy_cpu *c, unsigned level, size_t size)
{
	if (level == 1 && !c->l1d)
		c->l1d = size;
	else if (level == 2 && !c->l2)
		c->l2 = size;
	else if (level == 3 && !c->l3)
		c->l3 = size;
}

/* Reads /sys/devices/system/cpu/cpu0/cache: the kernel's own view, which is
 * what is left on CPUs that describe their caches in no user-visible way
 * (aarch64 without CTR/CCSIDR access from EL0, or a hypervisor that hides
 * the cache descriptions). */
static void caches_from_sysfs(struct ucopy_cpu *c)
{
	for (int i = 0; i < 8; i++) {
		char path[96], type[16] = "", size[32] = "";
		unsigned level = 0;

		snprintf(path, sizeof path,
			 "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
		if (ucopy_read_text(path, size, sizeof size) < 0)
			break;
		if (sscanf(size, "%u", &level) != 1)
			level = 0;
		snprintf(path, sizeof path,
			 "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
		if (ucopy_read_text(path, type, sizeof type) < 0 ||
		    (strncmp(type, "Data", 4) && strncmp(type, "Unified", 7)))
			continue;
		snprintf(path, sizeof path,
			 "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		if (ucopy_read_text(path, size, sizeof size) < 0)
			continue;
		char *end;
		unsigned long long v = strtoull(size, &end, 10);
		if (*end == 'K')
			v <<= 10;
		else if (*end == 'M')
			v <<= 20;
		if (v)
			ucopy_cpu_set_cache(c, level, (size_t)v);
	}
}

void ucopy_cpu_caches_fallback(struct ucopy_cpu *c)
{
#if defined(_SC_LEVEL1_DCACHE_SIZE)
	long v;
	if (!c->l1d && (v = sysconf(_SC_LEVEL1_DCACHE_SIZE)) > 0)
		c->l1d = (size_t)v;
	if (!c->l2 && (v = sysconf(_SC_LEVEL2_CACHE_SIZE)) > 0)
		c->l2 = (size_t)v;
	if (!c->l3 && (v = sysconf(_SC_LEVEL3_CACHE_SIZE)) > 0)
		c->l3 = (size_t)v;
#endif
	if (!c->l1d || !c->l2 || !c->l3)
		caches_from_sysfs(c);
}

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
