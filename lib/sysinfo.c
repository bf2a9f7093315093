/*
 * sysinfo.c - what Linux tells any port about its CPU: the start of a small
 * file (/proc/cpuinfo, sysfs) and the data caches' sizes (sysconf, then
 * sysfs), under the ports' detection and calling nothing above it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch.h"

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
