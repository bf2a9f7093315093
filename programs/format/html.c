/*
 * html.c - the page skeleton, escaping and tables (html.h).
 */
#include "html.h"

#include <stdarg.h>
#include <stdlib.h>

void html_escape(FILE *f, const char *s)
{
	if (!s)
		return;
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc(*s, f);
		}
	}
}

void html_para(FILE *f, const char *cls, const char *s)
{
	fprintf(f, "<p%s%s%s>", cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
	html_escape(f, s);
	fputs("</p>\n", f);
}

void html_list_begin(FILE *f, const char *cls, const char *id)
{
	fputs("<ul class=\"", f);
	html_escape(f, cls);
	fputs("\" id=\"", f);
	html_escape(f, id);
	fputs("\">\n", f);
}

void html_item(FILE *f, const char *s)
{
	fputs("<li>", f);
	html_escape(f, s);
	fputs("</li>\n", f);
}

void html_code_item(FILE *f, const char *cls, const char *code, const char *what)
{
	fputs(cls ? "<li class=\"" : "<li>", f);
	if (cls) {
		html_escape(f, cls);
		fputs("\">", f);
	}
	fputs("<code>", f);
	html_escape(f, code);
	fputs("</code>: ", f);
	html_escape(f, what);
	fputs("</li>\n", f);
}

void html_printf(FILE *f, const char *fmt, ...)
{
	char small[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof small) {
		html_escape(f, small);
		return;
	}
	char *big = malloc((size_t)n + 1);
	if (!big)
		return;
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	html_escape(f, big);
	free(big);
}

/* The colours are GitHub's Primer light and dark neutrals: both pass WCAG AA
 * contrast for body text, and the chart palette (svg.c) was picked to read
 * on either background.  Wide content (charts, tables) scrolls inside its own
 * box on a phone instead of widening the page. */
static const char style[] =
	":root{color-scheme:light dark;--bg:#fff;--fg:#1f2328;--mute:#59636e;"
	"--line:#d1d9e0;--grid:#e6eaef;--card:#f6f8fa;--good:#1a7f37;"
	"--bad:#d1242f;--cell0:#dcebdd}\n"
	"@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;"
	"--mute:#9198a1;--line:#3d444d;--grid:#21262d;--card:#151b23;"
	"--good:#3fb950;--bad:#f85149;--cell0:#1e3a27}}\n"
	"*{box-sizing:border-box}\n"
	"body{margin:0;background:var(--bg);color:var(--fg);"
	"font:15px/1.5 system-ui,-apple-system,'Segoe UI',sans-serif}\n"
	"main{max-width:1200px;margin:0 auto;padding:20px 24px 48px}\n"
	"h1{font-size:1.7em;margin:.2em 0 .1em}\n"
	"h2{font-size:1.25em;margin:2em 0 .4em;padding-bottom:.2em;"
	"border-bottom:1px solid var(--line)}\n"
	"h3{font-size:1.05em;margin:1.4em 0 .3em}\n"
	"p,li{max-width:80ch}\n"
	"code{font:.92em ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;"
	"background:var(--card);padding:0 .25em;border-radius:4px}\n"
	".sub{color:var(--mute);margin-top:0}\n"
	".note{color:var(--mute);font-size:.92em}\n"
	"dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;"
	"background:var(--card);border:1px solid var(--line);border-radius:8px;"
	"padding:12px 16px;margin:1em 0}\n"
	"dl.meta dt{color:var(--mute)}\n"
	"dl.meta dd{margin:0;overflow-wrap:anywhere}\n"
	".findings{background:var(--card);border-left:4px solid var(--good);"
	"border-radius:4px;padding:8px 16px 8px 28px;margin:1em 0}\n"
	".findings li{margin:.3em 0}\n"
	".scroll{overflow-x:auto;-webkit-overflow-scrolling:touch;"
	"margin:.5em 0 1em}\n"
	"svg.chart{display:block;width:100%;height:auto;min-width:720px}\n"
	"svg.chart text{fill:var(--fg);font-family:system-ui,sans-serif}\n"
	"svg.chart .mute{fill:var(--mute)}\n"
	"svg.chart .axis{stroke:var(--fg);stroke-width:1}\n"
	"svg.chart .grid{stroke:var(--grid);stroke-width:1}\n"
	"svg.chart .series{fill:none;stroke-width:1.7;stroke-linejoin:round;"
	"stroke-linecap:round}\n"
	"svg.chart .series.hl{stroke:var(--fg);stroke-width:3.6}\n"
	"svg.chart .swatch.hl{stroke:var(--fg);stroke-width:3.6}\n"
	"svg.chart .c0{fill:var(--cell0)}\n"
	"svg.chart rect.cell{stroke:var(--bg);stroke-width:1}\n"
	"svg.chart .dark{fill:#fff}svg.chart .light{fill:#111}"
	"svg.chart .on0{fill:var(--fg)}svg.chart .strong{font-weight:600}\n"
	"table.data{border-collapse:collapse;font-variant-numeric:tabular-nums;"
	"font-size:.94em}\n"
	"table.data caption{text-align:left;color:var(--mute);padding:4px 0;"
	"caption-side:top}\n"
	"table.data th,table.data td{padding:3px 12px;"
	"border-bottom:1px solid var(--line);white-space:nowrap}\n"
	"table.data th{text-align:left;background:var(--card)}\n"
	"table.data .r{text-align:right}\n"
	".good{color:var(--good)}.bad{color:var(--bad)}\n"
	"td.best{font-weight:600}\n"
	"table.fleet th,table.fleet td{white-space:normal;min-width:9.5em;max-width:16em;"
	"vertical-align:top;overflow-wrap:break-word}\n"
	"table.fleet tbody th{position:sticky;left:0;background:var(--card);font-weight:500}\n"
	"table.fleet .more{display:block;color:var(--mute);font-size:.86em}\n"
	"ul.legend{list-style:none;display:flex;flex-wrap:wrap;gap:4px 16px;padding:0}\n"
	".swatch{display:inline-block;width:.9em;height:.9em;border-radius:2px;"
	"vertical-align:-.1em;margin-right:.35em}\n"
	"@media (max-width:640px){body{font-size:14px}main{padding:12px 12px 32px}"
	"h1{font-size:1.35em}dl.meta{grid-template-columns:1fr}"
	"dl.meta dt{margin-top:.4em}}\n";

void html_begin(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\n"
	      "<meta name=\"color-scheme\" content=\"light dark\">\n<title>", f);
	html_escape(f, title);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n", style);
}

