/*
 * fleet_page.c - the HTML page of `ucopy fleet` (fleet.h): one column per
 * machine, the fastest kernels as strips on one size axis, and the
 * sentences fleet_build() wrote; nothing here decides.
 */
#include "fleet_write.h"
#include "html.h"
#include "output.h"
#include "svg.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *str(const struct jr_value *v)
{
	const char *s = jr_string(v);
	return s ? s : "";
}

/*=====   Tables with a column per machine   =====*/

struct cols {
	size_t n;
	size_t m[FLEET_MAX_MACHINES];
};

/* Which columns a section shows: every one; those whose times are compared
 * (no emulator), an assumed feature set's too, for the historic policies;
 * or those and each machine once, for every section that shows its sweeps
 * and distributions, which an assumed set leaves as they were. */
enum cols_which { COLS_ALL, COLS_POLICIES, COLS_TIMES };

static void cols_of(const struct fleet *fl, enum cols_which which, struct cols *c)
{
	c->n = 0;
	for (size_t i = 0; i < fl->nm; i++)
		if (which == COLS_ALL || (fleet_compared(fl, i) &&
					  (which == COLS_POLICIES || fleet_own_features(fl, i))))
			c->m[c->n++] = i;
}

static void grid_begin(FILE *f, const struct fleet *fl, const struct cols *c, const char *id,
		       const char *caption, const char *corner)
{
	fputs("<div class=\"scroll\"><table class=\"data fleet\" id=\"", f);
	html_escape(f, id);
	fputs("\">\n<caption>", f);
	html_escape(f, caption);
	fputs("</caption>\n<thead><tr><th>", f);
	html_escape(f, corner);
	fputs("</th>", f);
	for (size_t i = 0; i < c->n; i++) {
		fprintf(f, "<th scope=\"col\" data-machine=\"%zu\">", c->m[i]);
		html_escape(f, fl->m[c->m[i]].name);
		fputs("</th>", f);
	}
	fputs("</tr></thead>\n<tbody>\n", f);
}

static void row_begin(FILE *f, const char *key, const char *label)
{
	fputs("<tr data-row=\"", f);
	html_escape(f, key);
	fputs("\"><th scope=\"row\">", f);
	html_escape(f, label);
	fputs("</th>", f);
}

/* A cell: its text, and under it in a smaller hand `more` (NULL: none). */
static void cell(FILE *f, const char *cls, const char *text, const char *more)
{
	if (cls && *cls) {
		fputs("<td class=\"", f);
		html_escape(f, cls);
		fputs("\">", f);
	} else {
		fputs("<td>", f);
	}
	html_escape(f, text);
	if (more && *more) {
		fputs("<span class=\"more\">", f);
		html_escape(f, more);
		fputs("</span>", f);
	}
	fputs("</td>", f);
}

static void grid_end(FILE *f)
{
	fputs("</tbody></table></div>\n", f);
}

/*=====   1. The machines   =====*/

enum { M_CPU, M_FEATURES, M_ASSUMED, M_CACHES, M_KERNEL, M_COMPILER, M_DATE, M_UCOPY,
       M_EMULATOR, M_REPORTS, M_ROWS };

