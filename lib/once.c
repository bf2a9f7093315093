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
 * never read; past the static slots a caller maps pages of its own, so no
 * caller ever waits on another.  Async-signal-safe as long as fill is.
 */
#include "internal.h"

#include <sched.h>
#include <sys/mman.h>

void *ucopy_once(struct ucopy_once *o, void (*fill)(void *slot), int *won)
{
	void *p = __atomic_load_n(&o->published, __ATOMIC_ACQUIRE);
	if (won)
		*won = 0;
	if (likely(p))
		return p;
	unsigned i = __atomic_fetch_add(&o->taken, 1, __ATOMIC_RELAXED);
	void *slot = (char *)o->slots + i * o->size, *expected = NULL;
	if (i >= o->nslots) {
		/* More first uses at once than slots (handlers nested on one
		 * thread, a fork() while others resolved): pages of its own,
		 * kept if they are published. */
		slot = mmap(NULL, o->size, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (slot == MAP_FAILED) {
			/* Nothing left but to wait for another to publish. */
			while (!(p = __atomic_load_n(&o->published, __ATOMIC_ACQUIRE)))
				sched_yield();
			return p;
		}
	}
	fill(slot);
	if (__atomic_compare_exchange_n(&o->published, &expected, slot, 0,
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		if (won)
			*won = 1;
		return slot;
	}
	if (i >= o->nslots)
		munmap(slot, o->size);
	return expected;
}
