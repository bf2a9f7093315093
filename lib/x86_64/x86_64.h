/*
 * x86_64.h - what the x86-64 port's files share: the kernels' symbols and
 * the fast entries' words.
 */
#ifndef UCOPY_X86_64_H
#define UCOPY_X86_64_H

#include "internal.h"

/* The kernels (lib/kernels/x86_64/): the plain body ucopy_k_NAME, a
 * ucopy_kernel_fn, and the try body ucopy_t_NAME, a ucopy_try_fn. */
#define KERNEL_DECL(name) \
	struct ucopy_ret ucopy_k_##name(void *restrict, const void *restrict, \
					size_t) HIDDEN; \
	size_t ucopy_t_##name(void *, const void *, size_t) HIDDEN
KERNEL_DECL(byte);
KERNEL_DECL(word);
KERNEL_DECL(unrolled);
KERNEL_DECL(movsq);
KERNEL_DECL(movsb);
KERNEL_DECL(movsb_aligned);
KERNEL_DECL(movsb_safe);
KERNEL_DECL(movsb_coaligned);
KERNEL_DECL(sse2);
KERNEL_DECL(avx2);
KERNEL_DECL(avx512);
KERNEL_DECL(nt);
KERNEL_DECL(nt512);

/* The shared fault fixup tail (fixup.S). */
void ucopy_fixup_tail(void) HIDDEN;

/* The fast entries ucopy_memcpy and ucopy_try resolve to (entry.S,
 * KERNEL_ENTRY in lib/kernels/x86_64/asm.h), by kernel: sse2, avx2, avx512.
 * A word is the active policy's first limit when its first kernel is that
 * one, else 0; sizes below it go straight into the kernel. */
#define UCOPY_NENTRIES 3
extern size_t ucopy_entry_limit[UCOPY_NENTRIES] HIDDEN;
extern size_t ucopy_try_entry_limit[UCOPY_NENTRIES] HIDDEN;
/* The index of the fast entry the IFUNC resolvers pick. */
int ucopy_entry_class(void) HIDDEN;

/* Whether Linux sets X86_FEATURE_REP_GOOD for this CPU (cpu.c); sig is
 * CPUID leaf 1 EAX. */
int ucopy_rep_good(const char *vendor, unsigned family, unsigned model,
		   unsigned sig) HIDDEN;

#endif
