/*
 * svg.h - the report's charts as inline SVG: line charts on log-log axes and
 * a heatmap.
 *
 * The output is meant to sit inside an HTML page (no XML prolog, no xmlns
 * needed) and to need nothing else: no script, no external font or sheet.
 * Colours that must follow the page's light or dark theme are left to CSS
 * classes (axis, grid, label, fg); only data colours are written inline.
 * Every element a test or a reader may want to find carries a stable class
 * and data-* attributes:
 *   <svg class="chart line" id=ID>
 *     <path class="series" data-series=NAME data-points=N d="M.. L..">
 *   <svg class="chart heatmap" id=ID>
 *     <rect class="cell" data-row=R data-col=C data-value=V ...>
 */
#ifndef UCOPY_SVG_H
#define UCOPY_SVG_H

#include <stddef.h>
#include <stdio.h>

/* How an axis labels its ticks. */
enum svg_unit {
	SVG_BYTES,  /* 1 B, 16 B, 4 KiB, 1 MiB (powers of two) */
	SVG_NS,     /* ns, µs, ms at powers of ten */
	SVG_PLAIN   /* 0.1, 1, 10 */
};

struct svg_series {
	const char *name;     /* data-series; also the legend text */
	const char *note;     /* extra legend text ("" or NULL: none) */
	const double *x, *y;  /* n points; a point with y NaN or <= 0 is left out */
	size_t n;
	unsigned color;       /* palette index (the palette repeats) */
	int highlight;        /* drawn thick in the page's foreground colour */
	int dashed;
};

struct svg_line_chart {
	const char *id;
	const char *title;    /* the <title> read by screen readers */
	const char *xlabel, *ylabel;
	enum svg_unit yunit;  /* x is always a size in bytes (SVG_BYTES) */
	const struct svg_series *series;
	size_t nseries;
};

/* Writes the chart (log-log axes over the range of all points) to f. */
void svg_line_chart(FILE *f, const struct svg_line_chart *c);

/* A heatmap: rows in groups (a gap and the group's name above each), columns
 * in groups (the group's name above, each column's own label below it). */
struct svg_heatmap {
	const char *id;
	const char *title;
	size_t nrows, ncols;
	const char *const *row_label;     /* nrows */
	const char *const *row_group;     /* nrows: a new group starts where it
					     changes; NULL: one group */
	const char *const *col_label;     /* ncols */
	const char *const *col_group;     /* ncols, as row_group */
	const char *const *col_panel;     /* ncols: a level above col_group,
					     with a wider gap; NULL: none */
	const char *col_caption;          /* under the column labels */
	const double *value;              /* nrows * ncols, row-major; the
					     colour is by value; NaN: blank */
	const unsigned char *labelled;    /* nrows * ncols: write the value in
					     the cell (NULL: none) */
	/* Per cell: extra attributes (" data-size=\"64\" ...") and the tooltip
	 * text; called with a buffer of len bytes. */
	void (*cell_attrs)(void *ctx, size_t row, size_t col, char *buf,
			   size_t len);
	void (*cell_title)(void *ctx, size_t row, size_t col, char *buf,
			   size_t len);
	void *ctx;
};

/* Writes the heatmap with its colour key to f.  Values are slowdowns (1 =
 * the reference); the colour runs from neutral at <= 1.1 to dark red at 8
 * and beyond, on a log scale. */
void svg_heatmap(FILE *f, const struct svg_heatmap *h);

/* The colour of palette entry i as "#rrggbb" (for legends outside SVG). */
const char *svg_color(unsigned i);

/* A size for an axis or a table: "64 B", "4 KiB", "4352 B", "1.5 KiB". */
void svg_format_bytes(double n, char *buf, size_t len);

#endif
