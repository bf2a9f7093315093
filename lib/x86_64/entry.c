/*
 * x86_64/entry.c - what the generic library asks of the x86-64 entry points
 * and fault handling: the fast entries' words set (entry.S holds them), and
 * the registers of a signal context it rewrites.
 */
#define _GNU_SOURCE   /* REG_RIP */
#include <ucontext.h>

#include "arch.h"
#include "ucopy-asm.h"
#include "x86_64.h"

const int ucopy_arch_faults = 1;
const unsigned ucopy_arch_ex_types = 1u << UCOPY_EX_RESUME | 1u << UCOPY_EX_TRAPNR;

static const ucopy_kernel_fn entry_plain[UCOPY_NENTRIES] = {
	ucopy_k_sse2, ucopy_k_avx2, ucopy_k_avx512 };
static const ucopy_try_fn entry_try[UCOPY_NENTRIES] = {
	ucopy_t_sse2, ucopy_t_avx2, ucopy_t_avx512 };

/* The word of the fast entry whose kernel is `first` gets the limit; from
 * then on sizes below it go straight into the kernel. */
void ucopy_arch_publish(ucopy_kernel_fn first, size_t limit)
{
	for (unsigned i = 0; i < UCOPY_NENTRIES; i++)
		if (first == entry_plain[i])
			__atomic_store_n(&ucopy_entry_limit[i], limit, __ATOMIC_RELEASE);
}

/* The try words are set again when ucopy_try is rerouted (fault.c): every
 * word but the first kernel's goes back to 0. */
void ucopy_arch_publish_try(ucopy_try_fn first, size_t limit)
{
	for (unsigned i = 0; i < UCOPY_NENTRIES; i++)
		__atomic_store_n(&ucopy_try_entry_limit[i],
				 first && first == entry_try[i] ? limit : 0, __ATOMIC_RELEASE);
}

uintptr_t *ucopy_arch_context_pc(void *ctx)
{
	ucontext_t *uc = ctx;
	return (uintptr_t *)&uc->uc_mcontext.gregs[REG_RIP];
}

/* copy_user_64.S of 5.16 to 6.3 tells a machine check from a page fault
 * by the trap number its fixup finds in eax; SIGSEGV and SIGBUS both come
 * from page faults. */
void ucopy_arch_context_trapnr(void *ctx)
{
	ucontext_t *uc = ctx;
	uc->uc_mcontext.gregs[REG_RAX] = 14;   /* X86_TRAP_PF */
}