static void machine_cell(FILE *f, const struct fleet *fl, size_t i, int row)
{
	const struct fleet_machine *m = &fl->m[i];
	const struct jr_value *root = fleet_root(fl, i), *mc = jr_get(root, "machine");
	const struct corpus_report *r = &fl->file[m->shown].r;
	char buf[1024] = "", more[256] = "";
	size_t pos = 0;
	switch (row) {
	case M_CPU:
		snprintf(buf, sizeof buf, "%s", r->brand[0] ? r->brand : "no brand given");
		snprintf(more, sizeof more, "%s family %u model %u stepping %u (%s)", r->cpu.vendor,
			 r->cpu.family, r->cpu.model, r->cpu.stepping, r->cpu.arch);
		break;
	case M_FEATURES:
		for (size_t k = 0; k < jr_len(jr_get(mc, "features")) && pos < sizeof buf; k++)
			pos += (size_t)snprintf(buf + pos, sizeof buf - pos, "%s%s", k ? " " : "",
						str(jr_at(jr_get(mc, "features"), k)));
		if (!pos)
			snprintf(buf, sizeof buf, "none detected");
		break;
	case M_ASSUMED: {
		const struct jr_value *a = jr_get(jr_get(root, "workloads"), "assumed_features");
		if (!m->assume) {
			snprintf(buf, sizeof buf, "none: its own");
			break;
		}
		snprintf(buf, sizeof buf, "%s", m->assume);
		for (size_t k = 0; k < jr_len(jr_get(a, "features")) && pos < sizeof more; k++)
			pos += (size_t)snprintf(more + pos, sizeof more - pos, "%s%s",
						k ? " " : "gives ", str(jr_at(jr_get(a, "features"), k)));
		if (pos < sizeof more)
			snprintf(more + pos, sizeof more - pos, "%s",
				 pos ? "; for the historic policies alone" : "the empty set");
		break;
	}
	case M_CACHES: {
		static const char *const key[] = { "l1d", "l2", "l3" }, *const name[] = { "L1d", "L2", "L3" };
		for (int k = 0; k < 3 && pos < sizeof buf; k++) {
			double v = jr_number(jr_get(jr_get(mc, "caches"), key[k]), NAN);
			char z[32] = "?";
			if (v > 0)
				fmt_size_iec(z, sizeof z, (size_t)v);
			pos += (size_t)snprintf(buf + pos, sizeof buf - pos, "%s%s %s", k ? ", " : "",
						name[k], z);
		}
		break;
	}
	case M_KERNEL:
		snprintf(buf, sizeof buf, "%s", *str(jr_get(mc, "kernel")) ? str(jr_get(mc, "kernel")) : "-");
		break;
	case M_COMPILER:
		snprintf(buf, sizeof buf, "%s", str(jr_get(mc, "compiler")));
		snprintf(more, sizeof more, "%s", str(jr_get(mc, "cflags")));
		break;
	case M_DATE:
		snprintf(buf, sizeof buf, "%s", str(jr_get(root, "date")));
		break;
	case M_UCOPY:
		snprintf(buf, sizeof buf, "%s", str(jr_get(root, "ucopy_version")));
		snprintf(more, sizeof more, "report schema %u; commit %s", r->schema,
			 jr_get(root, "ucopy_commit") ? str(jr_get(root, "ucopy_commit"))
						      : "not recorded (before schema 5)");
		break;
	case M_EMULATOR:
		if (m->emulator)
			snprintf(more, sizeof more, "left out of every comparison of times");
		snprintf(buf, sizeof buf, "%s", m->emulator ? m->emulator : "none (a CPU)");
		cell(f, m->emulator ? "bad" : NULL, buf, more);
		return;
	}
	if (row != M_REPORTS) {
		cell(f, NULL, buf, more);
		return;
	}
	fputs("<td>", f);
	for (size_t k = 0; k < m->nfiles; k++) {
		const struct fleet_file *x = &fl->file[m->file[k]];
		fputs(k ? "<br>" : "", f);
		html_escape(f, x->r.path);
		html_printf(f, " (%s%s)", str(jr_get(x->r.root, "date")),
			    m->file[k] == m->shown ? ", shown" : "");
		if (x->same_date >= 0) {
			fputs("<span class=\"more\">", f);
			html_printf(f, "same machine and date as %s: both kept",
				    fl->file[x->same_date].r.path);
			fputs("</span>", f);
		}
	}
	fputs("</td>", f);
}

static void section_machines(FILE *f, const struct fleet *fl)
{
	static const char *const label[M_ROWS] = {
		"CPU", "Features", "Policies resolved assuming", "Caches", "Kernel", "Compiler",
		"Date", "ucopy", "Emulator", "Reports",
	};
	static const char *const key[M_ROWS] = {
		"cpu", "features", "assumed", "caches", "kernel", "compiler", "date", "ucopy",
		"emulator", "reports",
	};
	struct cols c;
	cols_of(fl, COLS_ALL, &c);
	fputs("<h2 id=\"machines\">The machines</h2>\n", f);
	html_para(f, NULL, "Each column is one machine: the reports of one CPU (vendor, family, "
		  "model, stepping and brand) under one emulator or none, with its own features "
		  "or one feature set assumed for the historic policies (ucopy report "
		  "--assume-features), which is a column of its own and shown only there. Its "
		  "numbers below are its newest report's; auto's regret uses all of its "
		  "reports.");
	grid_begin(f, fl, &c, "t-machines", "The machines and their reports", "machine");
	for (int row = 0; row < M_ROWS; row++) {
		row_begin(f, key[row], label[row]);
		for (size_t i = 0; i < c.n; i++)
			machine_cell(f, fl, c.m[i], row);
		fputs("</tr>\n", f);
	}
	grid_end(f);
}

/*=====   2. Who wins where   =====*/

#define MAX_KERNELS 64

