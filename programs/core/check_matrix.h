/*
 * check_matrix.h - the cases `ucopy check` runs on a copy routine, in the
 * order it runs them, and a case as text (its FAIL line and --case).
 *
 * A case is one call of the routine, its buffers placed in their pages:
 *   copy     src and dst apart, each at its offset in its page (bench's
 *            --src-align and --dst-align: 0..page-1), guard pages
 *            (PROT_NONE) around the pages the copy touches
 *   overlap  one buffer, dst = src + delta (the memmove contract)
 *   fault    (the try contract) a fault at byte k of the copy: the page
 *            at src + k or dst + k is PROT_NONE (segv) or past the end of
 *            a file mapping cut short (bus); the faulting side is placed so
 *            that its page ends there, (-k) mod page into its page, and
 *            only the other side's offset is the case's
 *
 * As text, KEY=VALUE items separated by ',' (or ' ', as a FAIL line shows
 * them), in any order, each key once; the keys say the kind:
 *   size=N,src_align=A,dst_align=B          copy
 *   size=N,src_align=A,delta=D              overlap (D = dst - src)
 *   size=N,dst_align=B,fault=src-segv@K     a source fault at byte K
 *   size=N,src_align=A,fault=dst-bus@K      a destination fault at byte K
 * The matrices and how they were chosen: docs/check.md.
 */
#ifndef UCOPY_CHECK_MATRIX_H
#define UCOPY_CHECK_MATRIX_H

#include <stddef.h>
#include <stdint.h>

#include "routine.h"

/* The largest size and |delta| --case takes: the buffers hold it twice
 * (the pattern and the canaries) besides the pages it is copied in. */
#define CHECK_MAX_SIZE ((size_t)64 << 20)

enum check_kind { CHECK_COPY, CHECK_OVERLAP, CHECK_FAULT };
enum check_side { CHECK_SRC, CHECK_DST };
enum check_sig { CHECK_SEGV, CHECK_BUS };

struct check_case {
	uint32_t size;
	uint32_t at;          /* fault: the byte that faults, < size */
	int32_t delta;        /* overlap: dst - src */
	uint32_t src_align;   /* offset in its page (not the faulting side's) */
	uint32_t dst_align;
	uint8_t kind, side, sig;
};

struct check_matrix {
	size_t page;          /* the page size the cases are placed on */
	struct check_case *v;
	size_t n, cap;
	size_t max_span;      /* the most of a side's pages any case uses: its
				 offset and span (struct check_place) */
};

/* The cases for contract c on pages of `page` bytes: the copy matrix,
 * then overlap for memmove, the fault matrix for try; quick: the smaller
 * matrix the tests run (docs/check.md).
 * @return : 0, or -1 when out of memory (m is then empty). */
int check_matrix_build(struct check_matrix *m, enum routine_contract c, int quick,
		       size_t page);
/* Appends one case to m, whose page is set (a matrix of one:
 * { .page = page }).  @return : 0, or -1 when out of memory. */
int check_matrix_add(struct check_matrix *m, const struct check_case *c);
/* Frees the cases; the page stays. */
void check_matrix_free(struct check_matrix *m);

/* Where a case's bytes are: on each side, the offset in its first page
 * where its bytes start and how many it spans (an overlap's are all on
 * the destination side, the source within them); src and dst from their
 * side's start.  One home for the placement, which the text leaves
 * implied (a faulting side's offset, an overlap's start). */
struct check_place {
	size_t off[2], span[2];   /* [CHECK_SRC], [CHECK_DST] */
	size_t src, dst;
};
void check_case_place(const struct check_case *c, size_t page, struct check_place *p);

/* Reads a case as text (above) for pages of `page` bytes.
 * @return : 0, or -1 with why in err ("unknown key 'x' (expected size,
 *           src_align, dst_align, delta or fault)", "no size", ...). */
int check_case_parse(const char *s, size_t page, struct check_case *c, char *err,
		     size_t errlen);
/* Whether contract con may run case c (an overlap needs memmove, a fault
 * try). */
int check_case_fits(const struct check_case *c, enum routine_contract con);
/* Writes c as text, its items separated by sep (',' for --case, ' ' for
 * a FAIL line). */
void check_case_format(const struct check_case *c, char sep, char *buf, size_t len);

#endif
