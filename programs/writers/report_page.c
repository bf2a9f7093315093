/*
 * report_page.c - the HTML page of `ucopy report` (report_model.h): the charts,
 * the tables and the sentences report_analyse() wrote, rendered from what
 * the report holds; nothing here measures or decides.
 */
#include "html.h"
#include "machine.h"
#include "output.h"
#include "report_write.h"
#include "report_fmt.h"
#include "svg.h"
#include "ucopy.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/*=====   The page   =====*/

static void meta(FILE *f, const char *dt, const char *dd)
{
	fputs("<dt>", f);
	html_escape(f, dt);
	fputs("</dt><dd>", f);
	html_escape(f, dd);
	fputs("</dd>\n", f);
}

static void header(FILE *f, const struct report *r)
{
	const struct ucopy_cpu *c = ucopy_cpu();
	char buf[640], l1[16], l2[16], l3[16];
	fputs("<h1>ucopy report</h1>\n", f);
	snprintf(buf, sizeof buf, "Copy performance on %s, %s.",
		 c->brand[0] ? c->brand : "an unknown CPU", r->date);
	html_para(f, "sub", buf);
	fputs("<dl class=\"meta\" id=\"machine\">\n", f);
	snprintf(buf, sizeof buf, "%s %s, family %u model %u stepping %u (%s)",
		 c->brand[0] ? c->brand : "unknown", c->vendor, c->family, c->model,
		 c->stepping, c->arch);
	meta(f, "CPU", buf);
	meta(f, "Features", r->features[0] ? r->features : "none detected");
	ucopy_size_format(c->l1d, l1, sizeof l1);
	ucopy_size_format(c->l2, l2, sizeof l2);
	ucopy_size_format(c->l3, l3, sizeof l3);
	snprintf(buf, sizeof buf, "L1d %s, L2 %s, L3 %s", l1, l2, l3);
	meta(f, "Caches", buf);
	meta(f, "Kernel", machine_kernel());
	snprintf(buf, sizeof buf, "%s, flags %s", machine_compiler(), machine_cflags());
	meta(f, "Compiler", buf);
	snprintf(buf, sizeof buf, "%s, commit %s", ucopy_version_string(), machine_commit());
	meta(f, "ucopy", buf);
	snprintf(buf, sizeof buf, "%s (%s)", r->policy.active, r->policy.active_source);
	meta(f, "Active policy", buf);
	meta(f, "auto's row", r->policy.auto_row);
	meta(f, "Date", r->date);
	snprintf(buf, sizeof buf, "%.0f s asked, %.0f s measured%s", r->budget, r->elapsed,
		 r->quick ? " (--quick: fewer sizes, sampled cliff matrix)" : "");
	meta(f, "Budget", buf);
	snprintf(buf, sizeof buf, "%s; seed %llu", r->timer ? r->timer : "?",
		 (unsigned long long)r->seed);
	meta(f, "Timer", buf);
	meta(f, "Command", r->command);
	/* Which files the distribution tables measured: the directory, and
	 * which of the places it is looked for in gave it (docs/report.md). */
	char dists[sizeof r->dist_dir + sizeof r->dist_from + 32];
	if (r->dist_dir[0])
		snprintf(dists, sizeof dists, "%zu file%s in %s (%s)", r->dists.n,
			 r->dists.n == 1 ? "" : "s", r->dist_dir, r->dist_from);
	else
		snprintf(dists, sizeof dists, "none: %s", r->dists.reason);
	meta(f, "Distributions", dists);
	fputs("</dl>\n", f);
}

static void chart_sweep(FILE *f, const struct report *r, const struct report_sweep *s,
			const char *id, int gbps, const char *title)
{
	struct svg_series *ser = calloc(s->nvar, sizeof *ser);
	double *x = malloc(s->nsize * sizeof *x);
	if (!ser || !x) {
		free(ser);
		free(x);
		return;
	}
	for (size_t i = 0; i < s->nsize; i++)
		x[i] = (double)s->size[i];
	for (size_t v = 0; v < s->nvar; v++) {
		ser[v].name = r->var[v].name;
		ser[v].note = v == r->iucopy ? strchr(r->var[v].label, '(') : NULL;
		ser[v].x = x;
		ser[v].y = (gbps ? s->gbps : s->ns) + v * s->nsize;
		ser[v].n = s->nsize;
		ser[v].color = (unsigned)v;
		ser[v].highlight = v == r->ilibc;
		ser[v].dashed = v == r->iucopy;
	}
	struct svg_line_chart c = {
		.id = id,
		.title = title,
		.xlabel = "copy size (bytes, log scale)",
		.ylabel = gbps ? "GB/s (log scale; higher is better)"
			       : "time per copy (log scale; lower is better)",
		.yunit = gbps ? SVG_PLAIN : SVG_NS,
		.series = ser,
		.nseries = s->nvar,
	};
	fputs("<div class=\"scroll\">\n", f);
	svg_line_chart(f, &c);
	fputs("</div>\n", f);
	free(ser);
	free(x);
}

