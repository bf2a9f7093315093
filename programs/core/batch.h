/*
 * batch.h - what the measuring core's files share below measure.h: the
 * buffers (buffers.c), the walks over their slots, and the timed batches
 * (sites.c) that measure.c runs in rounds.
 */
#ifndef UCOPY_BATCH_H
#define UCOPY_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "measure.h"

struct mapping {
	char *p;
	size_t len;
};

/* A side's slots, visited once a pass: in order (stride apart) or in
 * scattered order (step slots on each time). */
struct walk {
	char *base;
	size_t stride, n, step, cur;
};

static inline char *walk_next(struct walk *w)
{
	char *p = w->base + w->cur * w->stride;
	w->cur += w->step;
	if (w->cur >= w->n)
		w->cur -= w->n;
	return p;
}

/* Maps (and writes) at least `need` bytes for a side, keeping a mapping that
 * is large enough.
 * @return : 0, or -1 with the reason in err. */
int map_side(struct mapping *m, size_t need, char *err, size_t errlen);
/* A walk over side s's slots in mapping m. */
void walk_setup(struct walk *w, const struct mapping *m, const struct side *s,
		size_t stride, int sequential);
/* Flushes what the next k copies from op index j will touch. */
void flush_batch(const struct cell *c, struct walk ws, struct walk wd, size_t j,
		 size_t k);

/* Each slot's loop is placed this many ways (sites.c); a cell of one size
 * goes over them round by round. */
#define BATCH_PLACES 4

/* The slots of a cell's nv variants: those their functions keep first,
 * then new ones. */
void batch_slots(const struct variant *v, size_t nv, size_t *slot);
/* k copies through slot `slot`'s loop at placement `place`.
 * @return : the ticks they took. */
uint64_t run_batch(size_t slot, size_t place, const struct variant *v,
		   const struct copy_seq *seq, struct walk *ws, struct walk *wd,
		   size_t j, size_t k);
/* run_batch() with the stack SHIFT bytes lower. */
uint64_t run_batch_shifted(size_t shift, size_t slot, size_t place,
			   const struct variant *v, const struct copy_seq *seq,
			   struct walk *ws, struct walk *wd, size_t j, size_t k);

#endif
