/*
 * fleet.c - reports of many machines grouped, judged and compared
 * (fleet.h).
 */
#include "fleet.h"
#include "output.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *str(const struct jr_value *v)
{
	const char *s = jr_string(v);
	return s ? s : "";
}

static const char *date_of(const struct fleet_file *x)
{
	return str(jr_get(x->r.root, "date"));
}

static const char *emulator_of(const struct fleet_file *x)
{
	const char *e = jr_string(jr_get(jr_get(x->r.root, "machine"), "emulator"));
	return e && *e ? e : NULL;
}

/* docs/report.md: absent in every report made without --assume-features. */
static const struct jr_value *assumed_of(const struct fleet_file *x)
{
	return jr_get(jr_get(x->r.root, "workloads"), "assumed_features");
}

static const char *assume_of(const struct fleet_file *x)
{
	const struct jr_value *a = assumed_of(x);
	return a ? str(jr_get(a, "list")) : NULL;
}

int fleet_add(struct fleet *f, const char *path, char *err, size_t errlen)
{
	if (f->nfile == FLEET_MAX_FILES) {
		snprintf(err, errlen, "more files than %d", FLEET_MAX_FILES);
		return -2;
	}
	if (!f->file && !(f->file = calloc(FLEET_MAX_FILES, sizeof *f->file))) {
		snprintf(err, errlen, "out of memory");
		return -2;
	}
	struct fleet_file *x = &f->file[f->nfile++];
	x->machine = x->same_date = -1;
	if (corpus_open(path, &x->r, err, errlen)) {
		snprintf(x->bad, sizeof x->bad, "%s", err);
		return -1;
	}
	/* A report of another architecture is shown as it is; one of this
	 * architecture is held to what `ucopy regret` reads, since auto is
	 * judged on it. */
	if (!strcmp(x->r.cpu.arch, ucopy_cpu()->arch)) {
		if (corpus_check(&x->r, err, errlen)) {
			snprintf(x->bad, sizeof x->bad, "%s", err);
			return -1;
		}
		x->checked = 1;
	}
	return 0;
}

void fleet_free(struct fleet *f)
{
	for (size_t i = 0; f->file && i < f->nfile; i++)
		corpus_release(&f->file[i].r);
	for (size_t i = 0; i < f->ndiff; i++)
		free(f->diff[i]);
	free(f->diff);
	free(f->file);
	free(f->m);
	memset(f, 0, sizeof *f);
}

const struct jr_value *fleet_root(const struct fleet *f, size_t i)
{
	return f->file[f->m[i].shown].r.root;
}

int fleet_compared(const struct fleet *f, size_t i)
{
	return !f->m[i].emulator;
}

int fleet_own_features(const struct fleet *f, size_t i)
{
	return !f->m[i].assume;
}

/* Two assumptions are one when they gave one feature set, however the
 * lists were spelt ("erms,-fsrm" and "-fsrm,erms"). */
static int same_assumption(const struct fleet_file *a, const struct fleet_file *b)
{
	const struct jr_value *fa = jr_get(assumed_of(a), "features");
	const struct jr_value *fb = jr_get(assumed_of(b), "features");
	if (!assumed_of(a) || !assumed_of(b))
		return !assumed_of(a) && !assumed_of(b);
	if (jr_len(fa) != jr_len(fb))
		return 0;
	for (size_t i = 0; i < jr_len(fa); i++)
		if (strcmp(str(jr_at(fa, i)), str(jr_at(fb, i))))
			return 0;
	return 1;
}

/* One CPU under one emulator or none: the columns of one machine. */
static int same_cpu(const struct fleet_file *a, const struct fleet_file *b)
{
	const char *ea = emulator_of(a), *eb = emulator_of(b);
	return !strcmp(a->r.cpu.arch, b->r.cpu.arch) && corpus_same_cpu(&a->r, &b->r) &&
	       a->r.cpu.stepping == b->r.cpu.stepping && !strcmp(a->r.brand, b->r.brand) &&
	       (ea && eb ? !strcmp(ea, eb) : ea == eb);
}

static int same_machine(const struct fleet_file *a, const struct fleet_file *b)
{
	return same_cpu(a, b) && same_assumption(a, b);
}