struct kernels {
	size_t n;
	const char *name[MAX_KERNELS];
};

/* A kernel's place in the library's table; past it, one it does not know
 * (another architecture's). */
static size_t kernel_rank(const char *name)
{
	const struct ucopy_kernel *k = ucopy_kernel_find(name);
	for (size_t i = 0; k && i < ucopy_kernel_count(); i++)
		if (ucopy_kernel_at(i) == k)
			return i;
	return SIZE_MAX;
}

/* The kernels that win somewhere, in the library's order where it knows
 * them, so that a kernel keeps its colour from page to page. */
static void kernels_of(const struct fleet *fl, const struct cols *c, struct kernels *k)
{
	k->n = 0;
	for (size_t i = 0; i < c->n; i++) {
		const struct jr_value *seg = jr_get(fleet_root(fl, c->m[i]), "segments");
		for (size_t j = 0; j < jr_len(seg) && k->n < MAX_KERNELS; j++) {
			const char *name = jr_string(jr_get(jr_at(seg, j), "kernel"));
			size_t at = 0;
			while (name && at < k->n && strcmp(k->name[at], name))
				at++;
			if (name && at == k->n)
				k->name[k->n++] = name;
		}
	}
	for (size_t a = 1; a < k->n; a++) {
		const char *t = k->name[a];
		size_t b = a;
		for (; b && kernel_rank(t) < kernel_rank(k->name[b - 1]); b--)
			k->name[b] = k->name[b - 1];
		k->name[b] = t;
	}
}

static unsigned colour_of(const struct kernels *k, const char *name)
{
	for (size_t i = 0; i < k->n; i++)
		if (!strcmp(k->name[i], name))
			return (unsigned)i;
	return 0;
}

/* The strips' geometry: sizes 1 B to 64 MiB on a log axis. */
#define S_LEFT 230.0
#define S_WIDTH 740.0
#define S_MAX 26.0
#define S_BAR 14.0

static double xof(double size)
{
	double l = log2(size);
	return S_LEFT + S_WIDTH * fmin(fmax(l, 0), S_MAX) / S_MAX;
}

static void strip(FILE *f, const struct jr_value *root, const char *cache, double y,
		  const struct kernels *k)
{
	const struct jr_value *seg = jr_get(root, "segments");
	const struct jr_value *prev = NULL;
	size_t idx[256], n = 0;
	for (size_t j = 0; j < jr_len(seg) && n < 256; j++)
		if (!strcmp(str(jr_get(jr_at(seg, j), "cache")), cache))
			idx[n++] = j;
	fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" class=\"mute\" font-size=\"11\" "
		"text-anchor=\"end\">%s</text>\n", S_LEFT - 6, y + 11, cache);
	if (!n) {
		fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" class=\"mute\" font-size=\"11\">not "
			"measured</text>\n", S_LEFT + 4, y + 11);
		return;
	}
	for (size_t j = 0; j < n; j++) {
		const struct jr_value *g = jr_at(seg, idx[j]);
		const struct jr_value *next = j + 1 < n ? jr_at(seg, idx[j + 1]) : NULL;
		double from = jr_number(jr_get(g, "from"), NAN), to = jr_number(jr_get(g, "to"), NAN);
		/* Between two runs the border is their geometric middle; at
		 * the ends, a quarter octave past the last size measured. */
		double a = prev ? sqrt(jr_number(jr_get(prev, "to"), NAN) * from) : from / 1.19;
		double b = next ? sqrt(to * jr_number(jr_get(next, "from"), NAN)) : to * 1.19;
		double x0 = xof(a), x1 = xof(b);
		const char *kn = str(jr_get(g, "kernel"));
		char za[32], zb[32];
		prev = g;
		if (!(x1 > x0))
			continue;
		fmt_size_iec(za, sizeof za, (size_t)from);
		fmt_size_iec(zb, sizeof zb, (size_t)to);
		fprintf(f, "<rect class=\"seg\" data-cache=\"%s\" data-kernel=\"", cache);
		html_escape(f, kn);
		fprintf(f, "\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.0f\" fill=\"%s\">"
			"<title>", x0, y, x1 - x0, S_BAR, svg_color(colour_of(k, kn)));
		html_printf(f, "%s, %s to %s: %s (lead over the next kernel %.2fx)", cache, za, zb,
			    kn, jr_number(jr_get(g, "margin"), NAN));
		fputs("</title></rect>\n", f);
		if (x1 - x0 >= 7.0 * (double)strlen(kn) + 6) {
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" class=\"light\" "
				"text-anchor=\"middle\">", (x0 + x1) / 2, y + 10.5);
			html_escape(f, kn);
			fputs("</text>\n", f);
		}
	}
}

