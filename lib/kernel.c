/*
 * kernel.c - the table of copy kernels: the port's (lib/<port>/kernels.c)
 * and `libc`, the system memcpy, the reference every other kernel is
 * compared with.
 */
#include "arch.h"

#include <string.h>

/* The C library's memcpy behind the kernel interface.  Its accesses have no
 * exception table entries, so it is not fault-capable: no try body. */
static struct ucopy_ret k_libc(void *restrict dst, const void *restrict src,
			       size_t n)
{
	memcpy(dst, src, n);
	return (struct ucopy_ret){ dst, 0 };
}

static const struct ucopy_kernel libc_kernel = {
	"libc", "the system C library's memcpy", 0, 0, k_libc, NULL
};

size_t ucopy_kernel_count(void)
{
	return ucopy_arch_nkernels + 1;
}

const struct ucopy_kernel *ucopy_kernel_at(size_t i)
{
	if (i < ucopy_arch_nkernels)
		return &ucopy_arch_kernels[i];
	return i == ucopy_arch_nkernels ? &libc_kernel : NULL;
}

const struct ucopy_kernel *ucopy_kernel_find(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < ucopy_kernel_count(); i++)
		if (strcmp(ucopy_kernel_at(i)->name, name) == 0)
			return ucopy_kernel_at(i);
	return NULL;
}

int ucopy_kernel_supported(const struct ucopy_kernel *k, uint64_t features)
{
	return k && (k->requires & ~features) == 0;
}

int ucopy_kernel_runs(const char *name, uint64_t features)
{
	return ucopy_kernel_supported(ucopy_kernel_find(name), features);
}

/* The substitute once chosen: ucopy_policy_try() asks
 * on every copy by a kernel without a try body (libc), and the
 * search by name and feature check made a short copy several times
 * slower than the same body named directly (docs/performance.md, "libc
 * under ucopy_try: its substitute, looked up once").  Threads that race
 * store the same pointer. */
static const struct ucopy_kernel *substitute;

/* The first kernel of the port's order the CPU supports, else its last. */
static const struct ucopy_kernel *fault_capable_choice(void)
{
	const struct ucopy_kernel *k = NULL;
	for (const char *const *name = ucopy_arch_fault_capable_order; *name; name++) {
		k = ucopy_kernel_find(*name);
		if (ucopy_kernel_supported(k, ucopy_cpu()->features))
			break;
	}
	return k;
}

const struct ucopy_kernel *ucopy_kernel_fault_capable(const struct ucopy_kernel *k)
{
	if (!k || k->try_fn)
		return k;
	const struct ucopy_kernel *r = __atomic_load_n(&substitute, __ATOMIC_ACQUIRE);
	if (!r) {
		r = fault_capable_choice();
		if (!r)
			return k;
		__atomic_store_n(&substitute, r, __ATOMIC_RELEASE);
	}
	return r;
}
