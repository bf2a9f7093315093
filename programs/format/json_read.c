/*
 * json_read.c - the JSON reader (json_read.h): recursive descent over the
 * text, building arrays and objects in growing vectors.
 */
#include "json_read.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct reader {
	const char *p, *start, *end;
	char *err;
	size_t errlen;
	int failed;
};

static void fail(struct reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void fail(struct reader *r, const char *fmt, ...)
{
	if (r->failed)
		return;
	r->failed = 1;
	if (!r->err || !r->errlen)
		return;
	unsigned line = 1, col = 1;
	for (const char *q = r->start; q < r->p && q < r->end; q++) {
		if (*q == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	int n = snprintf(r->err, r->errlen, "line %u, column %u: ", line, col);
	if (n < 0 || (size_t)n >= r->errlen)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
	va_end(ap);
}

static void skip_space(struct reader *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
		r->p++;
}

static int literal(struct reader *r, const char *word)
{
	size_t n = strlen(word);
	if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n))
		return 0;
	r->p += n;
	return 1;
}

static void put_utf8(char *out, size_t *o, uint32_t c)
{
	if (c < 0x80) {
		out[(*o)++] = (char)c;
	} else if (c < 0x800) {
		out[(*o)++] = (char)(0xc0 | c >> 6);
		out[(*o)++] = (char)(0x80 | (c & 0x3f));
	} else if (c < 0x10000) {
		out[(*o)++] = (char)(0xe0 | c >> 12);
		out[(*o)++] = (char)(0x80 | (c >> 6 & 0x3f));
		out[(*o)++] = (char)(0x80 | (c & 0x3f));
	} else {
		out[(*o)++] = (char)(0xf0 | c >> 18);
		out[(*o)++] = (char)(0x80 | (c >> 12 & 0x3f));
		out[(*o)++] = (char)(0x80 | (c >> 6 & 0x3f));
		out[(*o)++] = (char)(0x80 | (c & 0x3f));
	}
}

static int hex4(struct reader *r, uint32_t *c)
{
	*c = 0;
	for (int i = 0; i < 4; i++, r->p++) {
		if (r->p >= r->end)
			return 0;
		char h = *r->p;
		unsigned d = h >= '0' && h <= '9' ? (unsigned)(h - '0')
			   : h >= 'a' && h <= 'f' ? (unsigned)(h - 'a' + 10)
			   : h >= 'A' && h <= 'F' ? (unsigned)(h - 'A' + 10) : 16;
		if (d == 16)
			return 0;
		*c = *c << 4 | d;
	}
	return 1;
}

/* At the opening quote.  @return : the decoded string (malloc'd), or NULL. */
static char *string(struct reader *r)
{
	const char *q = ++r->p;
	while (q < r->end && *q != '"')
		q += *q == '\\' ? 2 : 1;
	if (q >= r->end) {
		fail(r, "a string without its closing quote");
		return NULL;
	}
	/* Escapes never grow: \uXXXX (6 bytes) is at most 4 of UTF-8. */
	char *out = malloc((size_t)(q - r->p) + 1);
	size_t o = 0;
	if (!out) {
		fail(r, "out of memory");
		return NULL;
	}
	while (*r->p != '"') {
		unsigned char ch = (unsigned char)*r->p;
		if (ch < 0x20) {
			fail(r, "a control character in a string");
			free(out);
			return NULL;
		}
		if (ch != '\\') {
			out[o++] = (char)ch;
			r->p++;
			continue;
		}
		r->p++;
		char e = *r->p++;
		const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
		const char *hit = e ? strchr(from, e) : NULL;
		if (hit) {
			out[o++] = to[hit - from];
			continue;
		}
		uint32_t c, lo;
		if (e != 'u' || !hex4(r, &c)) {
			r->p--;
			fail(r, "a bad escape in a string");
			free(out);
			return NULL;
		}
		if (c >= 0xd800 && c < 0xdc00) {
			if (!literal(r, "\\u") || !hex4(r, &lo) || lo < 0xdc00 || lo > 0xdfff) {
				fail(r, "a lone surrogate in a string");
				free(out);
				return NULL;
			}
			c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
		} else if (c >= 0xdc00 && c < 0xe000) {
			fail(r, "a lone surrogate in a string");
			free(out);
			return NULL;
		}
		put_utf8(out, &o, c);
	}
	r->p++;
	out[o] = 0;
	return out;
}

static int number(struct reader *r, double *v)
{
	const char *q = r->p;
	if (q < r->end && *q == '-')
		q++;
	if (q >= r->end || *q < '0' || *q > '9')
		return 0;
	if (*q == '0')
		q++;
	else
		while (q < r->end && *q >= '0' && *q <= '9')
			q++;
	if (q < r->end && *q == '.') {
		if (++q >= r->end || *q < '0' || *q > '9')
			return 0;
		while (q < r->end && *q >= '0' && *q <= '9')
			q++;
	}
	if (q < r->end && (*q == 'e' || *q == 'E')) {
		q++;
		if (q < r->end && (*q == '+' || *q == '-'))
			q++;
		if (q >= r->end || *q < '0' || *q > '9')
			return 0;
		while (q < r->end && *q >= '0' && *q <= '9')
			q++;
	}
	char buf[64];
	size_t n = (size_t)(q - r->p);
	if (n >= sizeof buf)
		return 0;
	memcpy(buf, r->p, n);
	buf[n] = 0;
	errno = 0;
	*v = strtod(buf, NULL);
	if (!isfinite(*v))
		return 0;   /* 1e999: not a number a double holds */
	r->p = q;
	return 1;
}

static void value(struct reader *r, struct jr_value *v, int depth);

static void members(struct reader *r, struct jr_value *v, int depth, int object)
{
	char close = object ? '}' : ']';
	size_t cap = 0;
	r->p++;
	skip_space(r);
	if (r->p < r->end && *r->p == close) {
		r->p++;
		return;
	}
	for (;;) {
		if (v->n == cap) {
			cap = cap ? 2 * cap : 8;
			struct jr_value *it = realloc(v->item, cap * sizeof *it);
			char **k = object ? realloc(v->key, cap * sizeof *k) : NULL;
			if (it)
				v->item = it;
			if (k)
				v->key = k;
			if (!it || (object && !k)) {
				fail(r, "out of memory");
				return;
			}
		}
		skip_space(r);
		if (object) {
			if (r->p >= r->end || *r->p != '"') {
				fail(r, "a key (a string) was expected");
				return;
			}
			char *k = string(r);
			if (!k)
				return;
			v->key[v->n] = k;
			skip_space(r);
			if (r->p >= r->end || *r->p != ':') {
				free(k);
				fail(r, "':' was expected after a key");
				return;
			}
			r->p++;
		}
		memset(&v->item[v->n], 0, sizeof v->item[0]);
		v->n++;
		value(r, &v->item[v->n - 1], depth + 1);
		if (r->failed)
			return;
		skip_space(r);
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			continue;
		}
		if (r->p < r->end && *r->p == close) {
			r->p++;
			return;
		}
		fail(r, "',' or '%c' was expected", close);
		return;
	}
}

