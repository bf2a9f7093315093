/*
 * svg.c - line charts and heatmaps as inline SVG (svg.h).
 *
 * Copy timings span eight orders of magnitude in size and time, so both axes
 * of a line chart are logarithmic: a kernel with a fixed startup cost and a
 * constant bandwidth is then a flat line that bends into a slope of one, and
 * a crossover is where two lines cross, at any size.
 */
#include "svg.h"
#include "html.h"

#include <math.h>
#include <string.h>

/* Tableau 10 with two additions: distinct in hue and lightness, and readable
 * on both the light and the dark page (the darkest and lightest entries of
 * other palettes vanish on one of them). */
static const char *const palette[] = {
	"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948",
	"#b07aa1", "#ff9da7", "#9c755f", "#a0cbe8", "#8cd17d", "#d37295",
};
#define NPALETTE (sizeof palette / sizeof palette[0])

const char *svg_color(unsigned i)
{
	return palette[i % NPALETTE];
}

void svg_format_bytes(double n, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB" };
	int u = 0;
	while (n >= 1024 && u < 3) {
		n /= 1024;
		u++;
	}
	if (n == floor(n))
		snprintf(buf, len, "%.0f %s", n, unit[u]);
	else if (u == 0 || n >= 100)
		snprintf(buf, len, "%.0f %s", n, unit[u]);
	else
		snprintf(buf, len, "%.3g %s", n, unit[u]);
}

/* An exact "4352 B" reads better than "4.25 KiB" for sizes that are not a
 * whole number of KiB: the reader wants the size that was copied. */
static void tick_bytes(double n, char *buf, size_t len)
{
	if (n < 1024 || fmod(n, 1024) != 0)
		snprintf(buf, len, "%.0f B", n);
	else
		svg_format_bytes(n, buf, len);
}

static void tick_ns(double ns, char *buf, size_t len)
{
	static const char *const unit[] = { "ns", "\xc2\xb5s", "ms", "s" };
	int u = 0;
	while (ns >= 1000 && u < 3) {
		ns /= 1000;
		u++;
	}
	snprintf(buf, len, "%g %s", ns, unit[u]);
}

static void tick_label(enum svg_unit unit, double v, char *buf, size_t len)
{
	switch (unit) {
	case SVG_BYTES: tick_bytes(v, buf, len); break;
	case SVG_NS: tick_ns(v, buf, len); break;
	case SVG_PLAIN: snprintf(buf, len, "%g", v); break;
	}
}

/* Geometry of the line chart, in viewBox units.  960 wide puts 13-unit text
 * at about 16 px on a 1200 px page; the legend takes a column on the right
 * so no line is hidden under it. */
#define LC_W 960.0
#define LC_H 500.0
#define LC_LEFT 78.0
#define LC_RIGHT 180.0   /* legend column */
#define LC_TOP 16.0
#define LC_BOTTOM 58.0

struct axis {
	double lo, hi;       /* log10 of the ends */
	double px0, px1;     /* pixel ends */
};

static double axis_px(const struct axis *a, double v)
{
	return a->px0 + (log10(v) - a->lo) / (a->hi - a->lo) * (a->px1 - a->px0);
}

static int usable(double v)
{
	return isfinite(v) && v > 0;
}

static void data_range(const struct svg_line_chart *c, int y, double *lo,
		       double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t s = 0; s < c->nseries; s++) {
		const struct svg_series *sr = &c->series[s];
		for (size_t i = 0; i < sr->n; i++) {
			double v = y ? sr->y[i] : sr->x[i];
			if (!usable(v) || !usable(y ? sr->x[i] : sr->y[i]))
				continue;
			if (v < *lo)
				*lo = v;
			if (v > *hi)
				*hi = v;
		}
	}
	if (!(*lo <= *hi)) {
		*lo = 1;
		*hi = 10;
	}
}

