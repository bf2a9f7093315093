/*
 * arch.h - what a port supplies to the generic library, and what the generic
 * library offers a port.
 *
 * A port is a directory lib/<arch>/ (C) with its kernels in
 * lib/kernels/<arch>/ (assembly); the Makefile builds the one for the target
 * architecture, or lib/generic/ where there is none (or with PORT=generic).
 * The files of lib/ itself know no architecture: no kernel, feature or
 * register of one is named there.  docs/design.md, "Ports".
 */
#ifndef UCOPY_ARCH_H
#define UCOPY_ARCH_H

#include "internal.h"

#include <string.h>
#include <sys/types.h>

/*=====   The CPU (<port>/cpu.c)   =====*/

extern const char ucopy_arch_name[] HIDDEN;   /* "x86_64" */
/* Fills c: arch, vendor, family/model/stepping, brand, features, caches
 * (0 when unknown).  Runs at first use: no locks, no stdio, no malloc. */
void ucopy_arch_detect(struct ucopy_cpu *c) HIDDEN;
/* The names of this port's feature bits; NULL for bits it does not have. */
extern const char *const ucopy_arch_feature_names[UCOPY_FEAT_COUNT] HIDDEN;

/*=====   Kernels (<port>/kernels.c)   =====*/

/* Every kernel the port built; the generic table adds `libc` after them. */
extern const struct ucopy_kernel ucopy_arch_kernels[] HIDDEN;
extern const size_t ucopy_arch_nkernels HIDDEN;
/* The fault-capable kernels that may replace a kernel without a try body
 * in fault-tolerant copies, best first, NULL-terminated: the first the
 * running CPU supports is taken, else the last (empty when the port has
 * none).  ucopy_kernel_fault_capable() chooses once and keeps the answer. */
extern const char *const ucopy_arch_fault_capable_order[] HIDDEN;

/*=====   Policies (<port>/policies.c)   =====*/

/* The port's named policies, each with the text it gives for a CPU with
 * `features`, the table ended by a row { NULL }; policy.c looks them up
 * (its own list has every port's names, to say which architecture a
 * foreign one is for). */
struct ucopy_named {
	const char *name;
	const char *(*text)(uint64_t features);
};
extern const struct ucopy_named ucopy_arch_named[] HIDDEN;
/* auto's text for the CPU cpu describes, with `features` (cpu->features,
 * or a feature set assumed for it; writes at most len bytes).  cpu is the
 * running CPU's (ucopy_cpu()) or one described (ucopy_auto_for()). */
void ucopy_arch_auto(const struct ucopy_cpu *cpu, uint64_t features, char *buf,
		     size_t len) HIDDEN;
/* The row of the port's auto table that chose it, for
 * ucopy_auto_explain(); never NULL. */
const struct ucopy_auto_row *ucopy_arch_auto_row(const struct ucopy_cpu *cpu,
						 uint64_t features) HIDDEN;
/* Per kernel, the kernels to try, nearest first, when a CPU cannot run it:
 * { kernel, nearest, ..., NULL }, the table ended by a row { NULL }.  Then
 * ucopy_arch_last_resort[] in order. */
#define UCOPY_FALLBACK_LEN 5
extern const char *const ucopy_arch_fallback[][UCOPY_FALLBACK_LEN] HIDDEN;
extern const char *const ucopy_arch_last_resort[] HIDDEN;
/* Features that only make a kernel fast: a kernel that requires only
 * these still runs without them (a string instruction every CPU of the
 * architecture has, only slower). */
extern const uint64_t ucopy_arch_speed_bits HIDDEN;

/*=====   What the generic library offers ports (here, kernel.c)   =====*/

/* Whether the kernel called `name` is built and a CPU with `features` runs
 * it. */
int ucopy_kernel_runs(const char *name, uint64_t features) HIDDEN;

/* One row of a port's auto table: a microarchitecture measured, or the
 * default for every other CPU, which comes last.  A port that keeps more
 * per row (thresholds) makes this the first member of its own row type. */
struct ucopy_auto_row {
	const char *vendor;   /* ucopy_cpu()->vendor; NULL in the default */
	unsigned id;          /* the number the port's rows are keyed by */
	const char *name;
	const char *why;
};

/* The row of `rows` (n of them, `size` bytes apart) whose vendor and id are
 * cpu's, with `id` the port's key for that CPU (x86-64's family, aarch64's
 * MIDR part); else the last, the default, which is also the row of every
 * feature set that is not cpu's own (--assume-features), about which the
 * vendor and id say nothing. */
static inline const void *ucopy_auto_row_find(const void *rows, size_t n, size_t size,
					       const struct ucopy_cpu *cpu, uint64_t features,
					       unsigned id)
{
	const char *p = rows;
	if (cpu->features == features)
		for (size_t i = 0; i + 1 < n; i++) {
			const struct ucopy_auto_row *r = (const void *)(p + i * size);
			if (!strcmp(cpu->vendor, r->vendor) && id == r->id)
				return r;
		}
	return p + (n - 1) * size;
}

/*=====   Entries and faults (<port>/entry.c, lib/kernels/<port>/)   =====*/

/* 1 when the port's kernels have try bodies listed in the exception table
 * and ucopy's signal handler can recover their faults; 0 where
 * ucopy_try() copies without signals. */
extern const int ucopy_arch_faults HIDDEN;
/* The active policy's first rule, for a port whose entry points have a
 * faster path for it (0 and NULL: none).  Called once the generic words
 * are set. */
void ucopy_arch_publish(ucopy_kernel_fn first, size_t limit) HIDDEN;
void ucopy_arch_publish_try(ucopy_try_fn first, size_t limit) HIDDEN;
/* The program counter in a signal handler's ucontext. */
uintptr_t *ucopy_arch_context_pc(void *ucontext) HIDDEN;
/* The entry types of other objects' tables (UCOPY_EX_* of <ucopy-asm.h>)
 * the port's handler can apply, as a mask of 1 << type: a table with any
 * other is refused (ucopy_fault_register()). */
extern const unsigned ucopy_arch_ex_types HIDDEN;
/* What an entry of type UCOPY_EX_TRAPNR hands its fixup besides the
 * moved PC: the page fault's trap number, in the register the port's
 * fixups read it from, as the Linux kernel leaves it (<port>/entry.c).
 * Only called on a port whose ucopy_arch_ex_types has the type. */
void ucopy_arch_context_trapnr(void *ucontext) HIDDEN;
/* What the signal handler's definition needs from the port.  x86-64: the
 * stack realigned on entry, since a handler cannot trust the ABI's 16 bytes
 * there (qemu-user 7.2 enters handlers 8 bytes off) and the compiler keeps
 * aligned vector moves on the stack. */
#ifdef UCOPY_PORT_x86_64
#define UCOPY_ARCH_HANDLER __attribute__((force_align_arg_pointer))
#else
#define UCOPY_ARCH_HANDLER
#endif

/*=====   What the generic library offers ports (sysinfo.c)   =====*/

void ucopy_cpu_set_cache(struct ucopy_cpu *c, unsigned level, size_t size) HIDDEN;
/* Fills the cache sizes still 0 from sysconf, then sysfs. */
void ucopy_cpu_caches_fallback(struct ucopy_cpu *c) HIDDEN;
/* The start of a small file, NUL-terminated (open/read, no stdio).
 * @return : the bytes read, or -1. */
ssize_t ucopy_read_text(const char *path, char *buf, size_t len) HIDDEN;

#endif