static void value(struct reader *r, struct jr_value *v, int depth)
{
	skip_space(r);
	if (depth > JR_MAX_DEPTH) {
		fail(r, "nested deeper than %d", JR_MAX_DEPTH);
		return;
	}
	if (r->p >= r->end) {
		fail(r, "a value was expected, the text ended");
		return;
	}
	switch (*r->p) {
	case '{':
		v->type = JR_OBJECT;
		members(r, v, depth, 1);
		return;
	case '[':
		v->type = JR_ARRAY;
		members(r, v, depth, 0);
		return;
	case '"':
		v->type = JR_STRING;
		v->string = string(r);
		return;
	}
	if (literal(r, "null")) {
		v->type = JR_NULL;
	} else if (literal(r, "true")) {
		v->type = JR_BOOL;
		v->number = 1;
	} else if (literal(r, "false")) {
		v->type = JR_BOOL;
	} else if (number(r, &v->number)) {
		v->type = JR_NUMBER;
	} else {
		fail(r, "a value was expected");
	}
}

static void release(struct jr_value *v)
{
	for (size_t i = 0; i < v->n; i++) {
		release(&v->item[i]);
		if (v->type == JR_OBJECT)
			free(v->key[i]);
	}
	free(v->item);
	free(v->key);
	free(v->string);
}

struct jr_value *jr_parse(const char *text, size_t len, char *err, size_t errlen)
{
	struct reader r = { text, text, text + len, err, errlen, 0 };
	struct jr_value *v = calloc(1, sizeof *v);
	if (err && errlen)
		err[0] = 0;
	if (!v) {
		fail(&r, "out of memory");
		return NULL;
	}
	value(&r, v, 0);
	skip_space(&r);
	if (!r.failed && r.p != r.end)
		fail(&r, "text after the value");
	if (r.failed) {
		jr_free(v);
		return NULL;
	}
	return v;
}

void jr_free(struct jr_value *v)
{
	if (!v)
		return;
	release(v);
	free(v);
}

const struct jr_value *jr_get(const struct jr_value *v, const char *key)
{
	if (!v || v->type != JR_OBJECT)
		return NULL;
	for (size_t i = 0; i < v->n; i++)
		if (!strcmp(v->key[i], key))
			return &v->item[i];
	return NULL;
}

const struct jr_value *jr_at(const struct jr_value *v, size_t i)
{
	return v && v->type == JR_ARRAY && i < v->n ? &v->item[i] : NULL;
}

double jr_number(const struct jr_value *v, double otherwise)
{
	return v && v->type == JR_NUMBER ? v->number : otherwise;
}

int jr_uint(const struct jr_value *v, double max, double *out)
{
	if (!v || v->type != JR_NUMBER || !(v->number >= 0) || v->number > max ||
	    v->number != floor(v->number))
		return -1;
	*out = v->number;
	return 0;
}

const char *jr_string(const struct jr_value *v)
{
	return v && v->type == JR_STRING ? v->string : NULL;
}

size_t jr_len(const struct jr_value *v)
{
	return v && (v->type == JR_ARRAY || v->type == JR_OBJECT) ? v->n : 0;
}