/* The cliff heatmap's labels and per-cell text. */
struct cliff_view {
	const struct report *r;
	char **row_label, **row_group, **col_label, **col_group, **col_panel;
};

static void cliff_attrs(void *ctx, size_t row, size_t col, char *buf, size_t len)
{
	const struct cliff_view *cv = ctx;
	const struct report_cliff *c = &cv->r->cliff;
	size_t ncol = report_cliff_ncol(c);
	size_t s = row / c->nsa, a = row % c->nsa, v = col / ncol, k = col % ncol;
	uint32_t so, dof;
	report_cliff_offsets(c, a, k, &so, &dof);
	snprintf(buf, len, " data-variant=\"%s\" data-size=\"%zu\" data-src-offset=\"%u\" "
		 "data-dst-offset=\"%u\"", v ? "libc" : "ucopy", c->size[s], so, dof);
}

static void cliff_title(void *ctx, size_t row, size_t col, char *buf, size_t len)
{
	const struct cliff_view *cv = ctx;
	const struct report *r = cv->r;
	const struct report_cliff *c = &r->cliff;
	size_t ncol = report_cliff_ncol(c), nper = c->nsa * ncol;
	size_t s = row / c->nsa, a = row % c->nsa, v = col / ncol, k = col % ncol;
	uint32_t so, dof;
	report_cliff_offsets(c, a, k, &so, &dof);
	double ns = c->ns[(v * c->nsize + s) * nper + a * ncol + k];
	double sd = c->slowdown[(v * c->nsize + s) * nper + a * ncol + k];
	char sz[32];
	fmt_size_iec(sz, sizeof sz, c->size[s]);
	snprintf(buf, len, "%s, %s, src page offset %u, dst %u (dst - src = %u): %.1f ns, "
		 "%.2fx the median of this size (%.1f ns)", v ? "libc" : "ucopy", sz, so, dof,
		 (dof - so) & 4095u, ns, sd, c->median[v * c->nsize + s]);
}

static char *dupf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *dupf(const char *fmt, ...)
{
	char buf[128];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return strdup(buf);
}

