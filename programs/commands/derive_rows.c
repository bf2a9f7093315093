/*
 * derive_rows.c - `ucopy derive --rows CORPUS`: the derivation run over
 * every machine of the corpus (data/machines/README.md), written as the C
 * table of auto's derived rows (lib/x86_64/rows.c, by `make rows`).
 */
#include "cli.h"
#include "corpus.h"
#include "derive_cmd.h"
#include "outfile.h"
#include "ucopy.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CMD "derive"
#define MAX_FAMILIES 32
#define MAX_RANGES 4
#define MAX_MACHINES 64
#define MAX_FILES 32
#define SKIPPED (-1)

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

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_listing(char **l, size_t n)
{
	for (size_t i = 0; l && i < n; i++)
		free(l[i]);
	free(l);
}

/* The names in dir that `keep` accepts, sorted; NULL on error (EMFILE:
 * more than max). */
static char **listing(const char *dir, int (*keep)(const char *dir, const char *name),
		      size_t max, size_t *n)
{
	DIR *d = opendir(dir);
	char **out = calloc(max + 1, sizeof *out);
	struct dirent *e;
	*n = 0;
	if (!d || !out) {
		if (d)
			closedir(d);
		free(out);
		return NULL;
	}
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && keep(dir, e->d_name)) {
			if (*n == max) {
				/* Not a table that depends on readdir's order. */
				closedir(d);
				free_listing(out, *n);
				errno = EMFILE;
				return NULL;
			}
			out[(*n)++] = strdup(e->d_name);
		}
	closedir(d);
	qsort(out, *n, sizeof *out, by_name);
	return out;
}

static int is_dir(const char *dir, const char *name)
{
	char p[4096];
	DIR *d;
	snprintf(p, sizeof p, "%s/%s", dir, name);
	if (!(d = opendir(p)))
		return 0;
	closedir(d);
	return 1;
}

static int is_report(const char *dir, const char *name)
{
	size_t n = strlen(name);
	(void)dir;
	return !strncmp(name, "report-", 7) && n > 15 && !strcmp(name + n - 8, ".json.gz");
}

/* One derived row, as the generated file states it. */
struct row {
	char folder[4096], files[1024];
	const struct family *fam;
	struct ucopy_cpu cpu;
	char brand[64], policy[512];
	size_t nreports;
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

static void put_file(FILE *f, const char *corpus, const struct row *rows, size_t n)
{
	fprintf(f, "/*\n"
		   " * rows.c - auto's rows derived from the corpus of measured machines.\n"
		   " *\n"
		   " * Generated by `make rows` (build/ucopy derive --rows %s) from\n", corpus);
	for (size_t i = 0; i < n; i++)
		fprintf(f, " *   %s: %s\n", rows[i].folder, rows[i].files);
	fprintf(f, " * and %s/families.txt, with the derivation of programs/core/derive.c\n"
		   " * (docs/calibrate.md, \"How a policy is derived\") from the policy the\n"
		   " * default row gives each machine.  Do not edit: change the corpus or the\n"
		   " * derivation and run `make rows`; make check fails while this file\n"
		   " * differs from what the corpus derives (tests/cli/rows.sh).\n"
		   " */\n"
		   "#include \"x86_64.h\"\n\n"
		   "const struct ucopy_derived_row ucopy_derived_rows[] = {\n", corpus);
	for (size_t i = 0; i < n; i++)
		put_row(f, &rows[i]);
	fprintf(f, "};\n\nconst size_t ucopy_derived_nrows = %zu;\n", n);
}

/* Derives one folder's row.  @return : 0, SKIPPED (no reports), or an exit
 * status after a message. */
static int one_machine(const char *corpus, const char *m, const struct family *fam, size_t nfam,
		       int allow, struct row *row)
{
	char dir[4096], *paths[MAX_FILES];
	size_t nf;
	snprintf(dir, sizeof dir, "%s/%s", corpus, m);
	char **files = listing(dir, is_report, MAX_FILES, &nf);
	if (!files) {
		cli_error("%s: %s", dir, errno == EMFILE ? "more reports than 32"
							   : strerror(errno));
		return EXIT_USAGE;
	}
	if (!nf) {
		free_listing(files, nf);
		return SKIPPED;   /* a folder without reports has no row */
	}
	char full[MAX_FILES][4352];
	size_t pos = 0;
	row->files[0] = 0;
	for (size_t i = 0; i < nf; i++) {
		snprintf(full[i], sizeof full[i], "%s/%s", dir, files[i]);
		paths[i] = full[i];
		pos += (size_t)snprintf(row->files + pos, pos < sizeof row->files ?
					sizeof row->files - pos : 0, "%s%s", i ? " " : "", files[i]);
	}
	free_listing(files, nf);
	struct derived d;
	int rc = derive_reports(paths, nf, allow, &d);
	if (rc) {
		derived_free(&d);
		return rc;
	}
	snprintf(row->folder, sizeof row->folder, "%s", dir);
	row->cpu = d.reports.r[0].cpu;
	row->nreports = d.reports.n;
	snprintf(row->brand, sizeof row->brand, "%s", d.reports.r[0].brand);
	ucopy_policy_format(&d.cal->policy, row->policy, sizeof row->policy);
	row->fam = family_of(fam, nfam, &row->cpu);
	derived_free(&d);
	return 0;
}

int derive_rows(const char *corpus, const char *output, int allow)
{
	struct family fam[MAX_FAMILIES];
	size_t nfam, nm;
	char path[4096];
	if (!c_safe(corpus, "/")) {
		cli_error("%s: a corpus path of other than letters, digits, '/', '-', '_' "
			  "and '.' (it goes into the generated file)", corpus);
		return EXIT_USAGE;
	}
	snprintf(path, sizeof path, "%s/families.txt", corpus);
	int rc = read_families(path, fam, &nfam);
	if (rc)
		return rc;
	char **machines = listing(corpus, is_dir, MAX_MACHINES, &nm);
	if (!machines) {
		cli_error("%s: cannot read: %s", corpus, strerror(errno));
		return EXIT_USAGE;
	}
	struct row *rows = calloc(nm ? nm : 1, sizeof *rows);
	size_t n = 0;
	if (!rows) {
		free_listing(machines, nm);
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	for (size_t i = 0; i < nm; i++) {
		if (!c_safe(machines[i], "")) {
			cli_error("%s/%s: a folder name of other than letters, digits, '-', '_' "
				  "and '.'", corpus, machines[i]);
			rc = EXIT_USAGE;
			break;
		}
		rc = one_machine(corpus, machines[i], fam, nfam, allow, &rows[n]);
		if (rc == SKIPPED) {
			rc = 0;
			continue;
		}
		if (rc)
			break;
		/* Two folders of one CPU would be two rows for it. */
		for (size_t j = 0; j < n && !rc; j++)
			if (rows[n].fam ? rows[j].fam == rows[n].fam
					: !rows[j].fam && corpus_cpu_equal(&rows[j].cpu, &rows[n].cpu)) {
				cli_error("%s and %s: two folders for %s %u/%u; one row each",
					  rows[j].folder, rows[n].folder, rows[n].cpu.vendor,
					  rows[n].cpu.family, rows[n].cpu.model);
				rc = EXIT_USAGE;
			}
		if (rc)
			break;
		n++;
	}
	free_listing(machines, nm);
	if (!rc) {
		struct outfile out;
		rc = outfile_open(&out, CMD, output);
		if (!rc) {
			put_file(out.f, corpus, rows, n);
			rc = outfile_commit(&out) ? EXIT_FAIL : EXIT_OK;
		}
	}
	free(rows);
	return rc;
}