static void strips(FILE *f, const struct fleet *fl, const struct cols *c, const struct kernels *k)
{
	const double row = 2 * S_BAR + 16, top = 8;
	double h = top + row * (double)c->n + 34;
	fprintf(f, "<div class=\"scroll\"><svg class=\"chart strips\" id=\"chart-winners\" "
		"viewBox=\"0 0 1000 %.0f\" role=\"img\"><title>The fastest kernel by size, hot "
		"and cold, one strip per machine</title>\n", h);
	for (int p = 0; p <= 26; p += 2) {
		char z[32];
		double x = xof(ldexp(1, p));
		svg_format_bytes(ldexp(1, p), z, sizeof z);
		fprintf(f, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.0f\" y2=\"%.0f\"/>\n"
			"<text x=\"%.1f\" y=\"%.0f\" font-size=\"11\" text-anchor=\"middle\" "
			"class=\"mute\">%s</text>\n", x, x, top, h - 26, x, h - 12, z);
	}
	for (size_t i = 0; i < c->n; i++) {
		double y = top + row * (double)i;
		fprintf(f, "<g class=\"machine\" data-machine=\"%zu\"><text x=\"4\" y=\"%.1f\" "
			"font-size=\"12\">", c->m[i], y + S_BAR + 4);
		html_escape(f, fl->m[c->m[i]].name);
		fputs("</text>\n", f);
		strip(f, fleet_root(fl, c->m[i]), "hot", y, k);
		strip(f, fleet_root(fl, c->m[i]), "cold", y + S_BAR + 1, k);
		fputs("</g>\n", f);
	}
	fputs("</svg></div>\n", f);
}

static void section_winners(FILE *f, const struct fleet *fl)
{
	struct cols c;
	struct kernels k;
	cols_of(fl, COLS_TIMES, &c);
	kernels_of(fl, &c, &k);
	fputs("<h2 id=\"winners\">Who wins where</h2>\n", f);
	html_para(f, NULL, "Per machine, the fastest kernel by copy size (log axis, 1 B to 64 "
		  "MiB), on hot buffers (upper strip) and cold ones (lower strip, from 64 KiB): "
		  "each report's runs of sizes with one fastest kernel, where a run keeps its "
		  "kernel while it stays within 5% of the size's fastest. Hover a band for its "
		  "sizes and its lead over the next kernel.");
	fputs("<ul class=\"legend\" id=\"legend-kernels\">", f);
	for (size_t i = 0; i < k.n; i++) {
		fprintf(f, "<li><span class=\"swatch\" style=\"background:%s\"></span>",
			svg_color((unsigned)i));
		html_escape(f, k.name[i]);
		fputs("</li>", f);
	}
	fputs("</ul>\n", f);
	if (!c.n)
		html_para(f, "note", "No machine to show: every column was measured under an "
			  "emulator or is an assumed feature set.");
	else
		strips(f, fl, &c, &k);
	if (k.n > 12)
		html_para(f, "note", "More kernels win somewhere than the palette has colours: "
			  "colours repeat; the band's name is written in it where it fits.");
}

/*=====   3. ucopy against libc   =====*/

/* The names of the rows of table `key` over the machines, each once. */
static size_t row_names(const struct fleet *fl, const struct cols *c, const char *key,
			const char **name, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < c->n; i++) {
		const struct jr_value *rows = jr_get(jr_get(fleet_root(fl, c->m[i]), key), "rows");
		for (size_t j = 0; j < jr_len(rows) && n < max; j++) {
			const char *s = str(jr_get(jr_at(rows, j), "name"));
			size_t at = 0;
			while (at < n && strcmp(name[at], s))
				at++;
			if (at == n)
				name[n++] = s;
		}
	}
	return n;
}

static const struct jr_value *row_named(const struct jr_value *root, const char *key,
					const char *name)
{
	const struct jr_value *rows = jr_get(jr_get(root, key), "rows");
	for (size_t j = 0; j < jr_len(rows); j++)
		if (!strcmp(str(jr_get(jr_at(rows, j), "name")), name))
			return jr_at(rows, j);
	return NULL;
}

