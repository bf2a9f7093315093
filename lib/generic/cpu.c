/*
 * generic/cpu.c - CPU detection where ucopy has no port: what Linux tells
 * any architecture (the auxiliary vector, /proc/cpuinfo, the cache sizes).
 */
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>

#include "arch.h"

/* The port, for messages ("policy 'linux-6.4' is for x86_64; this library
 * is built for ..."); the CPU's architecture is in ucopy_cpu()->arch. */
const char ucopy_arch_name[] = "no port (generic C)";

#if defined(__aarch64__)
#define CPU_ARCH "aarch64"
#elif defined(__riscv)
#define CPU_ARCH "riscv64"
#elif defined(__x86_64__)
#define CPU_ARCH "x86_64"
#else
#define CPU_ARCH "unknown"
#endif

const char *const ucopy_arch_feature_names[UCOPY_FEAT_COUNT] = {
#if defined(__aarch64__)
	[UCOPY_FEAT_ASIMD] = "asimd",
#endif
	NULL
};

#if defined(__aarch64__)
#ifndef HWCAP_ASIMD
#define HWCAP_ASIMD (1 << 1)
#endif

/* MIDR fields as the kernel prints them in /proc/cpuinfo; the implementer
 * code stands in for the vendor string x86 has. */
static void midr_from_cpuinfo(struct ucopy_cpu *c)
{
	char text[4096];
	unsigned v;

	if (ucopy_read_text("/proc/cpuinfo", text, sizeof text) < 0)
		return;
	for (char *line = text, *nl; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			break;   /* cut short: the rest is not the first CPU */
		*nl = 0;
		if (sscanf(line, "CPU implementer : %i", &v) == 1)
			snprintf(c->vendor, sizeof c->vendor, "0x%02x", v);
		else if (sscanf(line, "CPU variant : %i", &v) == 1)
			c->family = v;
		else if (sscanf(line, "CPU part : %i", &v) == 1)
			c->model = v;
		else if (sscanf(line, "CPU revision : %i", &v) == 1)
			c->stepping = v;
		else if (line[0] == 0 && c->vendor[0])
			break; /* first CPU only */
	}
}

void ucopy_arch_detect(struct ucopy_cpu *c)
{
	lib_copy(c->arch, "aarch64", sizeof "aarch64");
	if (getauxval(AT_HWCAP) & HWCAP_ASIMD)
		c->features |= UCOPY_F(ASIMD);
	midr_from_cpuinfo(c);
	ucopy_cpu_caches_fallback(c);
}

#else

void ucopy_arch_detect(struct ucopy_cpu *c)
{
	snprintf(c->arch, sizeof c->arch, "%s", CPU_ARCH);
	ucopy_cpu_caches_fallback(c);
}

#endif
