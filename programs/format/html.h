/*
 * html.h - writing the report's self-contained HTML page: escaping, the page
 * skeleton with its inline stylesheet, and tables.
 *
 * The page needs nothing from the network and no script: one file a user
 * can mail, archive or open offline.  The stylesheet follows the reader's
 * light or dark preference (prefers-color-scheme) and narrows to a phone's
 * width; charts too wide for the screen scroll sideways on their own rather
 * than shrinking their text below reading size.
 */
#ifndef UCOPY_HTML_H
#define UCOPY_HTML_H

#include <stddef.h>
#include <stdio.h>

/* Writes s with &, <, >, " and ' escaped (safe in text and in quoted
 * attribute values).  NULL writes nothing. */
void html_escape(FILE *f, const char *s);
/* A paragraph of s, escaped, with class cls (NULL: none). */
void html_para(FILE *f, const char *cls, const char *s);
/* A list: <ul class=CLS id=ID>, an escaped <li> per html_item(), then
 * "</ul>\n". */
void html_list_begin(FILE *f, const char *cls, const char *id);
void html_item(FILE *f, const char *s);
/* An item naming a thing: <li class=CLS><code>CODE</code>: WHAT</li>, both
 * escaped (cls NULL: none). */
void html_code_item(FILE *f, const char *cls, const char *code, const char *what);
/* printf into the page, escaping the result. */
void html_printf(FILE *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* <!DOCTYPE html> through <body>, with the stylesheet and `title`. */
void html_begin(FILE *f, const char *title);
/* </body></html>. */
void html_end(FILE *f);

/* A table: <table class="data" id=ID> with a caption and a header row.
 * `align` has one 'l' or 'r' per column (NULL: first left, rest right). */
struct html_table {
	FILE *f;
	size_t ncols;
	const char *align;
};
void html_table_begin(struct html_table *t, FILE *f, const char *id,
		      const char *caption, size_t ncols,
		      const char *const *head, const char *align);
/* A row of ncols cells, each escaped; `key` becomes data-row (stable, for
 * tests); cell_cls gives each cell an extra class ("good", "bad"; NULL
 * entries or a NULL array: none). */
void html_table_row(struct html_table *t, const char *key,
		    const char *const *cells, const char *const *cell_cls);
void html_table_end(struct html_table *t);

#endif