static void chart_cliff(FILE *f, const struct report *r)
{
	const struct report_cliff *c = &r->cliff;
	size_t ncol = report_cliff_ncol(c), nper = c->nsa * ncol;
	size_t nrows = c->nsize * c->nsa, ncols = c->nvar * ncol;
	if (!nrows || !ncols)
		return;
	struct cliff_view cv = { .r = r };
	cv.row_label = calloc(nrows, sizeof(char *));
	cv.row_group = calloc(nrows, sizeof(char *));
	cv.col_label = calloc(ncols, sizeof(char *));
	cv.col_group = calloc(ncols, sizeof(char *));
	cv.col_panel = calloc(ncols, sizeof(char *));
	double *val = malloc(nrows * ncols * sizeof *val);
	unsigned char *lab = calloc(nrows * ncols, 1);
	if (!cv.row_label || !cv.row_group || !cv.col_label || !cv.col_group ||
	    !cv.col_panel || !val || !lab)
		goto out;
	for (size_t s = 0; s < c->nsize; s++)
		for (size_t a = 0; a < c->nsa; a++) {
			char sz[32];
			fmt_size_iec(sz, sizeof sz, c->size[s]);
			cv.row_group[s * c->nsa + a] = dupf("%s", sz);
			cv.row_label[s * c->nsa + a] = dupf("src +%u", c->sa[a]);
		}
	for (size_t v = 0; v < c->nvar; v++)
		for (size_t k = 0; k < ncol; k++) {
			size_t i = v * ncol + k;
			cv.col_panel[i] = dupf("%s", v ? "libc (memcpy)" : r->var[r->iucopy].label);
			if (k < c->nda) {
				cv.col_group[i] = dupf("dst align");
				cv.col_label[i] = dupf("+%u", c->da[k]);
			} else {
				cv.col_group[i] = dupf("dst \xe2\x88\x92 src");
				uint32_t d = c->d[k - c->nda];
				cv.col_label[i] = d >= 1024 && d % 1024 == 0 ? dupf("%uK", d / 1024)
									      : dupf("%u", d);
			}
		}
	for (size_t row = 0; row < nrows; row++)
		for (size_t col = 0; col < ncols; col++) {
			size_t s = row / c->nsa, a = row % c->nsa, v = col / ncol, k = col % ncol;
			size_t idx = (v * c->nsize + s) * nper + a * ncol + k;
			double sd = c->slowdown[idx];
			val[row * ncols + col] = sd;
			/* Label the cliffs, and the worst cell of each size when
			 * it stands out at all. */
			lab[row * ncols + col] =
				sd >= CLIFF || (c->worst_cell[v * c->nsize + s] == a * ncol + k &&
						sd >= 1.2);
		}
	for (size_t i = 0; i < nrows; i++)
		if (!cv.row_label[i] || !cv.row_group[i])
			goto out;
	for (size_t i = 0; i < ncols; i++)
		if (!cv.col_label[i] || !cv.col_group[i] || !cv.col_panel[i])
			goto out;
	struct svg_heatmap h = {
		.id = "chart-cliff",
		.title = "Cliff matrix: time per copy over the size's median cell, by "
			 "alignment and distance",
		.nrows = nrows,
		.ncols = ncols,
		.row_label = (const char *const *)cv.row_label,
		.row_group = (const char *const *)cv.row_group,
		.col_label = (const char *const *)cv.col_label,
		.col_group = (const char *const *)cv.col_group,
		.col_panel = (const char *const *)cv.col_panel,
		.col_caption = NULL,
		.value = val,
		.labelled = lab,
		.cell_attrs = cliff_attrs,
		.cell_title = cliff_title,
		.ctx = &cv,
	};
	fputs("<div class=\"scroll\">\n", f);
	svg_heatmap(f, &h);
	fputs("</div>\n", f);
out:
	for (size_t i = 0; cv.row_label && i < nrows; i++) {
		free(cv.row_label[i]);
		free(cv.row_group[i]);
	}
	for (size_t i = 0; cv.col_label && i < ncols; i++) {
		free(cv.col_label[i]);
		free(cv.col_group[i]);
		free(cv.col_panel[i]);
	}
	free(cv.row_label);
	free(cv.row_group);
	free(cv.col_label);
	free(cv.col_group);
	free(cv.col_panel);
	free(val);
	free(lab);
}

static void table_segments(FILE *f, const struct report *r)
{
	static const char *const head[] = { "cache", "sizes", "fastest kernel",
					    "lead over the next kernel" };
	struct html_table t;
	html_table_begin(&t, f, "t-segments", "The fastest kernel by size (medians of the sweep)",
			 4, head, "llll");
	for (size_t i = 0; i < r->nseg; i++) {
		const struct report_segment *g = &r->seg[i];
		char a[32], b[32], range[80], lead[48], key[48];
		fmt_size_iec(a, sizeof a, g->from);
		fmt_size_iec(b, sizeof b, g->to);
		if (g->from == g->to)
			snprintf(range, sizeof range, "%s", a);
		else
			snprintf(range, sizeof range, "%s \xe2\x80\x93 %s", a, b);
		report_fmt_x(g->margin, lead, sizeof lead);
		snprintf(key, sizeof key, "seg-%zu", i);
		const char *cells[] = { g->cache, range, g->kernel, lead };
		html_table_row(&t, key, cells, NULL);
	}
	html_table_end(&t);
}

