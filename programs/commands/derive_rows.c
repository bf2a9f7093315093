/*
 * derive_rows.c - `ucopy derive --rows CORPUS`: the derivation run over
 * every machine of the corpus (data/machines/README.md), written as the C
 * table of auto's derived rows (lib/x86_64/rows.c, by `make rows`).
 */
#include "cli.h"
#include "corpus.h"
#include "default_row.h"
#include "derive_cmd.h"
#include "outfile.h"
#include "ucopy.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CMD "derive"
#define MAX_FAMILIES 32
#define MAX_RANGES 4
#define MAX_MACHINES 64
#define MAX_FILES 32

/* One line of the corpus's families.txt. */
struct family {
	char vendor[16];
	unsigned family, nranges, lo[MAX_RANGES], hi[MAX_RANGES];
	char name[48];
};

/* Text that goes into the generated C as it is: letters, digits, '-',
 * '_', '.' and the characters in `also` (a folder name: none; the corpus
 * path: '/'; a families.txt name: " (),"). */
static int c_safe(const char *s, const char *also)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') ||
		      (*s >= '0' && *s <= '9') || *s == '-' || *s == '_' || *s == '.' ||
		      strchr(also, *s)))
			return 0;
	return 1;
}

static int parse_ranges(char *s, struct family *f)
{
	for (char *tok = strtok(s, ","); tok; tok = strtok(NULL, ",")) {
		char *end;
		unsigned long lo = strtoul(tok, &end, 0), hi = lo;
		if (*end == '-')
			hi = strtoul(end + 1, &end, 0);
		if (*end || lo > hi || hi > 0xff || f->nranges == MAX_RANGES)
			return -1;
		f->lo[f->nranges] = (unsigned)lo;
		f->hi[f->nranges++] = (unsigned)hi;
	}
	return f->nranges ? 0 : -1;
}

static int read_families(const char *path, struct family *fam, size_t *n)
{
	FILE *f = fopen(path, "r");
	char line[256];
	unsigned no = 0;
	*n = 0;
	if (!f) {
		cli_error("%s: cannot open: %s", path, strerror(errno));
		return EXIT_USAGE;
	}
	while (fgets(line, sizeof line, f)) {
		char vendor[32], family[16], models[96];
		int used = 0;
		no++;
		if (line[0] == '#' || line[strspn(line, " \t\r\n")] == 0)
			continue;
		struct family *e = &fam[*n];
		memset(e, 0, sizeof *e);
		char *end;
		if (*n == MAX_FAMILIES ||
		    sscanf(line, "%31s %15s %95s %n", vendor, family, models, &used) != 3 ||
		    strlen(vendor) >= sizeof e->vendor ||
		    (e->family = (unsigned)strtoul(family, &end, 0), *end) ||
		    parse_ranges(models, e) || !line[used] || line[used] == '\n') {
			fclose(f);
			cli_error("%s:%u: expected VENDOR FAMILY MODELS NAME (models: 0x10-0x1f,0x60-0xaf)",
				  path, no);
			return EXIT_USAGE;
		}
		snprintf(e->vendor, sizeof e->vendor, "%.15s", vendor);
		snprintf(e->name, sizeof e->name, "%.*s", (int)strcspn(line + used, "\r\n"),
			 line + used);
		if (!c_safe(e->name, " (),")) {
			fclose(f);
			cli_error("%s:%u: a name of other than letters, digits, spaces and -_.(),",
				  path, no);
			return EXIT_USAGE;
		}
		(*n)++;
	}
	fclose(f);
	return 0;
}

static const struct family *family_of(const struct family *fam, size_t n,
				      const struct ucopy_cpu *c)
{
	for (size_t i = 0; i < n; i++) {
		if (strcmp(fam[i].vendor, c->vendor) || fam[i].family != c->family)
			continue;
		for (unsigned r = 0; r < fam[i].nranges; r++)
			if (c->model >= fam[i].lo[r] && c->model <= fam[i].hi[r])
				return &fam[i];
	}
	return NULL;
}

