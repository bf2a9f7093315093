/*
 * generic/policies.c - policies where ucopy has no port: the C kernel for
 * every size, and none of the named policies (they replay one
 * architecture's kernels).
 */
#include <stdio.h>

#include "arch.h"

const uint64_t ucopy_arch_speed_bits = 0;
const char *const ucopy_arch_last_resort[] = { "c", NULL };

const struct ucopy_named ucopy_arch_named[] = { { NULL } };

void ucopy_arch_auto(const struct ucopy_cpu *cpu, uint64_t features, char *buf, size_t len)
{
	(void)cpu;
	(void)features;
	snprintf(buf, len, "c");
}

const char *const ucopy_arch_fallback[][UCOPY_FALLBACK_LEN] = { { NULL } };

const struct ucopy_auto_row *ucopy_arch_auto_row(const struct ucopy_cpu *cpu,
						 uint64_t features)
{
	static const struct ucopy_auto_row row = {
		NULL, 0, "no port", "the C kernel for every size"
	};
	(void)cpu;
	(void)features;
	return &row;
}