static void table_crossovers(FILE *f, const struct report *r)
{
	static const char *const head[] = { "kernels (a \xe2\x86\x92 b)", "cache",
					    "crossover at about", "b/a time below",
					    "b/a time above" };
	struct html_table t;
	html_table_begin(&t, f, "t-crossovers",
			 "Crossovers: where b's time over a's crosses 1 by more than 5%", 5,
			 head, "llrrr");
	for (size_t i = 0; i < r->ncross; i++) {
		const struct report_crossover *c = &r->cross[i];
		char pair[140], at_[48], lo[32], hi[32], key[48], b1[32], b2[32];
		snprintf(pair, sizeof pair, "%s \xe2\x86\x92 %s", c->a, c->b);
		svg_format_bytes(c->size, at_, sizeof at_);
		fmt_size_iec(b1, sizeof b1, c->below);
		fmt_size_iec(b2, sizeof b2, c->above);
		char atfull[120];
		snprintf(atfull, sizeof atfull, "%s (%s\xe2\x80\x93%s)", at_, b1, b2);
		report_fmt_x(c->ratio_below, lo, sizeof lo);
		report_fmt_x(c->ratio_above, hi, sizeof hi);
		snprintf(key, sizeof key, "cross-%zu", i);
		const char *cells[] = { pair, c->cache, atfull, lo, hi };
		html_table_row(&t, key, cells, NULL);
	}
	html_table_end(&t);
}

static void table_policy(FILE *f, const struct report *r)
{
	const struct report_policy *p = &r->policy;
	static const char *const head[] = { "policy", "text", "expected time vs ucopy now",
					    "expected time vs libc" };
	struct html_table t;
	html_table_begin(&t, f, "t-policy", "The policy ucopy uses and the one the data suggest",
			 4, head, "llrr");
	char src[80];
	snprintf(src, sizeof src, "active (%s)", p->active_source);
	const char *c1[] = { src, p->active, "1", NULL };
	html_table_row(&t, "active", c1, NULL);
	char ga[32], gl[32], name[80];
	if (isfinite(p->gain_auto))
		snprintf(ga, sizeof ga, "1/%.2f", p->gain_auto);
	else
		snprintf(ga, sizeof ga, "-");
	if (isfinite(p->gain_libc))
		snprintf(gl, sizeof gl, "1/%.2f", p->gain_libc);
	else
		snprintf(gl, sizeof gl, "-");
	snprintf(name, sizeof name, "%s", !strcmp(p->source, "sweep")
		 ? "fastest per size (this sweep)" : "calibrated (this run)");
	const char *c2[] = { name, p->text[0] ? p->text : "-", ga, gl };
	html_table_row(&t, "recommended", c2, NULL);
	html_table_end(&t);
	html_para(f, "note", "Expected time: the recommended policy's kernel at each size of the "
	     "hot sweep against ucopy_memcpy's and libc's time there, geometric mean over "
	     "the sizes (aligned buffers: an estimate, not a measurement of the policy).");
	if (p->note[0])
		html_para(f, "note", p->note);
	if (!p->nthr)
		return;
	static const char *const th[] = { "below", "kernel", "then", "at sizes",
					  "then/kernel time below", "then/kernel time at" };
	html_table_begin(&t, f, "t-thresholds",
			 "The calibrated policy's thresholds and the measurements behind them",
			 6, th, "rllrrr");
	for (size_t i = 0; i < p->nthr; i++) {
		const struct report_threshold *x = &p->thr[i];
		char lim[32], sizes[80], b1[32], b2[32], rb[32], ra[32], key[32];
		fmt_size_iec(lim, sizeof lim, x->limit);
		fmt_size_iec(b1, sizeof b1, x->below);
		fmt_size_iec(b2, sizeof b2, x->at);
		if (x->inherited)
			snprintf(sizes, sizeof sizes, "kept from auto (beyond the sweep)");
		else
			snprintf(sizes, sizeof sizes, "%s, %s", b1, b2);
		report_fmt_x(x->ratio_below, rb, sizeof rb);
		report_fmt_x(x->ratio_at, ra, sizeof ra);
		snprintf(key, sizeof key, "thr-%zu", i);
		const char *cells[] = { lim, x->from, x->to, sizes, rb, ra };
		html_table_row(&t, key, cells, NULL);
	}
	html_table_end(&t);
}