/* One derived row, as the generated file states it. */
struct row {
	char folder[4096], files[1024];
	const struct family *fam;
	struct ucopy_cpu cpu;
	char brand[64], policy[512], start[512];
	size_t nreports;
	struct derived d;
	struct regret_data *data;   /* two reports or more: judged for the default */
};

static void put_row(FILE *f, const struct row *r)
{
	unsigned nr = r->fam ? r->fam->nranges : 1;
	fprintf(f, "\t{ { \"%s\", 0x%x, \"%s family 0x%X",
		r->cpu.vendor, r->cpu.family,
		!strcmp(r->cpu.vendor, "AuthenticAMD") ? "AMD"
		: !strcmp(r->cpu.vendor, "GenuineIntel") ? "Intel" : r->cpu.vendor, r->cpu.family);
	for (unsigned i = 0; i < nr; i++) {
		unsigned lo = r->fam ? r->fam->lo[i] : r->cpu.model;
		unsigned hi = r->fam ? r->fam->hi[i] : r->cpu.model;
		fprintf(f, lo == hi ? "%s 0x%02x" : "%s 0x%02x-0x%02x",
			i ? "," : nr > 1 ? " models" : " model", lo, hi);
	}
	if (r->fam)
		fprintf(f, " (%s)", r->fam->name);
	fprintf(f, "\",\n\t    \"derived from %s (%zu reports, %s %u/%u) by `make rows`\" },\n",
		r->folder, r->nreports, r->cpu.vendor, r->cpu.family, r->cpu.model);
	fprintf(f, "\t  %u, {", nr);
	for (unsigned i = 0; i < nr; i++)
		fprintf(f, "%s { 0x%02x, 0x%02x }", i ? "," : "",
			r->fam ? r->fam->lo[i] : r->cpu.model, r->fam ? r->fam->hi[i] : r->cpu.model);
	fprintf(f, " },\n\t  \"%s\" },\n", r->policy);
}

static void put_limit(FILE *f, size_t v)
{
	fprintf(f, v % 1024 ? "%zu bytes" : "%zu KiB", v % 1024 ? v : v / 1024);
}

static void put_default(FILE *f, const struct default_limits *lim, const struct row *rows,
			size_t n, const double *scores, size_t nscores)
{
	if (!nscores) {
		fprintf(f, "\n/* The default row's limits: the hand row's, as no machine has two\n"
			   " * reports to judge others on (programs/core/default_row.c;\n"
			   " * docs/calibrate.md, \"The default row\")");
	} else {
		fprintf(f, "\n/* The default row's limits, of those tried the ones with the least\n"
			   " * worst-case regret over the machines with two reports or more\n"
			   " * (programs/core/default_row.c; docs/calibrate.md, \"The default row\").\n"
			   " * Their regret, geometric mean over every size per machine and cache\n"
			   " * state, worst first:");
		for (size_t i = 0; i < nscores; i++)
			fprintf(f, "%s %.3f", i ? "," : "", scores[i]);
	}
	fprintf(f, ".\n * What the row gives each machine (where its own row did not hold it):\n");
	for (size_t i = 0; i < n; i++)
		fprintf(f, " *   %s gets %s\n", rows[i].folder, rows[i].start);
	fprintf(f, " */\nconst struct ucopy_default_limits ucopy_derived_default = { %zu, %zu, %u };\n",
		lim->vector, lim->zmm, lim->stream_quarters);
	fprintf(f, "const char ucopy_derived_default_why[] =\n\t\"a vector kernel to ");
	put_limit(f, lim->vector);
	fprintf(f, " (");
	put_limit(f, lim->zmm);
	fprintf(f, " with free zmm stores), movsb_safe with ERMS, ");
	if (lim->stream_quarters)
		fprintf(f, "streaming stores from %u quarter%s of the L3", lim->stream_quarters,
			lim->stream_quarters > 1 ? "s" : "");
	else
		fprintf(f, "no streaming stores");
	fprintf(f, "\"\n\t\"; %s (`make rows`)\";\n", nscores ? "the least worst-case regret over "
		"the corpus" : "the hand row's, no corpus machine having two reports");
}

