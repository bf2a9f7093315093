/*
 * sizespec.h - sizes and lists of sizes as users write them on the command
 * line.
 *
 *   SIZE  := DIGITS [ "K" | "M" | "G" ]          ucopy_size_parse() (include/ucopy.h)
 *   SPEC  := ITEM { "," ITEM }
 *   ITEM  := SIZE                                 one size
 *          | SIZE "-" SIZE [ ":" STEP ]           a range, ends included when
 *                                                 the progression reaches them
 *   STEP  := "x" FACTOR   multiply (FACTOR > 1, may have a fraction: x1.5)
 *          | "+" SIZE     add; the default is +1
 *
 * e.g. "64", "1-256", "64,4K,1M", "1K-1M:x2", "1-64:+8".  The list keeps the
 * order written and drops repeats.
 */
#ifndef UCOPY_SIZESPEC_H
#define UCOPY_SIZESPEC_H

#include <stddef.h>

struct sizes {
	size_t *v;
	size_t n;
};

/* Parses SPEC into out (free it with sizes_free()); at most max_count sizes
 * (0: 1,000,000) and none above max_size (0: no limit).  noun names what
 * the numbers are in the messages about those limits ("offset 5000 is too
 * large (at most 4095)", "too many offsets"); NULL says "size".
 * @return : 0, or -1 with a message naming the bad token in err (out is then
 *           empty). */
int sizespec_parse(const char *spec, const char *noun, size_t max_count,
		   size_t max_size, struct sizes *out, char *err, size_t errlen);
void sizes_free(struct sizes *s);

#endif