static void table_probes(FILE *f, const struct report *r)
{
	const struct report_probes *p = &r->probes;
	if (!p->nsize || !p->nk)
		return;
	size_t ncol = 1 + p->nsize;
	const char **head = calloc(ncol, sizeof *head);
	const char **cells = calloc(ncol, sizeof *cells);
	const char **cls = calloc(ncol, sizeof *cls);
	char (*buf)[48] = calloc(ncol, sizeof *buf);
	char (*hb)[32] = calloc(ncol, sizeof *hb);
	if (!head || !cells || !cls || !buf || !hb)
		goto out;
	head[0] = "kernel";
	for (size_t s = 0; s < p->nsize; s++) {
		fmt_size_iec(hb[s], sizeof hb[s], p->size[s]);
		head[1 + s] = hb[s];
	}
	char cap[300], ds[120];
	report_fmt_distances(p, ds, sizeof ds);
	snprintf(cap, sizeof cap, "Each kernel's slowest time at dst \xe2\x88\x92 src = "
		 "%s (mod 4096) over its time half a page apart", ds);
	struct html_table t;
	html_table_begin(&t, f, "t-probes", cap, ncol, head, NULL);
	for (size_t k = 0; k < p->nk; k++) {
		cells[0] = r->var[k].name;
		cls[0] = NULL;
		for (size_t s = 0; s < p->nsize; s++) {
			double w = p->worst[k * p->nsize + s];
			report_fmt_x(w, buf[s], sizeof buf[s]);
			cells[1 + s] = buf[s];
			cls[1 + s] = w >= CLIFF ? "bad" : NULL;
		}
		html_table_row(&t, r->var[k].name, cells, cls);
	}
	html_table_end(&t);
out:
	free(head);
	free(cells);
	free(cls);
	free(buf);
	free(hb);
}

static void table_cliff(FILE *f, const struct report *r)
{
	const struct report_cliff *c = &r->cliff;
	static const char *const head[] = { "size", "variant", "median ns", "worst / median",
					    "worst cell" };
	struct html_table t;
	html_table_begin(&t, f, "t-cliff", "Per size: the median cell and the slowest one", 5,
			 head, "llrrl");
	for (size_t s = 0; s < c->nsize; s++)
		for (size_t v = 0; v < c->nvar; v++) {
			size_t k = v * c->nsize + s;
			char sz[32], med[32], w[32], cell[200], key[48];
			fmt_size_iec(sz, sizeof sz, c->size[s]);
			report_fmt_ns(c->median[k], med, sizeof med);
			report_fmt_x(c->worst[k], w, sizeof w);
			report_describe_cell(c, c->worst_cell[k], cell, sizeof cell);
			snprintf(key, sizeof key, "cliff-%s-%zu", v ? "libc" : "ucopy", c->size[s]);
			const char *cells[] = { sz, v ? "libc" : "ucopy", med, w, cell };
			const char *cls[] = { NULL, NULL, NULL,
					      c->worst[k] >= CLIFF ? "bad" : NULL, NULL };
			html_table_row(&t, key, cells, cls);
		}
	html_table_end(&t);
}

static void table_workloads(FILE *f, const struct report *r)
{
	const struct report_workloads *w = &r->work;
	if (!w->nwork || !w->npol) {
		html_para(f, "note", w->reason[0] ? w->reason : "No workloads were measured.");
		return;
	}
	size_t ncol = 2 + w->nwork;
	const char **head = calloc(ncol, sizeof *head);
	const char **cells = calloc(ncol, sizeof *cells);
	const char **cls = calloc(ncol, sizeof *cls);
	char (*buf)[96] = calloc(ncol, sizeof *buf);
	char *align = calloc(ncol + 1, 1);
	if (!head || !cells || !cls || !buf || !align)
		goto out;
	head[0] = "policy";
	head[1] = "resolved here to";
	memset(align, 'r', ncol);
	align[0] = align[1] = 'l';
	for (size_t k = 0; k < w->nwork; k++)
		head[2 + k] = w->work_name[k];
	struct html_table t;
	html_table_begin(&t, f, "t-workloads",
			 "Time relative to the fastest policy on each workload, with the 95% "
			 "interval (1.00 = the fastest)", ncol, head, align);
	for (size_t p = 0; p < w->npol; p++) {
		cells[0] = w->pol_name[p];
		cells[1] = w->pol_text[p];
		cls[0] = cls[1] = NULL;
		for (size_t k = 0; k < w->nwork; k++) {
			const struct stats_interval *q = &w->vs_best[p * w->nwork + k];
			if (!isfinite(q->est))
				snprintf(buf[k], sizeof buf[k], "-");
			else if (p == w->best[k])
				snprintf(buf[k], sizeof buf[k], "1.00 (fastest)");
			else
				snprintf(buf[k], sizeof buf[k], "%.2f [%.2f\xe2\x80\x93%.2f]", q->est,
					 q->lo, q->hi);
			cells[2 + k] = buf[k];
			cls[2 + k] = !isfinite(q->est) ? NULL
				     : p == w->best[k] ? "best good"
				     : q->lo > SAME ? "bad" : NULL;
		}
		html_table_row(&t, w->pol_name[p], cells, cls);
	}
	cells[0] = "fastest: ns per copy";
	cells[1] = "";
	for (size_t k = 0; k < w->nwork; k++) {
		report_fmt_ns(w->ns[w->best[k] * w->nwork + k], buf[k], sizeof buf[k]);
		cells[2 + k] = buf[k];
		cls[2 + k] = NULL;
	}
	html_table_row(&t, "fastest-ns", cells, NULL);
	html_table_end(&t);
	fputs("<ul class=\"note\">\n", f);
	for (size_t k = 0; k < w->nwork; k++)
		html_code_item(f, NULL, w->work_name[k], w->work_what[k]);
	fputs("</ul>\n", f);
	if (w->reason[0])
		html_para(f, "note", w->reason);
out:
	free(head);
	free(cells);
	free(cls);
	free(buf);
	free(align);
}

