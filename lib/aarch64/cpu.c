/*
 * aarch64/cpu.c - CPU detection on aarch64: the auxiliary vector and MIDR.
 *
 * Assumptions: Linux.  EL0 cannot read ID registers on its own; Linux
 * exposes what it allows through AT_HWCAP/AT_HWCAP2 (which also say the
 * kernel saves the state, as XCR0 does on x86: SVE is listed only when the
 * kernel context-switches it), and traps and emulates `mrs` of MIDR_EL1
 * and the ID registers (arch/arm64/kernel/cpufeature.c, since 4.11).
 * sysfs's midr_el1 is preferred where present: it is the kernel's record of
 * cpu0, read at boot, without a trap.  Under qemu-user neither sysfs nor the
 * kernel is the emulated CPU's; the emulated `mrs` answers for it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

#include "arch.h"

const char ucopy_arch_name[] = "aarch64";

const char *const ucopy_arch_feature_names[UCOPY_FEAT_COUNT] = {
	[UCOPY_FEAT_ASIMD] = "asimd",
	[UCOPY_FEAT_SVE] = "sve",
	[UCOPY_FEAT_MOPS] = "mops",
};

/* The uapi values (arch/arm64/include/uapi/asm/hwcap.h), for C libraries
 * whose headers predate them. */
#define CAP_ASIMD (1ul << 1)
#define CAP_SVE (1ul << 22)
#define CAP2_MOPS (1ul << 43)

#define MIDR_PATH "/sys/devices/system/cpu/cpu0/regs/identification/midr_el1"

static uint64_t midr_read(void)
{
	char text[64];
	if (ucopy_read_text(MIDR_PATH, text, sizeof text) > 0) {
		char *end;
		uint64_t v = strtoull(text, &end, 0);
		if (end != text)
			return v;
	}
	uint64_t v;
	/* Linux emulates the read (HWCAP_CPUID); without that it would
	 * raise SIGILL, but every kernel this library supports has it. */
	if (getauxval(AT_HWCAP) & HWCAP_CPUID) {
		__asm__ volatile("mrs %0, midr_el1" : "=r"(v));
		return v;
	}
	return 0;
}

/* Names for the parts worth naming: those the named policies and docs
 * mention, and the common server and phone cores.  Others show their codes. */
static const struct {
	unsigned implementer, part;
	const char *name;
} parts[] = {
	{ 0x41, 0xd03, "ARM Cortex-A53" },
	{ 0x41, 0xd04, "ARM Cortex-A35" },
	{ 0x41, 0xd05, "ARM Cortex-A55" },
	{ 0x41, 0xd07, "ARM Cortex-A57" },
	{ 0x41, 0xd08, "ARM Cortex-A72" },
	{ 0x41, 0xd09, "ARM Cortex-A73" },
	{ 0x41, 0xd0b, "ARM Cortex-A76" },
	{ 0x41, 0xd0c, "ARM Neoverse N1" },
	{ 0x41, 0xd40, "ARM Neoverse V1" },
	{ 0x41, 0xd41, "ARM Cortex-A78" },
	{ 0x41, 0xd46, "ARM Cortex-A510" },
	{ 0x41, 0xd47, "ARM Cortex-A710" },
	{ 0x41, 0xd49, "ARM Neoverse N2" },
	{ 0x41, 0xd4f, "ARM Neoverse V2" },
	{ 0xc0, 0xac3, "Ampere-1" },
	/* qemu's "max" model: implementer 0 (software use), part 'Q' */
	{ 0x00, 0x051, "QEMU max (emulated)" },
};

void ucopy_arch_detect(struct ucopy_cpu *c)
{
	lib_copy(c->arch, "aarch64", sizeof "aarch64");
	unsigned long hw = getauxval(AT_HWCAP), hw2 = getauxval(AT_HWCAP2);
	uint64_t f = 0;
	if (hw & CAP_ASIMD)
		f |= UCOPY_F(ASIMD);
	if (hw & CAP_SVE)
		f |= UCOPY_F(SVE);
	if (hw2 & CAP2_MOPS)
		f |= UCOPY_F(MOPS);
	c->features = f;

	uint64_t midr = midr_read();
	if (midr) {
		/* The implementer code stands in for x86's vendor string; the
		 * variant, part and revision for family, model, stepping, as
		 * /proc/cpuinfo prints them. */
		unsigned impl = (unsigned)(midr >> 24) & 0xff;
		snprintf(c->vendor, sizeof c->vendor, "0x%02x", impl);
		c->family = (unsigned)(midr >> 20) & 0xf;
		c->model = (unsigned)(midr >> 4) & 0xfff;
		c->stepping = (unsigned)midr & 0xf;
		for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
			if (parts[i].implementer == impl && parts[i].part == c->model)
				snprintf(c->brand, sizeof c->brand, "%s", parts[i].name);
		if (!c->brand[0])
			snprintf(c->brand, sizeof c->brand, "implementer 0x%02x part 0x%03x",
				 impl, c->model);
	}
	ucopy_cpu_caches_fallback(c);
}