static void table_ab(FILE *f, const struct fleet *fl, const struct cols *c, const char *key,
		     const char *id, const char *caption, const char *corner)
{
	const char *name[128];
	size_t n = row_names(fl, c, key, name, 128);
	char cap[512];
	const char *cond = NULL;
	for (size_t i = 0; i < c->n && !cond; i++)
		cond = jr_string(jr_get(jr_get(fleet_root(fl, c->m[i]), key), "condition"));
	snprintf(cap, sizeof cap, "%s%s%s", caption, cond ? ", " : "", cond ? cond : "");
	if (!n) {
		html_para(f, "note", "Not measured by any compared report.");
		return;
	}
	grid_begin(f, fl, c, id, cap, corner);
	for (size_t r = 0; r < n; r++) {
		row_begin(f, name[r], name[r]);
		for (size_t i = 0; i < c->n; i++) {
			const struct jr_value *q = jr_get(row_named(fleet_root(fl, c->m[i]), key, name[r]),
							  "ratio");
			double est = jr_number(jr_get(q, "est"), NAN), lo = jr_number(jr_get(q, "lo"), NAN);
			double hi = jr_number(jr_get(q, "hi"), NAN);
			char t[48], m[64];
			if (!isfinite(est)) {
				cell(f, NULL, "not measured", NULL);
				continue;
			}
			snprintf(t, sizeof t, "%.3f", est);
			snprintf(m, sizeof m, "%.3f\xe2\x80\x93%.3f", lo, hi);
			cell(f, hi < 1 ? "good" : lo > 1 ? "bad" : NULL, t, m);
		}
		fputs("</tr>\n", f);
	}
	grid_end(f);
}

static void table_cliffs(FILE *f, const struct fleet *fl, const struct cols *c)
{
	double size[64];
	size_t n = 0;
	for (size_t i = 0; i < c->n; i++) {
		const struct jr_value *vs = jr_get(jr_get(fleet_root(fl, c->m[i]), "cliff"), "variants");
		const struct jr_value *per = jr_get(jr_at(vs, 0), "per_size");
		for (size_t j = 0; j < jr_len(per) && n < 64; j++) {
			double z = jr_number(jr_get(jr_at(per, j), "size"), NAN);
			size_t at = 0;
			while (at < n && size[at] != z)
				at++;
			if (at == n && z > 0)
				size[n++] = z;
		}
	}
	if (!n) {
		html_para(f, "note", "No compared report measured the cliff matrix.");
		return;
	}
	grid_begin(f, fl, c, "t-cliff", "The worst cell of the cliff matrix per size, over the "
		   "size's median cell (1.5\xc3\x97 and worse: a cliff)", "size, variant");
	for (size_t s = 0; s < n; s++)
		for (int v = 0; v < 2; v++) {
			char z[32], label[64], key[64];
			fmt_size_iec(z, sizeof z, (size_t)size[s]);
			snprintf(label, sizeof label, "%s, %s", z, v ? "libc" : "ucopy");
			snprintf(key, sizeof key, "cliff-%s-%.0f", v ? "libc" : "ucopy", size[s]);
			row_begin(f, key, label);
			for (size_t i = 0; i < c->n; i++) {
				double w = fleet_cliff_worst(fleet_root(fl, c->m[i]), v ? "libc" : "ucopy",
							     size[s]);
				char t[32];
				if (!isfinite(w))
					snprintf(t, sizeof t, "not measured");
				else
					snprintf(t, sizeof t, w >= 10 ? "%.0f\xc3\x97" : "%.2f\xc3\x97", w);
				cell(f, w >= FLEET_CLIFF ? "bad" : NULL, t, NULL);
			}
			fputs("</tr>\n", f);
		}
	grid_end(f);
}

static void section_libc(FILE *f, const struct fleet *fl)
{
	struct cols c;
	cols_of(fl, COLS_TIMES, &c);
	fputs("<h2 id=\"vs-libc\">ucopy against libc</h2>\n", f);
	html_para(f, NULL, "ucopy_memcpy (each machine's active policy) over libc's memcpy, "
		  "interleaved on the same random sequence of copies: below 1 ucopy is faster. "
		  "Under each ratio its 95% interval; green and red only where the interval "
		  "excludes 1. The distributions were timed in two regimes: a sequence no branch "
		  "predictor learns, and a short one repeated, which one learns.");
	table_ab(f, fl, &c, "classes", "t-classes", "Per size class", "sizes");
	table_ab(f, fl, &c, "distributions", "t-dists", "Per production size distribution",
		 "distribution");
	table_ab(f, fl, &c, "distributions_repeated", "t-dists-repeated",
		 "Per production size distribution", "distribution");
	table_cliffs(f, fl, &c);
}