static void put_file(FILE *f, const char *corpus, const struct row *rows, size_t n,
		     const struct default_limits *lim, const double *scores, size_t nscores)
{
	fprintf(f, "/*\n"
		   " * rows.c - auto's rows derived from the corpus of measured machines.\n"
		   " *\n"
		   " * Generated by `make rows` (build/ucopy derive --rows %s) from\n", corpus);
	for (size_t i = 0; i < n; i++)
		fprintf(f, " *   %s: %s\n", rows[i].folder, rows[i].files);
	fprintf(f, " * and %s/families.txt: first the default row's limits, then each\n"
		   " * machine's row with the derivation of programs/core/derive.c\n"
		   " * (docs/calibrate.md, \"How a policy is derived\") from the policy the\n"
		   " * default row gives it.  Do not edit: change the corpus or the\n"
		   " * derivation and run `make rows`; make check fails while this file\n"
		   " * differs from what the corpus derives (tests/cli/rows.sh).\n"
		   " */\n"
		   "#include \"x86_64.h\"\n\n"
		   "const struct ucopy_derived_row ucopy_derived_rows[] = {\n", corpus);
	for (size_t i = 0; i < n; i++)
		put_row(f, &rows[i]);
	fprintf(f, "};\n\nconst size_t ucopy_derived_nrows = %zu;\n", n);
	put_default(f, lim, rows, n, scores, nscores);
}

int machine_read(const char *corpus, const char *m, int allow, struct loaded *l,
		 char *files, size_t fileslen)
{
	char dir[4096], *paths[MAX_FILES];
	size_t nf;
	memset(l, 0, sizeof *l);
	files[0] = 0;
	snprintf(dir, sizeof dir, "%s/%s", corpus, m);
	char **names = corpus_list(dir, CORPUS_REPORTS, MAX_FILES, &nf);
	if (!names) {
		cli_error("%s: %s", dir, errno == EMFILE ? "more reports than 32"
							   : strerror(errno));
		return EXIT_USAGE;
	}
	if (!nf) {
		corpus_free_list(names, nf);
		return 0;   /* a folder without reports has no row */
	}
	char full[MAX_FILES][4352];
	size_t pos = 0;
	for (size_t i = 0; i < nf; i++) {
		snprintf(full[i], sizeof full[i], "%s/%s", dir, names[i]);
		paths[i] = full[i];
		pos += (size_t)snprintf(files + pos, pos < fileslen ? fileslen - pos : 0, "%s%s",
					i ? " " : "", names[i]);
	}
	corpus_free_list(names, nf);
	return loaded_read(l, paths, nf, allow);
}

static void rows_free(struct row *rows, size_t n)
{
	for (size_t i = 0; rows && i < n; i++) {
		derived_free(&rows[i].d);
		free(rows[i].data);
	}
	free(rows);
}

