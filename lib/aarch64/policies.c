/*
 * aarch64/policies.c - the aarch64 policies: what Linux did for user
 * copies (the named policies), the library's own choice (auto), and the
 * nearest kernels when a CPU cannot run one.
 */
#include "arch.h"
#include "named.h"

/* No aarch64 feature only makes a kernel fast: without MOPS cpyfp is
 * undefined, without ASIMD there are no q registers. */
const uint64_t ucopy_arch_speed_bits = 0;

/*=====   Named policies   =====
 * arm64 picks no strategy by feature or size for user copies: one routine
 * handles every size with its own classes (lib/kernels/aarch64/template.h
 * reproduces them), so each named policy is one kernel. */

/* v4.19 arch/arm64/lib/copy_from_user.S (and copy_to_user.S,
 * copy_in_user.S): copy_template.S with ldp1/stp1 as plain ldp/stp, the
 * user access allowed by set_fs(KERNEL_DS) and uaccess_enable_not_uao. */
static const char *arm64_4_19(uint64_t f)
{
	(void)f;
	return "ldp";
}

/* v5.15 arch/arm64/lib/copy_from_user.S: the same copy_template.S, with
 * ldp1 as `user_ldp` (two ldtr: the unprivileged loads have no pair form)
 * and ldr1 as ldtr*; copy_to_user.S the same with sttr.  set_fs() went in
 * 5.11 (3d2403fd10a1 "arm64: uaccess: remove set_fs()"), and with it the
 * pairs: the regression of the Zynq report (docs/reproducing.md). */
static const char *arm64_5_15(uint64_t f)
{
	(void)f;
	return "ldtr";
}

const struct ucopy_named ucopy_arch_named[] = {
	UCOPY_NAMED_AARCH64(UCOPY_NAMED_ROW)
	{ NULL },
};

/*=====   auto   =====
 * One row per microarchitecture measured, chosen by the MIDR implementer
 * and part (vendor, as "0x41", and model in ucopy_cpu()), as x86-64's rows
 * are by vendor and family.  No aarch64 machine has been measured yet: there is
 * only the default row, which follows glibc's aarch64 memcpy (q-register
 * pairs for every size) rather than any measurement of ucopy's own.  mops
 * is not chosen until a MOPS CPU has been measured and its fault contract
 * tested (qemu 7.2 has no MOPS).  Whoever measures a machine adds its row
 * with the numbers, in docs/performance-<cpu>.md. */
static const struct ucopy_auto_row rows[] = {
	{ NULL, 0, "default",
	  "neon (q-register pairs) for every size, as glibc's aarch64 memcpy; ldp without "
	  "ASIMD. Not measured on real hardware: no aarch64 row has been measured yet" },
};

const struct ucopy_auto_row *ucopy_arch_auto_row(const struct ucopy_cpu *cpu, uint64_t f)
{
	return ucopy_auto_row_find(rows, sizeof rows / sizeof rows[0], sizeof rows[0],
				   cpu, f, cpu->model);
}

void ucopy_arch_auto(const struct ucopy_cpu *cpu, uint64_t f, char *buf, size_t len)
{
	(void)cpu;   /* one row: the default */
	size_t pos = 0;
	if (buf && len)
		buf[0] = 0;
	ucopy_put(buf, len, &pos, "%s", ucopy_kernel_runs("neon", f) ? "neon" : "ldp");
}

/*=====   Fitting   =====*/

const char *const ucopy_arch_fallback[][UCOPY_FALLBACK_LEN] = {
	{ "mops", "neon", "ldp", NULL },
	{ "neon", "ldp", NULL },
	{ NULL },
};

const char *const ucopy_arch_last_resort[] = { "ldp", "word", "byte", NULL };