/*=====   What differs   =====*/

static int say(struct fleet *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int say(struct fleet *f, const char *fmt, ...)
{
	char **d = realloc(f->diff, (f->ndiff + 1) * sizeof *d);
	va_list ap;
	if (!d)
		return -1;
	f->diff = d;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *s = n < 0 ? NULL : malloc((size_t)n + 1);
	if (!s)
		return -1;
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	f->diff[f->ndiff++] = s;
	return 0;
}

const char *fleet_winner(const struct jr_value *root, const char *cache, double size)
{
	const struct jr_value *seg = jr_get(root, "segments"), *prev = NULL;
	for (size_t i = 0; i < jr_len(seg); i++) {
		const struct jr_value *g = jr_at(seg, i);
		if (strcmp(str(jr_get(g, "cache")), cache))
			continue;
		double from = jr_number(jr_get(g, "from"), NAN), to = jr_number(jr_get(g, "to"), NAN);
		if (size >= from && size <= to)
			return jr_string(jr_get(g, "kernel"));
		if (size < from) {
			if (!prev)
				return NULL;
			double pto = jr_number(jr_get(prev, "to"), NAN);
			return jr_string(jr_get(size * size < pto * from ? prev : g, "kernel"));
		}
		prev = g;
	}
	return NULL;
}

static int by_size(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static int same_name(const char *a, const char *b)
{
	return a && b ? !strcmp(a, b) : a == b;
}

/* A run of sizes over which every compared machine keeps its winner, in
 * words when they do not all agree: the kernels, each with its machines. */
static int band_sentence(struct fleet *f, const char *cache, const size_t *mi, size_t n,
			 const char *const *w, double lo, double hi)
{
	size_t distinct = 0;
	for (size_t i = 0; i < n; i++) {
		int first = !!w[i];
		for (size_t j = 0; first && j < i; j++)
			first = !same_name(w[i], w[j]);
		distinct += first;
	}
	if (distinct < 2)
		return 0;
	char a[32], b[32], *text = NULL;
	size_t len = 0;
	FILE *s = open_memstream(&text, &len);
	if (!s)
		return -1;
	fmt_size_iec(a, sizeof a, (size_t)lo);
	fmt_size_iec(b, sizeof b, (size_t)hi);
	if (lo == hi)
		fprintf(s, "%s, %s: ", cache, a);
	else
		fprintf(s, "%s, %s to %s: ", cache, a, b);
	for (size_t i = 0, said = 0; i < n; i++) {
		int first = !!w[i];
		for (size_t j = 0; first && j < i; j++)
			first = !same_name(w[i], w[j]);
		if (!first)
			continue;
		fprintf(s, "%s%s fastest on ", said++ ? "; " : "", w[i]);
		for (size_t j = i, k = 0; j < n; j++)
			if (same_name(w[i], w[j]))
				fprintf(s, "%s%s", k++ ? ", " : "", f->m[mi[j]].name);
	}
	fputc('.', s);
	fclose(s);
	text[0] = text[0] == 'h' ? 'H' : text[0] == 'c' ? 'C' : text[0];
	int rc = say(f, "%s", text);
	free(text);
	return rc;
}

/* The bands where the fastest kernel changes between compared machines:
 * on the sizes where some machine's fastest kernel changes, runs of sizes
 * with one kernel per machine. */
static int diff_bands(struct fleet *f, const char *cache, const size_t *mi, size_t n)
{
	double *grid = NULL;
	size_t ng = 0, cap = 0;
	const char **w = calloc(2 * (n ? n : 1), sizeof *w), **prev = w + n;
	int rc = w ? 0 : -1;
	for (size_t i = 0; i < n && !rc; i++) {
		const struct jr_value *seg = jr_get(fleet_root(f, mi[i]), "segments");
		for (size_t j = 0; j < jr_len(seg) && !rc; j++) {
			const struct jr_value *g = jr_at(seg, j);
			if (strcmp(str(jr_get(g, "cache")), cache))
				continue;
			if (ng + 2 > cap) {
				double *ngrid = realloc(grid, (cap = 2 * cap + 64) * sizeof *grid);
				if (!ngrid) {
					rc = -1;
					break;
				}
				grid = ngrid;
			}
			grid[ng++] = jr_number(jr_get(g, "from"), NAN);
			grid[ng++] = jr_number(jr_get(g, "to"), NAN);
		}
	}
	if (!rc && ng)
		qsort(grid, ng, sizeof *grid, by_size);
	double lo = 0, hi = 0;
	int open = 0;
	for (size_t g = 0; g < ng && !rc; g++) {
		if (!(grid[g] > 0) || (g && grid[g] == grid[g - 1]))
			continue;
		int same = open;
		for (size_t i = 0; i < n; i++) {
			w[i] = fleet_winner(fleet_root(f, mi[i]), cache, grid[g]);
			same = same && same_name(w[i], prev[i]);
		}
		if (same) {
			hi = grid[g];
			continue;
		}
		if (open)
			rc = band_sentence(f, cache, mi, n, prev, lo, hi);
		memcpy(prev, w, n * sizeof *w);
		lo = hi = grid[g];
		open = 1;
	}
	if (open && !rc)
		rc = band_sentence(f, cache, mi, n, prev, lo, hi);
	free(grid);
	free(w);
	return rc;
}

/* Policy p's result on workload `work` in a report: NULL when not run. */
static const struct jr_value *work_result(const struct jr_value *root, const char *work,
					  const char *p)
{
	const struct jr_value *ws = jr_get(jr_get(root, "workloads"), "workloads");
	for (size_t i = 0; i < jr_len(ws); i++) {
		const struct jr_value *w = jr_at(ws, i), *res = jr_get(w, "results");
		if (strcmp(str(jr_get(w, "name")), work))
			continue;
		for (size_t j = 0; j < jr_len(res); j++)
			if (!strcmp(str(jr_get(jr_at(res, j), "policy")), p))
				return isfinite(jr_number(jr_get(jr_get(jr_at(res, j), "vs_best"), "est"),
							  NAN)) ? jr_at(res, j) : NULL;
	}
	return NULL;
}

static double behind_by(const struct jr_value *r)
{
	const struct jr_value *vs = jr_get(r, "vs_best");
	return jr_number(jr_get(vs, "lo"), NAN) > FLEET_BEHIND ? jr_number(jr_get(vs, "est"), NAN)
								: NAN;
}

/* One historic policy on one workload: the machines where it is behind,
 * each with its interval while the list is short enough to read (the
 * tables have them all), and those where it is not. */
static int policy_sentence(struct fleet *f, const size_t *mi, size_t n, const char *work,
			   const char *p, int *any)
{
	char *text = NULL;
	size_t len = 0, behind = 0, level = 0, lo = 0, hi = 0;
	for (size_t i = 0; i < n; i++) {
		const struct jr_value *r = work_result(fleet_root(f, mi[i]), work, p);
		double x = behind_by(r);
		if (!r)
			continue;
		if (isnan(x)) {
			level++;
			continue;
		}
		if (!behind++ || x < behind_by(work_result(fleet_root(f, mi[lo]), work, p)))
			lo = i;
		if (behind == 1 || x > behind_by(work_result(fleet_root(f, mi[hi]), work, p)))
			hi = i;
	}
	*any |= behind > 0;
	if (!behind)
		return 0;
	FILE *s = open_memstream(&text, &len);
	if (!s)
		return -1;
	fprintf(s, "On %s, %s is 5%% or more behind the fastest policy on ", work, p);
	double least = behind_by(work_result(fleet_root(f, mi[lo]), work, p));
	double most = behind_by(work_result(fleet_root(f, mi[hi]), work, p));
	if (!level && behind > 2 && most - least < 0.005)
		fprintf(s, "every compared machine, by %.2f\xc3\x97", least);
	else if (!level && behind > 2)
		fprintf(s, "every compared machine, from %.2f\xc3\x97 on %s to %.2f\xc3\x97 on %s",
			least, f->m[mi[lo]].name, most, f->m[mi[hi]].name);
	for (size_t i = 0, k = 0; (level || behind <= 2) && i < n; i++) {
		const struct jr_value *r = work_result(fleet_root(f, mi[i]), work, p);
		const struct jr_value *vs = jr_get(r, "vs_best");
		if (!r || isnan(behind_by(r)))
			continue;
		fprintf(s, "%s%s (%.2f\xc3\x97", k++ ? ", " : "", f->m[mi[i]].name,
			jr_number(jr_get(vs, "est"), NAN));
		if (behind <= 4)
			fprintf(s, ", 95%% interval %.2f\xe2\x80\x93%.2f", jr_number(jr_get(vs, "lo"), NAN),
				jr_number(jr_get(vs, "hi"), NAN));
		fputc(')', s);
	}
	if (level) {
		fprintf(s, "; not on ");
		for (size_t i = 0, k = 0; i < n; i++) {
			const struct jr_value *r = work_result(fleet_root(f, mi[i]), work, p);
			if (r && isnan(behind_by(r)))
				fprintf(s, "%s%s", k++ ? ", " : "", f->m[mi[i]].name);
		}
	}
	fputc('.', s);
	fclose(s);
	int rc = say(f, "%s", text);
	free(text);
	return rc;
}

/* Every (workload, historic policy) the compared reports ran, once, in
 * the order the reports give them. */
static int diff_policies(struct fleet *f, const size_t *mi, size_t n)
{
	const char *(*pair)[2] = NULL;
	size_t np = 0, cap = 0;
	int any = 0, rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		const struct jr_value *ws = jr_get(jr_get(fleet_root(f, mi[i]), "workloads"), "workloads");
		for (size_t w = 0; w < jr_len(ws) && !rc; w++) {
			const struct jr_value *res = jr_get(jr_at(ws, w), "results");
			for (size_t j = 0; j < jr_len(res); j++) {
				const char *work = str(jr_get(jr_at(ws, w), "name"));
				const char *p = str(jr_get(jr_at(res, j), "policy"));
				size_t k = 0;
				/* auto and libc alone are not a policy Linux shipped. */
				if (!strcmp(p, "auto") || !strcmp(p, "libc"))
					continue;
				while (k < np && (strcmp(pair[k][0], work) || strcmp(pair[k][1], p)))
					k++;
				if (k < np)
					continue;
				if (np == cap) {
					const char *(*bigger)[2] = realloc(pair, (cap = 2 * cap + 16) * sizeof *pair);
					if (!bigger) {
						rc = -1;
						break;
					}
					pair = bigger;
				}
				pair[np][0] = work;
				pair[np++][1] = p;
			}
		}
	}
	for (size_t k = 0; k < np && !rc; k++)
		rc = policy_sentence(f, mi, n, pair[k][0], pair[k][1], &any);
	free(pair);
	if (!rc && !any)
		rc = say(f, "%s", np ? "No historic policy is 5% or more behind the fastest on a "
			 "workload of any compared machine."
			 : "No compared report measured the historic policies on workloads.");
	return rc;
}

/* The rows of one table where ucopy is slower than libc, its interval
 * agreeing. */
static void losses(FILE *s, const struct jr_value *root, const char *key, const char *what,
		   size_t *k)
{
	const struct jr_value *rows = jr_get(jr_get(root, key), "rows");
	for (size_t i = 0; i < jr_len(rows); i++) {
		const struct jr_value *q = jr_get(jr_at(rows, i), "ratio");
		if (!(jr_number(jr_get(q, "lo"), NAN) > 1))
			continue;
		fprintf(s, "%s%s%s (%.3f\xc3\x97, %.3f\xe2\x80\x93%.3f)", (*k)++ ? ", " : "", what,
			str(jr_get(jr_at(rows, i), "name")), jr_number(jr_get(q, "est"), NAN),
			jr_number(jr_get(q, "lo"), NAN), jr_number(jr_get(q, "hi"), NAN));
	}
}

double fleet_cliff_worst(const struct jr_value *root, const char *variant, double size)
{
	const struct jr_value *vs = jr_get(jr_get(root, "cliff"), "variants");
	for (size_t v = 0; v < jr_len(vs); v++) {
		const struct jr_value *per = jr_get(jr_at(vs, v), "per_size");
		if (strcmp(str(jr_get(jr_at(vs, v), "name")), variant))
			continue;
		for (size_t i = 0; i < jr_len(per); i++)
			if (jr_number(jr_get(jr_at(per, i), "size"), NAN) == size)
				return jr_number(jr_get(jr_at(per, i), "worst_slowdown"), NAN);
	}
	return NAN;
}

/* Where ucopy loses to libc on one machine, in words ("" where nowhere):
 * the rows slower with their intervals, then the cliffs libc lacks. */
static char *lost_to_libc(const struct jr_value *root)
{
	char *text = NULL;
	size_t len = 0, k = 0, c = 0;
	FILE *s = open_memstream(&text, &len);
	if (!s)
		return NULL;
	losses(s, root, "classes", "sizes ", &k);
	losses(s, root, "distributions", "unlearnable ", &k);
	losses(s, root, "distributions_repeated", "repeated ", &k);
	const struct jr_value *per = jr_get(jr_at(jr_get(jr_get(root, "cliff"), "variants"), 0),
					    "per_size");
	for (size_t j = 0; j < jr_len(per); j++) {
		double size = jr_number(jr_get(jr_at(per, j), "size"), NAN);
		double u = fleet_cliff_worst(root, "ucopy", size);
		double l = fleet_cliff_worst(root, "libc", size);
		char z[32];
		if (!(u >= FLEET_CLIFF && !(l >= u)))
			continue;
		fmt_size_iec(z, sizeof z, (size_t)size);
		fprintf(s, "%s%s %s, its worst cell %.2f\xc3\x97 the median against libc's "
			"%.2f\xc3\x97", c++ ? ", " : k ? "; and a cliff libc lacks at " :
			"a cliff libc lacks at ", "", z, u, l);
	}
	fclose(s);
	return text;
}

/* Machines that lose alike share a sentence. */
static int diff_libc(struct fleet *f, const size_t *mi, size_t n)
{
	char **lost = calloc(n ? n : 1, sizeof *lost);
	int rc = lost ? 0 : -1, any = 0;
	for (size_t i = 0; i < n && !rc; i++)
		if (!(lost[i] = lost_to_libc(fleet_root(f, mi[i]))))
			rc = -1;
	for (size_t i = 0; i < n && !rc; i++) {
		if (!lost[i][0])
			continue;
		char *who = NULL;
		size_t len = 0;
		FILE *s = open_memstream(&who, &len);
		if (!s) {
			rc = -1;
			break;
		}
		for (size_t j = i, k = 0; j < n; j++)
			if (j == i || !strcmp(lost[j], lost[i])) {
				fprintf(s, "%s%s", k++ ? ", " : "", f->m[mi[j]].name);
				if (j != i)
					lost[j][0] = 0;
			}
		fclose(s);
		rc = say(f, "On %s, ucopy_memcpy loses to libc's memcpy: %s%s.", who,
			 strncmp(lost[i], "a cliff", 7) ? "slower (the interval above 1) for " : "",
			 lost[i]);
		any = 1;
		free(who);
	}
	for (size_t i = 0; lost && i < n; i++)
		free(lost[i]);
	free(lost);
	if (!rc && !any)
		rc = say(f, "ucopy_memcpy is nowhere slower than libc's memcpy with an interval that "
			 "says so, and has no cliff libc lacks, on any compared machine.");
	return rc;
}

/* The policy sentences take every compared column, an assumed feature set's
 * too; the kernels and libc, each machine once. */
static int differences(struct fleet *f)
{
	size_t mi[FLEET_MAX_MACHINES], own[FLEET_MAX_MACHINES], n = 0, nown = 0;
	int rc = 0;
	for (size_t i = 0; i < f->nm; i++) {
		if (fleet_compared(f, i))
			mi[n++] = i;
		else
			rc |= say(f, "%s was measured under an emulator (%s): shown, and left out of "
				  "every comparison of times.", f->m[i].name, f->m[i].emulator);
		if (fleet_compared(f, i) && fleet_own_features(f, i))
			own[nown++] = i;
	}
	if (nown < 2)
		rc |= say(f, "%s machine to compare: the bands where the fastest kernel differs "
			  "need two.", nown ? "Only one" : "No");
	else
		rc = rc || diff_bands(f, "hot", own, nown) || diff_bands(f, "cold", own, nown);
	return rc || diff_policies(f, mi, n) || diff_libc(f, own, nown) ? -1 : 0;
}

/*=====   Machines   =====*/

static void judge(struct fleet *f, struct fleet_machine *m, struct corpus_report *r, int *oom)
{
	struct fleet_regret *g = &m->regret;
	for (size_t i = 0; i < m->nfiles; i++) {
		const struct fleet_file *x = &f->file[m->file[i]];
		if (!x->checked) {
			snprintf(g->why, sizeof g->why, "measured on %s; this ucopy is built for %s",
				 x->r.cpu.arch, ucopy_cpu()->arch);
			return;
		}
		r[i] = x->r;
	}
	struct ucopy_policy p;
	if (corpus_auto_policy(&r[0], &p, g->policy, sizeof g->policy, g->row, sizeof g->row)) {
		snprintf(g->why, sizeof g->why, "auto cannot describe this CPU");
		return;
	}
	if (m->emulator) {
		snprintf(g->why, sizeof g->why, "measured under an emulator");
		return;
	}
	if (m->nfiles < 2) {
		snprintf(g->why, sizeof g->why, "one report: the fastest kernel is chosen on one "
			 "report and timed on another, so two are needed");
		return;
	}
	struct regret_data *d = regret_read(r, m->nfiles);
	struct regret out;
	if (!d) {
		*oom = 1;
		return;
	}
	regret_of(d, &p, &out);
	free(d);
	for (int s = 0; s < REGRET_STATES; s++) {
		long w = regret_worst(&out.st[s]);
		g->st[s].geomean = regret_geomean(&out.st[s], 0, SIZE_MAX, &g->st[s].n);
		g->st[s].worst = w < 0 ? NAN : out.st[s].r[w];
		g->st[s].worst_size = w < 0 ? 0 : out.st[s].size[w];
		g->st[s].missing_size = out.st[s].missing_size;
		g->st[s].missing_kernel = out.st[s].missing_kernel;
	}
	struct regret_dists dd[REGRET_REGIMES];
	regret_dists(r, m->nfiles, g->policy, dd);
	for (int k = 0; k < REGRET_REGIMES; k++) {
		size_t worst;
		g->dist[k].files = dd[k].n;
		g->dist[k].reports = dd[k].nreports;
		g->dist[k].geomean = regret_dists_geomean(&dd[k], &worst);
		g->dist[k].worst = dd[k].n ? dd[k].r[worst] : NAN;
		snprintf(g->dist[k].worst_name, sizeof g->dist[k].worst_name, "%s",
			 dd[k].n ? dd[k].name[worst] : "");
	}
	g->judged = 1;
}

/* Names that tell every machine apart: the brand, then its family and
 * model where two share one, then whether it ran under an emulator; last
 * the feature set its policies assumed, which tells apart the columns of
 * one machine alone: two machines of one brand are told apart first,
 * whatever they assumed. */
static void name_machines(struct fleet *f)
{
	for (size_t i = 0; i < f->nm; i++) {
		const struct corpus_report *r = &f->file[f->m[i].shown].r;
		if (r->brand[0])
			snprintf(f->m[i].name, sizeof f->m[i].name, "%s", r->brand);
		else
			snprintf(f->m[i].name, sizeof f->m[i].name, "%s family %u model %u",
				 r->cpu.vendor, r->cpu.family, r->cpu.model);
	}
	for (int pass = 0; pass < 3; pass++) {
		/* Every name that a pass lengthens is found before any is, so
		 * that the last of a shared name is told apart too. */
		int dup[FLEET_MAX_MACHINES] = { 0 };
		for (size_t i = 0; i < f->nm; i++)
			for (size_t j = 0; j < f->nm; j++)
				dup[i] |= j != i && !strcmp(f->m[i].name, f->m[j].name) &&
					  !(same_cpu(&f->file[f->m[i].shown], &f->file[f->m[j].shown]) &&
					    !same_name(f->m[i].assume, f->m[j].assume));
		for (size_t i = 0; i < f->nm; i++) {
			if (!dup[i])
				continue;
			const struct corpus_report *r = &f->file[f->m[i].shown].r;
			char extra[96], *nm = f->m[i].name;
			size_t len = strlen(nm);
			if (pass == 0)
				snprintf(extra, sizeof extra, " (%s %u/%u/%u)", r->cpu.arch,
					 r->cpu.family, r->cpu.model, r->cpu.stepping);
			else if (pass == 1)
				snprintf(extra, sizeof extra, "%s", f->m[i].emulator ? ", emulated" : "");
			else
				snprintf(extra, sizeof extra, " #%zu", i + 1);
			snprintf(nm + len, sizeof f->m[i].name - len, "%s", extra);
		}
	}
	for (size_t i = 0; i < f->nm; i++) {
		size_t len = strlen(f->m[i].name);
		if (f->m[i].assume)
			snprintf(f->m[i].name + len, sizeof f->m[i].name - len, ", assuming %s",
				 f->m[i].assume);
	}
}

/* Machine i gets file x: its reports stay oldest first, the newest shown
 * (the later on the command line of two with one date). */
static int place(struct fleet *f, size_t i, size_t x)
{
	struct fleet_machine *m = &f->m[i];
	if (m->nfiles == CORPUS_MAX_REPORTS)
		return -1;
	size_t at = m->nfiles;
	while (at && strcmp(date_of(&f->file[m->file[at - 1]]), date_of(&f->file[x])) > 0)
		at--;
	memmove(&m->file[at + 1], &m->file[at], (m->nfiles - at) * sizeof m->file[0]);
	m->file[at] = x;
	m->nfiles++;
	m->shown = m->file[m->nfiles - 1];
	f->file[x].machine = (int)i;
	for (size_t j = 0; j < m->nfiles; j++)
		if (m->file[j] != x && !strcmp(date_of(&f->file[m->file[j]]), date_of(&f->file[x]))) {
			f->file[x].same_date = (int)m->file[j];
			if (f->file[m->file[j]].same_date < 0)
				f->file[m->file[j]].same_date = (int)x;
		}
	return 0;
}

int fleet_build(struct fleet *f, char *err, size_t errlen)
{
	if (!(f->m = calloc(FLEET_MAX_MACHINES, sizeof *f->m)))
		goto oom;
	for (size_t x = 0; x < f->nfile; x++) {
		if (!f->file[x].r.root)
			continue;
		size_t i = 0;
		while (i < f->nm && !same_machine(&f->file[f->m[i].file[0]], &f->file[x]))
			i++;
		if (i == FLEET_MAX_MACHINES) {
			snprintf(err, errlen, "more machines than %d", FLEET_MAX_MACHINES);
			return -1;
		}
		if (i == f->nm)
			f->nm++;
		if (place(f, i, x)) {
			snprintf(err, errlen, "%s: more reports of one machine than %d", f->file[x].r.path,
				 CORPUS_MAX_REPORTS);
			return -1;
		}
	}
	for (size_t i = 0; i < f->nm; i++) {
		size_t j = 0;
		f->m[i].emulator = emulator_of(&f->file[f->m[i].shown]);
		f->m[i].assume = assume_of(&f->file[f->m[i].shown]);
		while (j < i && !same_cpu(&f->file[f->m[i].shown], &f->file[f->m[j].shown]))
			j++;
		f->ncpu += j == i;
	}
	name_machines(f);
	struct corpus_report *r = malloc(CORPUS_MAX_REPORTS * sizeof *r);
	int oom = !r;
	for (size_t i = 0; i < f->nm && !oom; i++) {
		if (f->m[i].assume)
			snprintf(f->m[i].regret.why, sizeof f->m[i].regret.why, "its sweeps are its "
				 "machine's own: an assumed feature set changes the historic "
				 "policies alone");
		else
			judge(f, &f->m[i], r, &oom);
	}
	free(r);
	if (oom || differences(f))
		goto oom;
	return 0;
oom:
	snprintf(err, errlen, "out of memory");
	return -1;
}