/* Reads every machine folder into rows (those with reports). */
static int read_machines(const char *corpus, const struct family *fam, size_t nfam, int allow,
			 struct row **out, size_t *nout)
{
	size_t nm;
	int rc = 0;
	char **machines = corpus_list(corpus, CORPUS_MACHINES, MAX_MACHINES, &nm);
	if (!machines) {
		cli_error("%s: cannot read: %s", corpus,
			  errno == EMFILE ? "more machine folders than 64" : strerror(errno));
		return EXIT_USAGE;
	}
	struct row *rows = calloc(nm ? nm : 1, sizeof *rows);
	size_t n = 0;
	if (!rows) {
		corpus_free_list(machines, nm);
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	for (size_t i = 0; i < nm && !rc; i++) {
		struct row *r = &rows[n];
		if (!c_safe(machines[i], "")) {
			cli_error("%s/%s: a folder name of other than letters, digits, '-', '_' "
				  "and '.'", corpus, machines[i]);
			rc = EXIT_USAGE;
			break;
		}
		rc = machine_read(corpus, machines[i], allow, &r->d.reports, r->files,
				  sizeof r->files);
		if (rc || !r->d.reports.n) {
			loaded_release(&r->d.reports);
			memset(&r->d, 0, sizeof r->d);
			continue;
		}
		snprintf(r->folder, sizeof r->folder, "%s/%s", corpus, machines[i]);
		r->cpu = r->d.reports.r[0].cpu;
		r->nreports = r->d.reports.n;
		snprintf(r->brand, sizeof r->brand, "%s", r->d.reports.r[0].brand);
		r->fam = family_of(fam, nfam, &r->cpu);
		n++;
		/* Two folders of one CPU would be two rows for it. */
		for (size_t j = 0; j + 1 < n && !rc; j++)
			if (r->fam ? rows[j].fam == r->fam
				   : !rows[j].fam && corpus_cpu_equal(&rows[j].cpu, &r->cpu)) {
				cli_error("%s and %s: two folders for %s %u/%u; one row each",
					  rows[j].folder, r->folder, r->cpu.vendor, r->cpu.family,
					  r->cpu.model);
				rc = EXIT_USAGE;
			}
		if (!rc && r->nreports >= 2 && !(r->data = regret_read(r->d.reports.r, r->nreports))) {
			cli_error("out of memory");
			rc = EXIT_FAIL;
		}
	}
	corpus_free_list(machines, nm);
	*out = rows;
	*nout = n;
	return rc;
}

int derive_rows(const char *corpus, const char *output, int allow)
{
	struct family fam[MAX_FAMILIES];
	size_t nfam, n = 0, nj = 0;
	char path[4096], err[256];
	struct row *rows = NULL;
	if (!c_safe(corpus, "/")) {
		cli_error("%s: a corpus path of other than letters, digits, '/', '-', '_' "
			  "and '.' (it goes into the generated file)", corpus);
		return EXIT_USAGE;
	}
	snprintf(path, sizeof path, "%s/families.txt", corpus);
	int rc = read_families(path, fam, &nfam);
	if (!rc)
		rc = read_machines(corpus, fam, nfam, allow, &rows, &n);
	/* First the default row, judged on every machine with two reports;
	 * then each machine's row, derived from what the default gives it. */
	struct default_machine *dm = rc ? NULL : calloc(n ? n : 1, sizeof *dm);
	double *scores = rc ? NULL : calloc(2 * n + 1, sizeof *scores);
	struct default_limits lim = default_row_hand;
	if (!rc && (!dm || !scores)) {
		cli_error("out of memory");
		rc = EXIT_FAIL;
	}
	for (size_t i = 0; !rc && i < n; i++)
		if (rows[i].data) {
			dm[nj].first = &rows[i].d.reports.r[0];
			dm[nj++].data = rows[i].data;
		}
	/* With no machine of two reports there is nothing to judge the
	 * default row on: it keeps the hand row's limits, and says so. */
	if (!rc && nj && default_row_derive(dm, nj, &lim, scores, err, sizeof err)) {
		cli_error("%s: the default row: %s", corpus, err);
		rc = EXIT_USAGE;
	}
	for (size_t i = 0; !rc && i < n; i++) {
		struct ucopy_policy start;
		struct row *r = &rows[i];
		if (default_row_policy(&r->d.reports.r[0], &lim, &start, err, sizeof err)) {
			cli_error("%s: %s", r->folder, err);
			rc = EXIT_USAGE;
			break;
		}
		ucopy_policy_fit(&start, r->cpu.features, NULL, 0);
		ucopy_policy_format(&start, r->start, sizeof r->start);
		rc = derive_loaded(&r->d, &start);
		if (!rc)
			ucopy_policy_format(&r->d.cal->policy, r->policy, sizeof r->policy);
	}
	if (!rc) {
		struct outfile out;
		rc = outfile_open(&out, CMD, output);
		if (!rc) {
			put_file(out.f, corpus, rows, n, &lim, scores, 2 * nj);
			rc = outfile_commit(&out) ? EXIT_FAIL : EXIT_OK;
		}
	}
	free(dm);
	free(scores);
	rows_free(rows, n);
	return rc;
}