static void text(FILE *f, double x, double y, const char *anchor,
		 const char *cls, double size, const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.0f\"", x, y, size);
	if (anchor)
		fprintf(f, " text-anchor=\"%s\"", anchor);
	if (cls)
		fprintf(f, " class=\"%s\"", cls);
	fputc('>', f);
	html_escape(f, s);
	fputs("</text>\n", f);
}

/* Byte axis: powers of two.  Labels every `step` octaves, chosen so at most
 * eight labels fit; the other octaves get a grid line only. */
static void x_axis_bytes(FILE *f, const struct axis *ax, double ytop,
			 double ybot)
{
	double l2lo = ax->lo / log10(2.0), l2hi = ax->hi / log10(2.0);
	int e0 = (int)ceil(l2lo - 1e-9), e1 = (int)floor(l2hi + 1e-9);
	static const int steps[] = { 1, 2, 3, 4, 5, 10 };
	int step = 10;
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
		if ((e1 - e0) / steps[i] + 1 <= 8) {
			step = steps[i];
			break;
		}
	for (int e = e0; e <= e1; e++) {
		double v = ldexp(1.0, e), x = axis_px(ax, v);
		int major = ((e % step) + step) % step == 0;
		fprintf(f, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" "
			   "y2=\"%.1f\"%s/>\n", x, x, ytop, ybot,
			major ? "" : " stroke-dasharray=\"2 4\"");
		if (!major)
			continue;
		char b[32];
		tick_bytes(v, b, sizeof b);
		fprintf(f, "<line class=\"axis\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" "
			   "y2=\"%.1f\"/>\n", x, x, ybot, ybot + 5);
		text(f, x, ybot + 20, "middle", "tick", 13, b);
	}
}

/* Decade axis: a grid line and label per power of ten, and 2 and 5 between
 * them when the range is short enough to leave room. */
static void y_axis_decades(FILE *f, const struct axis *ay, double xl,
			   double xr, enum svg_unit unit)
{
	int d0 = (int)floor(ay->lo + 1e-9), d1 = (int)ceil(ay->hi - 1e-9);
	int every = d1 - d0 > 8 ? 2 : 1;
	int fine = d1 - d0 <= 3;
	for (int d = d0; d <= d1; d++) {
		static const double mult[] = { 1, 2, 5 };
		for (int m = 0; m < (fine ? 3 : 1); m++) {
			double v = mult[m] * pow(10.0, d);
			double lv = log10(v);
			if (lv < ay->lo - 1e-9 || lv > ay->hi + 1e-9)
				continue;
			double y = axis_px(ay, v);
			int labelled = m == 0 ? (d - d0) % every == 0 : 1;
			fprintf(f, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" "
				   "y2=\"%.1f\"%s/>\n", xl, xr, y, y,
				m ? " stroke-dasharray=\"2 4\"" : "");
			if (!labelled)
				continue;
			char b[32];
			tick_label(unit, v, b, sizeof b);
			fprintf(f, "<line class=\"axis\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" "
				   "y2=\"%.1f\"/>\n", xl - 5, xl, y, y);
			text(f, xl - 8, y + 4.5, "end", "tick", 13, b);
		}
	}
}

