/*
 * output.h - results as aligned text tables and as CSV, for every command
 * that prints rows of numbers.
 */
#ifndef UCOPY_OUTPUT_H
#define UCOPY_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

/* A table is filled row by row with strings (copied) and printed once, so
 * every column can be as wide as its widest cell. */
struct table {
	size_t ncols;
	char **head;
	char *align;        /* per column: 'l' or 'r' */
	char **cell;        /* nrows * ncols, row-major */
	size_t nrows, cap;
	int oom;            /* a row could not be stored */
};

/* align: one 'l' or 'r' per column ("lrrr"); NULL: first left, rest right.
 * @return : 0, or -1 when out of memory. */
int table_init(struct table *t, size_t ncols, const char *const *head,
	       const char *align);
/* Adds a row of ncols cells (NULL prints as "-"); an empty row (all NULL
 * with blank set) separates groups.
 * @return : 0, or -1 when out of memory. */
int table_add(struct table *t, const char *const *cells);
int table_add_blank(struct table *t);
void table_print(const struct table *t, FILE *f);
void table_free(struct table *t);

/* One CSV record (RFC 4180 quoting where needed); NULL cells are empty. */
void csv_row(FILE *f, size_t n, const char *const *cells);

/* The well-formed UTF-8 sequence at p (RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF).
 * @return : its length, with its code point in *cp; 0 when there is none
 *           (*cp unchanged). */
size_t utf8_decode(const unsigned char *p, unsigned *cp);
/* Whether code point cp is a control character: C0, DEL or C1 (U+0080 to
 * U+009F), any of which a terminal may act on. */
int char_is_control(unsigned cp);
/* Writes s, which came from outside (the environment, a file, the CPU), so
 * that nothing in it acts on a terminal: control characters and bytes that
 * are not well-formed UTF-8 as \n, \r, \t or \xHH (each byte), and a
 * backslash as \\, so that the escapes can be told from the text. */
void fput_escaped(const char *s, FILE *f);
/* fput_escaped() for a libucopy message, whose quotes of outside text are
 * escaped already (ucopy_show_token()): what is left that could act on a
 * terminal (C1 controls, malformed bytes) escaped, backslashes left as they
 * are, not doubled. */
void fput_escaped_message(const char *s, FILE *f);

/* A number for a table: 3 significant digits, no exponent below 1e9 ("0.812",
 * "85.3", "2210"); "-" for NaN. */
void fmt_num(char *buf, size_t len, double v);
/* A number for CSV: full precision ("%.6g"), "" for NaN. */
void fmt_raw(char *buf, size_t len, double v);

/* A size for prose and pages: "48 KiB", "2 MiB", "1 GiB", "4352 B".  The
 * display form of ucopy_size_format()'s text ("48K", "4352"), which tables,
 * profiles and options use: the same exact unit (4352 is "4352 B", not
 * "4.25 KiB"), spelled for readers. */
void fmt_size_iec(char *buf, size_t len, size_t n);

/* w as one word a shell reads back as it is: bare when it holds only the
 * characters of paths, options and case text, else in single quotes (a
 * quote inside as '\\'').  For the command lines the commands print to be
 * run again (kbuild --dry-run, check's rerun lines). */
void shell_word(FILE *f, const char *w);

#endif
