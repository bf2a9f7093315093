/*
 * aarch64/entry.c - what the generic library asks of the aarch64 entry
 * points (entry.S, no fast entries: nothing to publish) and the program
 * counter of a signal context.
 */
#define _GNU_SOURCE
#include <ucontext.h>

#include "arch.h"
#include "aarch64.h"
#include "ucopy-asm.h"

const int ucopy_arch_faults = 1;
/* arm64's fixups need no trap number: UCOPY_EX_TRAPNR is refused. */
const unsigned ucopy_arch_ex_types = 1u << UCOPY_EX_RESUME;

void ucopy_arch_publish(ucopy_kernel_fn first, size_t limit)
{
	(void)first;
	(void)limit;
}

void ucopy_arch_publish_try(ucopy_try_fn first, size_t limit)
{
	(void)first;
	(void)limit;
}

/* The fixups read the cursors from the registers as the fault left them
 * (lib/kernels/aarch64/asm.h), so only the PC is rewritten. */
uintptr_t *ucopy_arch_context_pc(void *ctx)
{
	ucontext_t *uc = ctx;
	return (uintptr_t *)&uc->uc_mcontext.pc;
}

void ucopy_arch_context_trapnr(void *ctx)
{
	(void)ctx;   /* never called: the type is refused */
}