void svg_line_chart(FILE *f, const struct svg_line_chart *c)
{
	double xlo, xhi, ylo, yhi;
	data_range(c, 0, &xlo, &xhi);
	data_range(c, 1, &ylo, &yhi);
	struct axis ax = { log10(xlo), log10(xhi), LC_LEFT, LC_W - LC_RIGHT };
	/* y: whole decades around the data, so every label is a round number
	 * and the lines never touch the frame. */
	struct axis ay = { floor(log10(ylo) - 0.02), ceil(log10(yhi) + 0.02),
			   LC_H - LC_BOTTOM, LC_TOP };
	if (ax.hi - ax.lo < 1e-9) {
		ax.lo -= 0.5;
		ax.hi += 0.5;
	}
	if (ay.hi - ay.lo < 1e-9)
		ay.hi += 1;
	/* A little air at both ends of x so the first and last points are not
	 * on the frame. */
	double pad = (ax.hi - ax.lo) * 0.015;
	ax.lo -= pad;
	ax.hi += pad;

	fprintf(f, "<svg class=\"chart line\" id=\"");
	html_escape(f, c->id);
	fprintf(f, "\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-labelledby=\"%s-t\" "
		   "data-series-count=\"%zu\">\n<title id=\"%s-t\">", LC_W, LC_H,
		c->id, c->nseries, c->id);
	html_escape(f, c->title);
	fputs("</title>\n<g class=\"axes\">\n", f);

	double xl = LC_LEFT, xr = LC_W - LC_RIGHT, yt = LC_TOP, yb = LC_H - LC_BOTTOM;
	x_axis_bytes(f, &ax, yt, yb);
	y_axis_decades(f, &ay, xl, xr, c->yunit);
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		   "fill=\"none\" class=\"axis\"/>\n", xl, yt, xr - xl, yb - yt);
	text(f, (xl + xr) / 2, LC_H - 12, "middle", "label", 14, c->xlabel);
	fprintf(f, "<text transform=\"translate(18 %.1f) rotate(-90)\" "
		   "text-anchor=\"middle\" font-size=\"14\" class=\"label\">",
		(yt + yb) / 2);
	html_escape(f, c->ylabel);
	fputs("</text>\n</g>\n", f);

	/* The highlighted series last, so it is on top of the others. */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t s = 0; s < c->nseries; s++) {
			const struct svg_series *sr = &c->series[s];
			if (!!sr->highlight != pass)
				continue;
			size_t np = 0;
			for (size_t i = 0; i < sr->n; i++)
				np += usable(sr->x[i]) && usable(sr->y[i]);
			fputs("<path class=\"series", f);
			if (sr->highlight)
				fputs(" hl", f);
			fputs("\" data-series=\"", f);
			html_escape(f, sr->name);
			fprintf(f, "\" data-points=\"%zu\"", np);
			if (!sr->highlight)
				fprintf(f, " stroke=\"%s\"", svg_color(sr->color));
			if (sr->dashed)
				fputs(" stroke-dasharray=\"7 4\"", f);
			fputs(" d=\"", f);
			int first = 1;
			for (size_t i = 0; i < sr->n; i++) {
				if (!usable(sr->x[i]) || !usable(sr->y[i]))
					continue;
				fprintf(f, "%s%.1f %.1f", first ? "M" : " L",
					axis_px(&ax, sr->x[i]), axis_px(&ay, sr->y[i]));
				first = 0;
			}
			fputs("\"><title>", f);
			html_escape(f, sr->name);
			fputs("</title></path>\n", f);
		}
	}

	/* Legend: one entry per series, in the given order. */
	double lx = LC_W - LC_RIGHT + 18, ly = LC_TOP + 8;
	double row = fmin(22.0, (LC_H - LC_BOTTOM - LC_TOP) / (double)(c->nseries ? c->nseries : 1));
	fputs("<g class=\"legend\">\n", f);
	for (size_t s = 0; s < c->nseries; s++) {
		const struct svg_series *sr = &c->series[s];
		double y = ly + row * (double)s + row / 2;
		fprintf(f, "<line class=\"swatch%s\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" "
			   "y2=\"%.1f\"", sr->highlight ? " hl" : "", lx, lx + 26, y, y);
		if (!sr->highlight)
			fprintf(f, " stroke=\"%s\" stroke-width=\"2.5\"", svg_color(sr->color));
		if (sr->dashed)
			fputs(" stroke-dasharray=\"7 4\"", f);
		fputs("/>\n", f);
		char b[160];
		snprintf(b, sizeof b, "%s%s%s", sr->name,
			 sr->note && sr->note[0] ? " " : "", sr->note ? sr->note : "");
		text(f, lx + 34, y + 4.5, NULL, sr->highlight ? "label strong" : "label",
		     13, b);
	}
	fputs("</g>\n</svg>\n", f);
}

