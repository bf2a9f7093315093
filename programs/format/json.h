/*
 * json.h - a small streaming JSON writer for the command's --json output.
 *
 * The writer tracks nesting and commas so callers only say what comes next.
 * Non-finite doubles and absent values are written as null.
 */
#ifndef UCOPY_JSON_H
#define UCOPY_JSON_H

#include <stdint.h>
#include <stdio.h>

struct json {
	FILE *f;
	int depth;
	int pretty;
	unsigned char first[32];  /* per depth: nothing written at this level yet */
	int after_key;
};

void json_init(struct json *j, FILE *f, int pretty);
void json_begin_object(struct json *j);
void json_end_object(struct json *j);
void json_begin_array(struct json *j);
void json_end_array(struct json *j);
/* A key inside an object; the next value call is its value. */
void json_key(struct json *j, const char *key);
void json_string(struct json *j, const char *s);   /* NULL -> null */
void json_int(struct json *j, long long v);
void json_uint(struct json *j, unsigned long long v);
void json_double(struct json *j, double v);        /* NaN/inf -> null */
void json_bool(struct json *j, int v);
void json_null(struct json *j);
/* Ends the document with a newline. */
void json_finish(struct json *j);

#endif
