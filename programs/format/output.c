/*
 * output.c - text tables and CSV (output.h).
 */
#include "output.h"
#include "ucopy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static char *dup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);
	if (p)
		memcpy(p, s, n);
	return p;
}

int table_init(struct table *t, size_t ncols, const char *const *head,
	       const char *align)
{
	memset(t, 0, sizeof *t);
	t->ncols = ncols;
	t->head = calloc(ncols, sizeof *t->head);
	t->align = malloc(ncols + 1);
	if (!t->head || !t->align) {
		table_free(t);
		return -1;
	}
	for (size_t i = 0; i < ncols; i++) {
		t->align[i] = align && align[i] ? align[i] : i ? 'r' : 'l';
		if (!(t->head[i] = dup(head[i] ? head[i] : ""))) {
			table_free(t);
			return -1;
		}
	}
	return 0;
}

static int grow(struct table *t)
{
	if (t->nrows < t->cap)
		return 0;
	size_t cap = t->cap ? 2 * t->cap : 32;
	char **c = realloc(t->cell, cap * t->ncols * sizeof *c);
	if (!c) {
		t->oom = 1;
		return -1;
	}
	t->cell = c;
	t->cap = cap;
	return 0;
}

int table_add(struct table *t, const char *const *cells)
{
	if (grow(t) < 0)
		return -1;
	char **row = t->cell + t->nrows * t->ncols;
	for (size_t i = 0; i < t->ncols; i++) {
		row[i] = dup(cells[i] ? cells[i] : "-");
		if (!row[i]) {
			while (i--)
				free(row[i]);
			t->oom = 1;
			return -1;
		}
	}
	t->nrows++;
	return 0;
}

int table_add_blank(struct table *t)
{
	if (grow(t) < 0)
		return -1;
	char **row = t->cell + t->nrows * t->ncols;
	for (size_t i = 0; i < t->ncols; i++)
		row[i] = NULL;
	t->nrows++;
	return 0;
}

static void print_row(FILE *f, const struct table *t, char *const *row,
		      const size_t *w)
{
	for (size_t i = 0; i < t->ncols; i++) {
		const char *s = row[i] ? row[i] : "";
		int pad = (int)w[i];
		if (i + 1 == t->ncols && t->align[i] == 'l')
			fprintf(f, "%s", s);
		else
			fprintf(f, t->align[i] == 'l' ? "%-*s" : "%*s", pad, s);
		if (i + 1 < t->ncols)
			fputs("  ", f);
	}
	fputc('\n', f);
}

void table_print(const struct table *t, FILE *f)
{
	size_t *w = calloc(t->ncols ? t->ncols : 1, sizeof *w);
	if (!w)
		return;
	for (size_t i = 0; i < t->ncols; i++)
		w[i] = strlen(t->head[i]);
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t i = 0; i < t->ncols; i++) {
			const char *s = t->cell[r * t->ncols + i];
			if (s && strlen(s) > w[i])
				w[i] = strlen(s);
		}
	print_row(f, t, t->head, w);
	for (size_t r = 0; r < t->nrows; r++) {
		char *const *row = t->cell + r * t->ncols;
		if (!row[0] && t->ncols && !row[t->ncols - 1])
			fputc('\n', f);
		else
			print_row(f, t, row, w);
	}
	free(w);
}

void table_free(struct table *t)
{
	if (t->head)
		for (size_t i = 0; i < t->ncols; i++)
			free(t->head[i]);
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t i = 0; i < t->ncols; i++)
			free(t->cell[r * t->ncols + i]);
	free(t->head);
	free(t->align);
	free(t->cell);
	memset(t, 0, sizeof *t);
}

void csv_row(FILE *f, size_t n, const char *const *cells)
{
	for (size_t i = 0; i < n; i++) {
		const char *s = cells[i] ? cells[i] : "";
		if (i)
			fputc(',', f);
		if (strpbrk(s, ",\"\r\n")) {
			fputc('"', f);
			for (; *s; s++) {
				if (*s == '"')
					fputc('"', f);
				fputc(*s, f);
			}
			fputc('"', f);
		} else {
			fputs(s, f);
		}
	}
	fputc('\n', f);
}

size_t utf8_decode(const unsigned char *p, unsigned *cp)
{
	unsigned c = p[0];
	size_t n;
	unsigned min;
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		min = 0x10000;
	} else {
		return 0;
	}
	unsigned v = c & (0x7fu >> n);
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)   /* also stops at the NUL */
			return 0;
		v = v << 6 | (p[i] & 0x3fu);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return n;
}

int char_is_control(unsigned cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
}

static void put_escaped(const char *s, FILE *f, int backslash)
{
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		unsigned cp;
		size_t n = utf8_decode(p, &cp);
		if (n && !char_is_control(cp)) {
			if (*p == '\\' && backslash)
				fputc('\\', f);
			fwrite(p, 1, n, f);
			p += n;
			continue;
		}
		for (size_t i = 0; i < (n ? n : 1); i++, p++)
			switch (*p) {
			case '\n': fputs("\\n", f); break;
			case '\r': fputs("\\r", f); break;
			case '\t': fputs("\\t", f); break;
			default: fprintf(f, "\\x%02x", *p);
			}
	}
}

void fput_escaped(const char *s, FILE *f)
{
	put_escaped(s, f, 1);
}

void fput_escaped_message(const char *s, FILE *f)
{
	put_escaped(s, f, 0);
}

void fmt_num(char *buf, size_t len, double v)
{
	double a = fabs(v);
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (a >= 1e9 || (a > 0 && a < 0.001))
		snprintf(buf, len, "%.2e", v);
	else if (a >= 100)
		snprintf(buf, len, "%.0f", v);
	else if (a >= 10)
		snprintf(buf, len, "%.1f", v);
	else if (a >= 1)
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "%.3f", v);
}

void fmt_raw(char *buf, size_t len, double v)
{
	if (isnan(v) || isinf(v))
		snprintf(buf, len, "%s", "");
	else
		snprintf(buf, len, "%.6g", v);
}

void fmt_size_iec(char *buf, size_t len, size_t n)
{
	char t[32];
	size_t k = ucopy_size_format(n, t, sizeof t);
	char unit = k && (t[k - 1] < '0' || t[k - 1] > '9') ? t[k - 1] : 0;
	if (unit)
		snprintf(buf, len, "%.*s %ciB", (int)(k - 1), t, unit);
	else
		snprintf(buf, len, "%s B", t);
}

void shell_word(FILE *f, const char *w)
{
	if (w[0] && w[strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			     "_-+=/.,:@%")] == 0) {
		fputs(w, f);
		return;
	}
	putc('\'', f);
	for (; *w; w++)
		if (*w == '\'')
			fputs("'\\''", f);
		else
			putc(*w, f);
	putc('\'', f);
}