/*=====   Heatmap   =====*/

#define HM_CELL_W 30.0
#define HM_CELL_H 19.0
#define HM_LEFT 112.0
#define HM_TOP 60.0
#define HM_GROUP_GAP 30.0
#define HM_COLGAP 6.0
#define HM_PANELGAP 24.0

/* Slowdown to colour: neutral up to 1.1 (noise on a shared machine reaches
 * that), then yellow through orange to dark red at 8x and beyond, evenly on
 * a log scale so 2x and 4x are as far apart as 4x and 8x. */
static void heat_fill(double v, char *fill, size_t len, const char **text_cls)
{
	if (!(v > 1.1)) {
		snprintf(fill, len, "c0");
		*text_cls = "on0";
		return;
	}
	double t = log(v / 1.1) / log(8.0 / 1.1);
	if (t > 1)
		t = 1;
	double hue = 52 - 52 * t, light = 78 - 44 * t;
	snprintf(fill, len, "hsl(%.0f,88%%,%.0f%%)", hue, light);
	*text_cls = light < 56 ? "dark" : "light";
}

static void fmt_x(double v, char *buf, size_t len)
{
	if (v >= 10)
		snprintf(buf, len, "%.0f\xc3\x97", v);
	else
		snprintf(buf, len, "%.1f\xc3\x97", v);
}

static int starts_group(const char *const *g, size_t i)
{
	return g && (i == 0 || strcmp(g[i], g[i - 1]) != 0);
}

