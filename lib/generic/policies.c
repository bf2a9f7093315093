/*
 * generic/policies.c - policies where ucopy has no port: the C kernel for
 * every size, and none of the named policies (they replay one
 * architecture's kernels).
 */
#include <stdio.h>

#include "arch.h"

const uint64_t ucopy_arch_speed_bits = 0;
const char *const ucopy_arch_last_resort[] = { "c", NULL };

const char *ucopy_arch_named(const char *name, uint64_t features)
{
	(void)name;
	(void)features;
	return NULL;
}

void ucopy_arch_auto(uint64_t features, char *buf, size_t len)
{
	(void)features;
	snprintf(buf, len, "c");
}

const char *const *ucopy_arch_fallback(const char *kernel)
{
	(void)kernel;
	return NULL;
}

size_t ucopy_arch_auto_explain(uint64_t features, char *buf, size_t len)
{
	(void)features;
	int n = snprintf(buf, len, "no port: the C kernel for every size");
	return n > 0 ? (size_t)n : 0;
}
