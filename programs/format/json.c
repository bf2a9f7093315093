/*
 * json.c - the streaming JSON writer (see json.h).
 */
#include "json.h"
#include "output.h"

#include <math.h>
#include <stdlib.h>

void json_init(struct json *j, FILE *f, int pretty)
{
	j->f = f;
	j->depth = 0;
	j->pretty = pretty;
	j->first[0] = 1;
	j->after_key = 0;
}

static void indent(struct json *j)
{
	if (!j->pretty)
		return;
	fputc('\n', j->f);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

/* Separates a value (or key) from the one before it at this level. */
static void before_value(struct json *j)
{
	if (j->after_key) {
		j->after_key = 0;
		return;
	}
	if (j->depth > 0) {
		if (!j->first[j->depth])
			fputc(',', j->f);
		indent(j);
	}
	j->first[j->depth] = 0;
}

static void open(struct json *j, int c)
{
	before_value(j);
	fputc(c, j->f);
	if (j->depth + 1 < (int)sizeof j->first)
		j->depth++;
	j->first[j->depth] = 1;
}

static void close(struct json *j, int c)
{
	int empty = j->first[j->depth];
	if (j->depth > 0)
		j->depth--;
	if (!empty)
		indent(j);
	fputc(c, j->f);
}

void json_begin_object(struct json *j) { open(j, '{'); }
void json_end_object(struct json *j) { close(j, '}'); }
void json_begin_array(struct json *j) { open(j, '['); }
void json_end_array(struct json *j) { close(j, ']'); }

/* Strings come from the user (file names, policy text) as bytes; a byte
 * that is not part of well-formed UTF-8 is written as \u00XX (the Latin-1
 * character of that value), so the document stays valid JSON and the byte
 * can still be told.  Control characters (C0, DEL, C1) are escaped too, so
 * that printing the document never sends one to a terminal. */
static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		unsigned cp;
		size_t n = utf8_decode(p, &cp);
		if (n == 0 || char_is_control(cp)) {
			switch (n ? cp : 0x100) {
			case '\n': fputs("\\n", f); break;
			case '\r': fputs("\\r", f); break;
			case '\t': fputs("\\t", f); break;
			default: fprintf(f, "\\u%04x", n ? cp : *p);
			}
			p += n ? n : 1;
			continue;
		}
		if (*p == '"' || *p == '\\')
			fputc('\\', f);
		fwrite(p, 1, n, f);
		p += n;
	}
	fputc('"', f);
}

void json_key(struct json *j, const char *key)
{
	before_value(j);
	put_string(j->f, key);
	fputs(j->pretty ? ": " : ":", j->f);
	j->after_key = 1;
}

void json_string(struct json *j, const char *s)
{
	if (!s) {
		json_null(j);
		return;
	}
	before_value(j);
	put_string(j->f, s);
}

void json_int(struct json *j, long long v)
{
	before_value(j);
	fprintf(j->f, "%lld", v);
}

void json_uint(struct json *j, unsigned long long v)
{
	before_value(j);
	fprintf(j->f, "%llu", v);
}

void json_double(struct json *j, double v)
{
	if (!isfinite(v)) {
		json_null(j);
		return;
	}
	before_value(j);
	/* The shortest %g that reads back as the same double. */
	char buf[40];
	for (int prec = 6; prec <= 17; prec++) {
		snprintf(buf, sizeof buf, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fputs(buf, j->f);
}

void json_bool(struct json *j, int v)
{
	before_value(j);
	fputs(v ? "true" : "false", j->f);
}

void json_null(struct json *j)
{
	before_value(j);
	fputs("null", j->f);
}

void json_finish(struct json *j)
{
	fputc('\n', j->f);
}