void html_end(FILE *f)
{
	fputs("</main>\n</body>\n</html>\n", f);
}

static char align_of(const struct html_table *t, size_t i)
{
	if (t->align && t->align[i])
		return t->align[i];
	return i ? 'r' : 'l';
}

void html_table_begin(struct html_table *t, FILE *f, const char *id,
		      const char *caption, size_t ncols,
		      const char *const *head, const char *align)
{
	t->f = f;
	t->ncols = ncols;
	t->align = align;
	fputs("<div class=\"scroll\"><table class=\"data\" id=\"", f);
	html_escape(f, id);
	fputs("\">\n", f);
	if (caption && caption[0]) {
		fputs("<caption>", f);
		html_escape(f, caption);
		fputs("</caption>\n", f);
	}
	fputs("<thead><tr>", f);
	for (size_t i = 0; i < ncols; i++) {
		fputs(align_of(t, i) == 'r' ? "<th class=\"r\">" : "<th>", f);
		html_escape(f, head[i]);
		fputs("</th>", f);
	}
	fputs("</tr></thead>\n<tbody>\n", f);
}

void html_table_row(struct html_table *t, const char *key,
		    const char *const *cells, const char *const *cell_cls)
{
	FILE *f = t->f;
	fputs("<tr data-row=\"", f);
	html_escape(f, key);
	fputs("\">", f);
	for (size_t i = 0; i < t->ncols; i++) {
		const char *c = cell_cls ? cell_cls[i] : NULL;
		int r = align_of(t, i) == 'r';
		if (r || (c && c[0])) {
			fprintf(f, "<td class=\"%s%s", r ? "r" : "",
				r && c && c[0] ? " " : "");
			html_escape(f, c && c[0] ? c : "");
			fputs("\">", f);
		} else {
			fputs("<td>", f);
		}
		html_escape(f, cells[i] ? cells[i] : "-");
		fputs("</td>", f);
	}
	fputs("</tr>\n", f);
}

void html_table_end(struct html_table *t)
{
	fputs("</tbody></table></div>\n", t->f);
}