static void table_ab(FILE *f, const struct report_ab *a, const char *id,
		     const char *first, const char *caption)
{
	if (!a->n) {
		html_para(f, "note", a->reason[0] ? a->reason : "Not measured.");
		return;
	}
	const char *head[] = { first, "mean size", "ucopy ns", "libc ns", "ucopy / libc",
			       "95% interval", "verdict" };
	struct html_table t;
	/* The regime is part of what the numbers mean: in the caption. */
	char cap[384];
	snprintf(cap, sizeof cap, "%s, %s", caption, a->condition);
	html_table_begin(&t, f, id, cap, 7, head, "lrrrrrl");
	for (size_t i = 0; i < a->n; i++) {
		char ms[32], u[32], l[32], q[32], ci[48], key[80];
		fmt_num(ms, sizeof ms, a->mean_size[i]);
		report_fmt_ns(a->ns_ucopy[i], u, sizeof u);
		report_fmt_ns(a->ns_libc[i], l, sizeof l);
		if (isfinite(a->ratio[i].est))
			snprintf(q, sizeof q, "%.3f", a->ratio[i].est);
		else
			snprintf(q, sizeof q, "-");
		report_fmt_ci(&a->ratio[i], ci, sizeof ci);
		enum report_verdict v = report_verdict_of(&a->ratio[i]);
		snprintf(key, sizeof key, "%s", a->name[i]);
		const char *cells[] = { a->name[i], ms, u, l, q, ci, report_verdict_text(v) };
		const char *cls[] = { NULL, NULL, NULL, NULL, report_verdict_class(v), NULL,
				      report_verdict_class(v) };
		html_table_row(&t, key, cells, cls);
	}
	html_table_end(&t);
}