/*=====   4. Historic policies   =====*/

static const struct jr_value *workload(const struct jr_value *root, const char *name)
{
	const struct jr_value *ws = jr_get(jr_get(root, "workloads"), "workloads");
	for (size_t i = 0; i < jr_len(ws); i++)
		if (!strcmp(str(jr_get(jr_at(ws, i), "name")), name))
			return jr_at(ws, i);
	return NULL;
}

static const char *resolved(const struct jr_value *root, const char *policy)
{
	const struct jr_value *ps = jr_get(jr_get(root, "workloads"), "policies");
	for (size_t i = 0; i < jr_len(ps); i++)
		if (!strcmp(str(jr_get(jr_at(ps, i), "name")), policy))
			return str(jr_get(jr_at(ps, i), "policy"));
	return "";
}

static void policy_cell(FILE *f, const struct jr_value *root, const struct jr_value *w,
			const char *policy)
{
	const struct jr_value *res = jr_get(w, "results"), *q = NULL;
	for (size_t j = 0; j < jr_len(res); j++)
		if (!strcmp(str(jr_get(jr_at(res, j), "policy")), policy))
			q = jr_get(jr_at(res, j), "vs_best");
	double est = jr_number(jr_get(q, "est"), NAN), lo = jr_number(jr_get(q, "lo"), NAN);
	char t[96];
	if (!isfinite(est)) {
		cell(f, NULL, w ? "not run" : "not measured", NULL);
		return;
	}
	if (!strcmp(str(jr_get(w, "best")), policy))
		snprintf(t, sizeof t, "1.00 (fastest)");
	else
		snprintf(t, sizeof t, "%.2f [%.2f\xe2\x80\x93%.2f]%s", est, lo,
			 jr_number(jr_get(q, "hi"), NAN), lo > FLEET_BEHIND ? " behind" : "");
	cell(f, !strcmp(str(jr_get(w, "best")), policy) ? "best good"
		: lo > FLEET_BEHIND ? "bad" : NULL, t, resolved(root, policy));
}

static void table_workload(FILE *f, const struct fleet *fl, const struct cols *c,
			   const char *name)
{
	const char *pol[64], *what = NULL;
	size_t np = 0;
	for (size_t i = 0; i < c->n; i++) {
		const struct jr_value *w = workload(fleet_root(fl, c->m[i]), name);
		const struct jr_value *res = jr_get(w, "results");
		if (w && !what)
			what = jr_string(jr_get(w, "what"));
		for (size_t j = 0; j < jr_len(res) && np < 64; j++) {
			const char *p = str(jr_get(jr_at(res, j), "policy"));
			size_t at = 0;
			while (at < np && strcmp(pol[at], p))
				at++;
			if (at == np)
				pol[np++] = p;
		}
	}
	char id[96], cap[512];
	snprintf(id, sizeof id, "t-work-%s", name);
	snprintf(cap, sizeof cap, "%s: each policy's time over the fastest policy's on that "
		 "machine, [95%% interval], and under it the rules it ran there", name);
	fputs("<h3>", f);
	html_escape(f, name);
	fputs("</h3>\n", f);
	if (what)
		html_para(f, "note", what);
	grid_begin(f, fl, c, id, cap, "policy");
	for (size_t p = 0; p < np; p++) {
		row_begin(f, pol[p], pol[p]);
		for (size_t i = 0; i < c->n; i++)
			policy_cell(f, fleet_root(fl, c->m[i]), workload(fleet_root(fl, c->m[i]), name),
				    pol[p]);
		fputs("</tr>\n", f);
	}
	row_begin(f, "fastest-ns", "fastest: ns per copy");
	for (size_t i = 0; i < c->n; i++) {
		const struct jr_value *w = workload(fleet_root(fl, c->m[i]), name);
		const struct jr_value *res = jr_get(w, "results");
		char t[32] = "-";
		for (size_t j = 0; j < jr_len(res); j++)
			if (!strcmp(str(jr_get(jr_at(res, j), "policy")), str(jr_get(w, "best"))))
				fmt_num(t, sizeof t, jr_number(jr_get(jr_at(res, j), "ns_median"), NAN));
		cell(f, NULL, t, str(jr_get(w, "best")));
	}
	fputs("</tr>\n", f);
	grid_end(f);
}