/* Over 100 lines: one pass, top to bottom, sharing the layout worked out at its start. */
void svg_heatmap(FILE *f, const struct svg_heatmap *h)
{
	/* Positions: a gap before each new column group and a heading band
	 * before each new row group. */
	double colx[4096], rowy[4096];
	if (h->ncols > 4096 || h->nrows > 4096)
		return;
	double x = HM_LEFT;
	for (size_t c = 0; c < h->ncols; c++) {
		if (c && starts_group(h->col_panel, c))
			x += HM_PANELGAP;
		else if (c && starts_group(h->col_group, c))
			x += HM_COLGAP;
		colx[c] = x;
		x += HM_CELL_W;
	}
	double width = x + 16;
	double y = HM_TOP;
	for (size_t r = 0; r < h->nrows; r++) {
		if (starts_group(h->row_group, r))
			y += r ? HM_GROUP_GAP : 8;
		rowy[r] = y;
		y += HM_CELL_H;
	}
	double grid_bottom = y;
	double key_top = grid_bottom + (h->col_caption ? 48 : 22);
	double height = key_top + 46;
	if (width < 520)
		width = 520;

	fputs("<svg class=\"chart heatmap\" id=\"", f);
	html_escape(f, h->id);
	/* Drawn at its own size: scaled up, a small matrix's labels would
	 * shout; scaled down on a phone, they would be unreadable (the box
	 * around it scrolls instead). */
	fprintf(f, "\" viewBox=\"0 0 %.0f %.0f\" style=\"width:%.0fpx;min-width:%.0fpx\" "
		   "role=\"img\" aria-labelledby=\"%s-t\" "
		   "data-rows=\"%zu\" data-cols=\"%zu\">\n<title id=\"%s-t\">",
		width, height, width, width, h->id, h->nrows, h->ncols, h->id);
	html_escape(f, h->title);
	fputs("</title>\n", f);

	/* Column group headings (above) and column labels (above each cell
	 * column, repeated at the bottom when the grid is tall). */
	for (size_t c = 0; c < h->ncols; c++) {
		if (starts_group(h->col_panel, c)) {
			size_t e = c + 1;
			while (e < h->ncols && !starts_group(h->col_panel, e))
				e++;
			double mid = (colx[c] + colx[e - 1] + HM_CELL_W) / 2;
			text(f, mid, 16, "middle", "label strong", 14, h->col_panel[c]);
		}
		if (h->col_group &&
		    (starts_group(h->col_group, c) || starts_group(h->col_panel, c))) {
			size_t e = c + 1;
			while (e < h->ncols && !starts_group(h->col_group, e) &&
			       !starts_group(h->col_panel, e))
				e++;
			double mid = (colx[c] + colx[e - 1] + HM_CELL_W) / 2;
			text(f, mid, 36, "middle", "label mute", 12, h->col_group[c]);
		}
		text(f, colx[c] + HM_CELL_W / 2, HM_TOP - 6, "middle", "tick mute", 10,
		     h->col_label[c]);
	}
	for (size_t r = 0; r < h->nrows; r++) {
		if (starts_group(h->row_group, r))
			text(f, 4, rowy[r] - 8, NULL, "label strong", 13, h->row_group[r]);
		text(f, HM_LEFT - 6, rowy[r] + HM_CELL_H / 2 + 3.5, "end", "tick", 10,
		     h->row_label[r]);
	}

	char attrs[256], title[256], fill[40], lab[16];
	for (size_t r = 0; r < h->nrows; r++) {
		for (size_t c = 0; c < h->ncols; c++) {
			double v = h->value[r * h->ncols + c];
			if (!isfinite(v))
				continue;
			const char *tc;
			heat_fill(v, fill, sizeof fill, &tc);
			attrs[0] = title[0] = '\0';
			if (h->cell_attrs)
				h->cell_attrs(h->ctx, r, c, attrs, sizeof attrs);
			if (h->cell_title)
				h->cell_title(h->ctx, r, c, title, sizeof title);
			fprintf(f, "<rect class=\"cell%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.0f\" "
				   "height=\"%.0f\" data-row=\"%zu\" data-col=\"%zu\" "
				   "data-value=\"%.3f\"%s",
				fill[0] == 'c' ? " c0" : "", colx[c], rowy[r], HM_CELL_W,
				HM_CELL_H, r, c, v, attrs);
			if (fill[0] != 'c')
				fprintf(f, " fill=\"%s\"", fill);
			fputs("><title>", f);
			html_escape(f, title);
			fputs("</title></rect>\n", f);
			if (h->labelled && h->labelled[r * h->ncols + c]) {
				fmt_x(v, lab, sizeof lab);
				fprintf(f, "<text class=\"value %s\" x=\"%.1f\" y=\"%.1f\" "
					   "font-size=\"10\" font-weight=\"600\" "
					   "text-anchor=\"middle\" pointer-events=\"none\">%s</text>\n",
					tc, colx[c] + HM_CELL_W / 2, rowy[r] + HM_CELL_H / 2 + 3.5,
					lab);
			}
		}
	}
	if (h->col_caption)
		text(f, (HM_LEFT + width - 16) / 2, grid_bottom + 20, "middle", "label",
		     13, h->col_caption);

	/* Colour key. */
	static const double keys[] = { 1.0, 1.3, 1.5, 2, 3, 5, 8 };
	double kx = HM_LEFT;
	text(f, 4, key_top + 14, NULL, "label", 12, "slowdown");
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		const char *tc;
		heat_fill(keys[i], fill, sizeof fill, &tc);
		fprintf(f, "<rect class=\"key%s\" x=\"%.1f\" y=\"%.1f\" width=\"44\" "
			   "height=\"18\"", fill[0] == 'c' ? " c0" : "", kx, key_top);
		if (fill[0] != 'c')
			fprintf(f, " fill=\"%s\"", fill);
		fputs("/>\n", f);
		if (i == 0)
			snprintf(lab, sizeof lab, "\xe2\x89\xa4" "1.1\xc3\x97");
		else if (i + 1 == sizeof keys / sizeof keys[0])
			snprintf(lab, sizeof lab, "\xe2\x89\xa5" "8\xc3\x97");
		else
			fmt_x(keys[i], lab, sizeof lab);
		text(f, kx + 22, key_top + 13, "middle", tc, 11, lab);
		kx += 46;
	}
	fputs("</svg>\n", f);
}
