/*
 * generic/entry.c - the exported entry points where ucopy has no port, in C:
 * the rule compares of the generic words (dispatch.c) and one indirect call.
 * No exception table: ucopy_fault_init() fails with ENOSYS and ucopy_try()
 * copies without signals (sigsafe.c), exactly, at a system call's cost.
 */
#include "arch.h"

const int ucopy_arch_faults = 0;
/* ucopy_fault_register() fails with ENOSYS before reading a table. */
const unsigned ucopy_arch_ex_types = 0;

struct ucopy_ret ucopy_memcpy_generic(void *restrict, const void *restrict, size_t) HIDDEN;

struct ucopy_ret ucopy_memcpy_generic(void *restrict dst, const void *restrict src, size_t n)
{
	ucopy_kernel_fn fn = n < __atomic_load_n(&ucopy_first_limit, __ATOMIC_ACQUIRE)
		? __atomic_load_n(&ucopy_first_fn, __ATOMIC_ACQUIRE)
		: n < __atomic_load_n(&ucopy_second_limit, __ATOMIC_ACQUIRE)
		? __atomic_load_n(&ucopy_second_fn, __ATOMIC_ACQUIRE)
		: __atomic_load_n(&ucopy_memcpy_impl, __ATOMIC_ACQUIRE);
	return fn(dst, src, n);
}

void *ucopy_memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	return ucopy_memcpy_generic(dst, src, n).dst;
}

size_t ucopy_try_local(void *dst, const void *src, size_t n)
{
	return ucopy_copy_nosignal(dst, src, n);
}

size_t ucopy_try(void *dst, const void *src, size_t n)
{
	return ucopy_copy_nosignal(dst, src, n);
}

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

uintptr_t *ucopy_arch_context_pc(void *ctx)
{
	(void)ctx;
	return NULL;   /* never called: no handler is installed */
}

void ucopy_arch_context_trapnr(void *ctx)
{
	(void)ctx;   /* never called: no handler is installed */
}