static void section_policies(FILE *f, const struct fleet *fl)
{
	struct cols c;
	const char *name[32];
	size_t n = 0;
	cols_of(fl, COLS_POLICIES, &c);
	fputs("<h2 id=\"policies\">Historic policies across machines</h2>\n", f);
	html_para(f, NULL, "The Linux kernel's user-copy policies, auto and libc alone, each "
		  "resolved for the machine's own features, on the workloads of ucopy compare. "
		  "A cell is the policy's time over the fastest policy's on that machine; "
		  "\"behind\" (red) where the whole 95% interval lies above 1.05.");
	html_para(f, "note", "A column \"assuming LIST\" is a machine whose report resolved "
		  "the policies for its features changed by LIST (an ERMS-only Xeon's on an "
		  "FSRM machine: ucopy report --assume-features erms,-fsrm), then ran them "
		  "fitted to the kernels it runs, at its own speed.");
	for (size_t i = 0; i < c.n; i++) {
		const struct jr_value *ws = jr_get(jr_get(fleet_root(fl, c.m[i]), "workloads"),
						   "workloads");
		for (size_t j = 0; j < jr_len(ws) && n < 32; j++) {
			const char *s = str(jr_get(jr_at(ws, j), "name"));
			size_t at = 0;
			while (at < n && strcmp(name[at], s))
				at++;
			if (at == n)
				name[n++] = s;
		}
	}
	if (!n)
		html_para(f, "note", "No compared report measured the workloads.");
	for (size_t w = 0; w < n; w++)
		table_workload(f, fl, &c, name[w]);
}

/*=====   5. auto's regret and the policies chosen   =====*/

static void regret_cell(FILE *f, const struct fleet_regret *g, int row)
{
	char t[160], m[192];
	double v, worst;
	if (!g->judged) {
		cell(f, NULL, "not judged", g->why);
		return;
	}
	if (row < REGRET_STATES) {
		v = g->st[row].geomean;
		worst = g->st[row].worst;
		if (!g->st[row].n) {
			cell(f, NULL, "not measured", NULL);
			return;
		}
		char z[32];
		fmt_size_iec(z, sizeof z, g->st[row].worst_size);
		snprintf(t, sizeof t, "%.3f", v);
		snprintf(m, sizeof m, "%zu sizes; worst %.3f at %s", g->st[row].n, worst, z);
		if (g->st[row].missing_size) {
			char ms[32];
			fmt_size_iec(ms, sizeof ms, g->st[row].missing_size);
			snprintf(m + strlen(m), sizeof m - strlen(m), "; %s at %s not timed",
				 g->st[row].missing_kernel, ms);
		}
	} else {
		int k = row - REGRET_STATES;
		v = g->dist[k].geomean;
		worst = g->dist[k].worst;
		if (!g->dist[k].files) {
			snprintf(m, sizeof m, "%zu report%s timed the vector kernels alone with this "
				 "policy (2 needed)", g->dist[k].reports, g->dist[k].reports == 1 ? "" : "s");
			cell(f, NULL, "not judged", m);
			return;
		}
		snprintf(t, sizeof t, "%.3f", v);
		snprintf(m, sizeof m, "%zu files, %zu reports; worst %.3f at %s", g->dist[k].files,
			 g->dist[k].reports, worst, g->dist[k].worst_name);
	}
	cell(f, v > REGRET_BAND_BOUND || worst > REGRET_SIZE_BOUND ? "bad" : NULL, t, m);
}

