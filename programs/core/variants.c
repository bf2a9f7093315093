/*
 * variants.c - what a cell times: kernels, entry points, policies, routines
 * from shared objects and any other call, each set up as a struct variant
 * (measure.h).
 */
#include "measure.h"

#include <stdio.h>
#include <string.h>

#include "routine.h"

static void variant_clear(struct variant *v, const char *name,
			  enum variant_kind kind)
{
	memset(v, 0, sizeof *v);
	snprintf(v->name, sizeof v->name, "%s", name);
	v->kind = kind;
}

void variant_kernel(struct variant *v, const struct ucopy_kernel *k)
{
	/* The libc kernel is memcpy inside a C wrapper (lib/kernel.c): timing
	 * memcpy itself spares it the wrapper's call and frame, which neither
	 * the assembly kernels nor a program calling memcpy pay. */
	int libc = !strcmp(k->name, "libc");
	variant_clear(v, k->name, libc ? VARIANT_MEMCPY : VARIANT_KERNEL);
	v->kernel = k->fn;
	if (libc)
		v->memcpy_fn = memcpy;
}

void variant_memcpy(struct variant *v, const char *name,
		    void *(*fn)(void *, const void *, size_t))
{
	variant_clear(v, name, VARIANT_MEMCPY);
	v->memcpy_fn = fn;
}

void variant_try(struct variant *v, const char *name,
		 size_t (*fn)(void *, const void *, size_t))
{
	variant_clear(v, name, VARIANT_TRY);
	v->try_fn = fn;
}

void variant_routine(struct variant *v, const char *name, const struct routine *r)
{
	if (r->contract == ROUTINE_TRY)
		variant_try(v, name, r->try_fn);
	else
		variant_memcpy(v, name, r->copy);
	v->routine = r;
}

void variant_policy(struct variant *v, const char *name,
		    const struct ucopy_policy *p, int fault_tolerant)
{
	variant_clear(v, name, fault_tolerant ? VARIANT_POLICY_TRY : VARIANT_POLICY);
	v->policy = p;
}

void variant_call(struct variant *v, const char *name,
		  void (*call)(void *, void *, const void *, size_t), void *ctx)
{
	variant_clear(v, name, VARIANT_CALL);
	v->call = call;
	v->ctx = ctx;
}
