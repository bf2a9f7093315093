/*
 * check_case.h - one case of `ucopy check` run on a routine and judged, in
 * the process that runs the routine (check_child.h forks it).
 *
 * Each side (source, destination) has a reservation of its own: PROT_NONE
 * but for the pages the case's bytes lie in, so a read or write of the page
 * before or after them faults.  The source's pages hold a pattern that
 * depends on each byte's position (a byte copied to the wrong place is
 * seen); the destination's pages hold canaries, each the complement of the
 * source byte at the same offset (a stray byte of the source never matches
 * one).  A case passes when the routine returned what its contract says
 * (dst for memcpy and memmove; for try the bytes not copied: 0, or with a
 * fault at byte k, n - k, or with at_least n - k to n), dst[0..n - left)
 * holds the source's bytes, nothing outside dst[0..n) was written and the
 * source is unchanged.  What a try routine leaves in dst[n - left..n) is
 * not judged: copy_from_user's callers zero it.
 */
#ifndef UCOPY_CHECK_CASE_H
#define UCOPY_CHECK_CASE_H

#include <stddef.h>

#include "check_matrix.h"
#include "routine.h"

struct check_arena;

/* The buffers for cases whose sides use up to max_span bytes of their
 * pages (struct check_matrix), on pages of `page` bytes; made before the
 * children are forked, which share its pattern.
 * @return : the arena, or NULL with why in err. */
struct check_arena *check_arena_new(size_t max_span, size_t page, char *err, size_t errlen);
void check_arena_free(struct check_arena *a);

/* Runs case c on r and judges it; at_least: --count at-least (the
 * fault's count may be larger than exact, the copy shorter).
 * @return : 0 when it passed; 1 when it failed, with why in msg ("wrote 1
 *           byte past the end (dst[17])", "returned 9, expected 8");
 *           -1 when the case could not be set up, with why in msg. */
int check_case_run(struct check_arena *a, const struct routine *r, const struct check_case *c,
		   int at_least, char *msg, size_t len);

#endif