void report_write_html(FILE *f, const struct report *r)
{
	html_begin(f, "ucopy report");
	header(f, r);

	fputs("<h2 id=\"meaning\">What this means</h2>\n", f);
	html_list_begin(f, "findings", "findings");
	for (size_t i = 0; i < r->nfind; i++)
		html_item(f, r->find[i]);
	fputs("</ul>\n", f);

	fputs("<h2 id=\"sweep\">Time per copy</h2>\n", f);
	html_para(f, NULL, "Median time of one copy between the same two page-aligned buffers "
	     "(hot: they stay in the nearest cache that holds them), for every kernel this "
	     "CPU runs, libc's memcpy (thick line) and ucopy_memcpy (dashed). Both axes are "
	     "logarithmic: a flat line is a fixed cost, a slope of one is a bandwidth.");
	chart_sweep(f, r, &r->hot, "chart-ns", 0, "Time per copy against size, hot buffers");
	fputs("<h2 id=\"bandwidth\">Bandwidth</h2>\n", f);
	html_para(f, NULL, "The same copies as bytes per nanosecond (GB/s): the higher, the better.");
	chart_sweep(f, r, &r->hot, "chart-gbps", 1, "Bandwidth against size, hot buffers");
	if (r->cold_skipped)
		html_para(f, "note", "--quick skips the cold sweep: its buffers are four times the "
		     "last-level cache on each side.");
	if (r->cold.nsize) {
		fputs("<h3 id=\"cold\">Cold buffers, 64 KiB and up</h3>\n", f);
		html_para(f, NULL, "Source and destination walk regions four times the last-level "
		     "cache in a scattered order, so every copy misses the caches: what a copy "
		     "of data nobody touched recently costs.");
		chart_sweep(f, r, &r->cold, "chart-cold", 1,
			    "Bandwidth against size, cold buffers");
	}

	fputs("<h2 id=\"crossovers\">Crossovers and the policy</h2>\n", f);
	table_segments(f, r);
	table_crossovers(f, r);
	table_policy(f, r);

	fputs("<h2 id=\"cliffs\">Cliffs</h2>\n", f);
	html_para(f, NULL, "ucopy_memcpy and libc's memcpy on hot buffers, with the source at "
	     "four offsets in its cache line and the destination either at four offsets "
	     "half a page away or a few bytes after the source (mod 4096: the 4 KiB "
	     "aliasing distance that makes rep movsb crawl on some CPUs). Each cell is "
	     "its time over the median cell of the same size and variant; cells 1.5\xc3\x97 "
	     "and worse, and the worst of each size, carry their value.");
	if (r->cliff.sampled)
		html_para(f, "note", "The matrix was sampled to fit the budget: fewer sizes, "
		     "offsets and distances than a full run measures.");
	chart_cliff(f, r);
	html_para(f, "note", "Columns: \"dst align\" puts the destination at that offset in its "
	     "cache line, half a page from the source; \"dst \xe2\x88\x92 src\" puts it that "
	     "many bytes after the source, mod 4096. Rows: the source's offset in its "
	     "cache line. Hover a cell for its time.");
	table_cliff(f, r);
	table_probes(f, r);

	fputs("<h2 id=\"policies\">Historic policies on workloads</h2>\n", f);
	html_para(f, NULL, "The Linux kernel's user-copy policies over the years, resolved for "
	     "this CPU's features, and libc alone, on the copy patterns behind the "
	     "reports that changed them.");
	if (r->work.assume) {
		char feats[512];
		ucopy_features_format(r->work.features, " ", feats, sizeof feats);
		fputs("<p class=\"note\" id=\"assumed-features\">", f);
		html_printf(f, "Not this CPU's features: the policies and auto were resolved "
			    "assuming --assume-features %s, which gives %s; then fitted to the "
			    "kernels this CPU runs, which run at this CPU's speed. Every other "
			    "section is this CPU's own.", r->work.assume, feats);
		fputs("</p>\n", f);
	}
	table_workloads(f, r);

	fputs("<h2 id=\"vs-libc\">ucopy against libc</h2>\n", f);
	html_para(f, NULL, "ucopy_memcpy (the active policy) and libc's memcpy interleaved on "
	     "the same random sequence of copies: a ratio below 1 means ucopy is faster. "
	     "The distributions are timed twice: in a sequence too long for a branch "
	     "predictor to learn, and in a short one repeated, which a predictor learns; "
	     "a program's own order lies somewhere between. "
	     "The interval is that of the median of per-round ratios (order statistics); "
	     "a verdict is given only when it excludes 1.");
	table_ab(f, &r->classes, "t-classes", "sizes",
		 "Per size class: sizes log-uniform in the class, offsets 0..63");
	table_ab(f, &r->dists, "t-dists", "distribution",
		 "Per production size distribution (fleetbench)");
	table_ab(f, &r->dists_repeated, "t-dists-repeated", "distribution",
		 "Per production size distribution (fleetbench)");

	fputs("<h2 id=\"method\">How this was measured</h2>\n", f);
	html_para(f, NULL, "Every cell interleaves its variants in rounds, so that drift hits "
	     "them alike, in the orders docs/bench.md (\"The orders\") gives; a round "
	     "times a batch of copies per variant, called through a function pointer with sizes read from memory. Times are "
	     "medians over the rounds. Buffers are mapped and written before timing. "
	     "See docs/report.md for how to read each chart and table; --json writes "
	     "every number on this page.");
	html_end(f);
}
