/*
 * once.c - first-use initialisation without a lock.
 *
 * pthread_once() waits for the thread that got there first.  A signal
 * handler that interrupts that very thread and needs the result then waits
 * for ever, and so does a thread whose initialisation reaches, through an
 * interposed function, the same initialisation again.  The library's
 * first-use results (the CPU, the active policy) are deterministic and
 * small, so instead every caller that finds none published fills a slot of
 * its own and the first to finish publishes its slot; the others' slots are
 * never read.  Async-signal-safe as long as fill is.
 */
#include "internal.h"

#include <sched.h>

void *ucopy_once(struct ucopy_once *o, void (*fill)(void *slot), int *won)
{
	void *p = __atomic_load_n(&o->published, __ATOMIC_ACQUIRE);
	if (won)
		*won = 0;
	if (likely(p))
		return p;
	unsigned i = __atomic_fetch_add(&o->taken, 1, __ATOMIC_RELAXED);
	if (i >= o->nslots) {
		/* More first uses at once than slots: one of them, on another
		 * thread or below this frame, publishes. */
		while (!(p = __atomic_load_n(&o->published, __ATOMIC_ACQUIRE)))
			sched_yield();
		return p;
	}
	void *slot = (char *)o->slots + i * o->size, *expected = NULL;
	fill(slot);
	if (__atomic_compare_exchange_n(&o->published, &expected, slot, 0,
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		if (won)
			*won = 1;
		return slot;
	}
	return expected;
}