static void section_regret(FILE *f, const struct fleet *fl)
{
	struct cols c;
	cols_of(fl, COLS_TIMES, &c);
	fputs("<h2 id=\"regret\">auto's regret and the policies chosen</h2>\n", f);
	html_para(f, NULL, "auto's regret, as ucopy regret computes it from a machine's own "
		  "reports (two or more): per size swept, the time of the kernel auto's policy "
		  "runs over the fastest kernel's, the fastest chosen on one report and both "
		  "timed on another; here the geometric mean over every size, and the worst. "
		  "On the distributions, ucopy_memcpy over the fastest vector kernel alone. Red: "
		  "above 1.05 overall or 1.15 at a size, the bounds auto is held to.");
	grid_begin(f, fl, &c, "t-regret", "auto today, its regret, and the policies each "
		   "machine's newest report records", "");
	row_begin(f, "auto", "auto's policy today");
	for (size_t i = 0; i < c.n; i++) {
		const struct fleet_regret *g = &fl->m[c.m[i]].regret;
		cell(f, NULL, g->policy[0] ? g->policy : "-", g->row[0] ? g->row : g->why);
	}
	fputs("</tr>\n", f);
	static const char *const label[] = { "regret, hot", "regret, cold",
					     "regret, distributions (unlearnable)",
					     "regret, distributions (repeated)" };
	for (int row = 0; row < REGRET_STATES + REGRET_REGIMES; row++) {
		row_begin(f, label[row], label[row]);
		for (size_t i = 0; i < c.n; i++)
			regret_cell(f, &fl->m[c.m[i]].regret, row);
		fputs("</tr>\n", f);
	}
	static const char *const pk[][3] = {
		{ "active", "active_source", "the report's active policy" },
		{ "auto_row", NULL, "auto's row then" },
		{ "recommended", "recommended_from", "calibration chose" },
	};
	for (size_t p = 0; p < 3; p++) {
		row_begin(f, pk[p][0], pk[p][2]);
		for (size_t i = 0; i < c.n; i++) {
			const struct jr_value *pol = jr_get(fleet_root(fl, c.m[i]), "policy");
			const char *v = jr_string(jr_get(pol, pk[p][0]));
			char m[96] = "";
			if (pk[p][1])
				snprintf(m, sizeof m, "from %s", str(jr_get(pol, pk[p][1])));
			if (p == 2 && isfinite(jr_number(jr_get(pol, "gain_over_auto"), NAN)))
				snprintf(m + strlen(m), sizeof m - strlen(m), "; expected 1/%.2f of "
					 "auto's time, 1/%.2f of libc's",
					 jr_number(jr_get(pol, "gain_over_auto"), NAN),
					 jr_number(jr_get(pol, "gain_over_libc"), NAN));
			cell(f, NULL, v ? v : "not in this report's schema", m);
		}
		fputs("</tr>\n", f);
	}
	grid_end(f);
}

/*=====   The page   =====*/

static void section_left_out(FILE *f, const struct fleet *fl)
{
	size_t bad = 0, emulated = 0;
	for (size_t i = 0; i < fl->nfile; i++)
		bad += !fl->file[i].r.root;
	for (size_t i = 0; i < fl->nm; i++)
		emulated += !fleet_compared(fl, i);
	if (!bad && !emulated)
		return;
	fputs("<h2 id=\"left-out\">Left out</h2>\n<ul id=\"skipped\">\n", f);
	for (size_t i = 0; i < fl->nfile; i++)
		if (!fl->file[i].r.root) {
			char what[640];
			snprintf(what, sizeof what, "%s (skipped: --skip-bad)", fl->file[i].bad);
			html_code_item(f, "bad", fl->file[i].r.path, what);
		}
	for (size_t i = 0; i < fl->nm; i++)
		if (!fleet_compared(fl, i)) {
			fputs("<li>", f);
			html_printf(f, "%s: measured under an emulator (%s), shown under The machines "
				    "and left out of every comparison of times.", fl->m[i].name,
				    fl->m[i].emulator);
			fputs("</li>\n", f);
		}
	fputs("</ul>\n", f);
}

void fleet_write_html(FILE *f, const struct fleet *fl)
{
	size_t nrep = 0, nown = 0;
	char sub[240];
	for (size_t i = 0; i < fl->nm; i++) {
		nrep += fl->m[i].nfiles;
		nown += fleet_own_features(fl, i);
	}
	html_begin(f, "ucopy fleet");
	fputs("<h1>ucopy fleet</h1>\n", f);
	snprintf(sub, sizeof sub, "Copy performance of %zu machine%s side by side, from %zu "
		 "report%s", fl->ncpu, fl->ncpu == 1 ? "" : "s", nrep, nrep == 1 ? "" : "s");
	if (nown < fl->nm)
		snprintf(sub + strlen(sub), sizeof sub - strlen(sub), "; %zu column%s of historic "
			 "policies resolved for an assumed feature set", fl->nm - nown,
			 fl->nm - nown == 1 ? "" : "s");
	snprintf(sub + strlen(sub), sizeof sub - strlen(sub), ".");
	html_para(f, "sub", sub);
	section_machines(f, fl);
	fputs("<h2 id=\"differs\">What differs</h2>\n", f);
	html_list_begin(f, "findings", "differences");
	for (size_t i = 0; i < fl->ndiff; i++)
		html_item(f, fl->diff[i]);
	fputs("</ul>\n", f);
	section_winners(f, fl);
	section_libc(f, fl);
	section_policies(f, fl);
	section_regret(f, fl);
	section_left_out(f, fl);
	html_para(f, "note", "Each report's own page (ucopy report) explains its measurements; "
		  "docs/fleet.md explains this one. --json writes every number on it.");
	html_end(f);
}
