/*
 * aarch64/kernels.c - the aarch64 kernels: their names, what each needs;
 * and the overlapping copies behind ucopy_memmove.
 *
 * The bodies are in lib/kernels/aarch64/, one file each.
 */
#include "arch.h"
#include "aarch64.h"

#define BODIES(name) UCOPY_KERNEL_FAULT_CAPABLE, ucopy_k_##name, ucopy_t_##name

const struct ucopy_kernel ucopy_arch_kernels[] = {
	{ "byte", "one byte at a time", 0, BODIES(byte) },
	{ "word", "8-byte words, then bytes", 0, BODIES(word) },
	{ "ldp", "64-byte blocks of ldp/stp pairs, source aligned (Linux 4.19's copy template)",
	  0, BODIES(ldp) },
	{ "ldtr", "the same template with 8-byte ldtr/sttr (Linux 5.11+ user copies)",
	  0, BODIES(ldtr) },
	{ "neon", "ldp/stp of q registers, overlapping head and tail, 64-byte blocks",
	  UCOPY_F(ASIMD), BODIES(neon) },
	{ "mops", "cpyfp/cpyfm/cpyfe (FEAT_MOPS), the arm rep movsb",
	  UCOPY_F(MOPS), BODIES(mops) },
};

const size_t ucopy_arch_nkernels = sizeof ucopy_arch_kernels / sizeof ucopy_arch_kernels[0];

/* For `libc`: what glibc's aarch64 memcpy does for most sizes, q-register
 * pairs; ldp where a mask hid ASIMD (it runs on every aarch64). */
const char *const ucopy_arch_fault_capable_order[] = { "neon", "ldp", NULL };

/* memmove's overlapping copies, in C: 8-byte words in the copy's direction
 * are safe for any overlap in that direction (a word is loaded before the
 * store that may overwrite its source), bytes for the rest.  The empty asm
 * keeps the compiler from turning a loop into a memmove call, which a
 * program may route back into ucopy. */
void *ucopy_copy_forward_overlap(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	for (; n >= 8; n -= 8, d += 8, s += 8) {
		uint64_t w;
		__builtin_memcpy(&w, s, 8);
		__builtin_memcpy(d, &w, 8);
		__asm__ volatile("" ::: "memory");
	}
	for (; n; n--) {
		*d++ = *s++;
		__asm__ volatile("" ::: "memory");
	}
	return dst;
}

void *ucopy_copy_backward(void *dst, const void *src, size_t n)
{
	unsigned char *d = (unsigned char *)dst + n;
	const unsigned char *s = (const unsigned char *)src + n;
	for (; n >= 8; n -= 8) {
		uint64_t w;
		d -= 8;
		s -= 8;
		__builtin_memcpy(&w, s, 8);
		__builtin_memcpy(d, &w, 8);
		__asm__ volatile("" ::: "memory");
	}
	for (; n; n--) {
		*--d = *--s;
		__asm__ volatile("" ::: "memory");
	}
	return dst;
}
