/*
 * json_read.h - a small JSON reader for the files ucopy wrote itself (the
 * report's --json, read back by `ucopy derive`): the whole text parsed into
 * a tree, with lookups that tolerate absent keys and wrong types.
 *
 * Strict RFC 8259 syntax; \u escapes are decoded to UTF-8 (surrogate pairs
 * included); a number a double cannot hold (1e999) and nesting deeper than
 * JR_MAX_DEPTH are refused.
 */
#ifndef UCOPY_JSON_READ_H
#define UCOPY_JSON_READ_H

#include <stddef.h>

#define JR_MAX_DEPTH 64

enum jr_type { JR_NULL, JR_BOOL, JR_NUMBER, JR_STRING, JR_ARRAY, JR_OBJECT };

struct jr_value {
	enum jr_type type;
	double number;            /* JR_NUMBER; JR_BOOL: 0 or 1 */
	char *string;             /* JR_STRING */
	size_t n;                 /* JR_ARRAY, JR_OBJECT: members */
	struct jr_value *item;    /* the members */
	char **key;               /* JR_OBJECT: their keys */
};

/* Parses text[0..len).  @return : the tree (jr_free() it), or NULL with
 * err holding "line L, column C: what was expected". */
struct jr_value *jr_parse(const char *text, size_t len, char *err, size_t errlen);
void jr_free(struct jr_value *v);

/* Member `key` of object v; NULL when v is not an object or has none. */
const struct jr_value *jr_get(const struct jr_value *v, const char *key);
/* Element i of array v; NULL when v is not an array or is shorter. */
const struct jr_value *jr_at(const struct jr_value *v, size_t i);
/* v's number, or `otherwise` when v is NULL or not a number. */
double jr_number(const struct jr_value *v, double otherwise);
/* v as a whole number in [0, max] into *out.
 * @return : 0, or -1 when v is absent, not a number, negative, fractional
 *           or above max. */
int jr_uint(const struct jr_value *v, double max, double *out);
/* v's string, or NULL. */
const char *jr_string(const struct jr_value *v);
/* Members of an array or object; 0 for anything else. */
size_t jr_len(const struct jr_value *v);

#endif
