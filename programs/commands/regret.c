/*
 * regret.c - `ucopy regret`: what auto's choice costs on every machine of
 * the corpus, from the machines' own reports (regret.h), beside what the
 * default row would cost there.
 */
#include "cli.h"
#include "corpus.h"
#include "default_row.h"
#include "derive_cmd.h"
#include "regret.h"
#include "ucopy.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CMD "regret"
#define MAX_MACHINES 64

void help_regret(FILE *f)
{
	fputs("usage: ucopy regret [--corpus DIR] [--markdown] [--check] [--allow-missing]\n\n"
	      "For every machine folder of the corpus (default data/machines) with two\n"
	      "reports or more: the policy auto chooses on that CPU (with its features\n"
	      "and caches, as `ucopy features --cpu` prints it), the policy the\n"
	      "default row would give it, and (\"unseen\") the one the default row\n"
	      "derived from the other machines alone would give it, what a CPU the\n"
	      "corpus never saw gets; each judged on the machine's own reports.\n"
	      "Per size of the reports' sweeps, hot and cold, the regret is the time\n"
	      "of the kernel the policy runs over the fastest kernel's, the fastest\n"
	      "chosen on one report and both timed on another (every ordered pair; the\n"
	      "median; 1 where the policy's kernel was ahead).  A band is a rule of the\n"
	      "policy; its regret is the geometric mean over its sizes.  On the\n"
	      "production distributions, in both regimes, auto's regret is ucopy_memcpy's\n"
	      "time over the fastest of it and each vector kernel alone, from the reports\n"
	      "that timed them so (schema 4) while running auto's policy; each file is\n"
	      "judged as a size is, and their geometric mean as a band.\n\n"
	      "  --corpus DIR     the corpus (data/machines/README.md)\n"
	      "  --markdown       a table (docs/performance.md) instead of lines\n"
	      "  --check          exit 1 when auto breaks a bound on a machine: a band\n"
	      "                   (or the distributions' geometric mean) above 1.05, a\n"
	      "                   size (or a distribution) above 1.15, or a size sent to\n"
	      "                   a kernel the reports did not time\n"
	      "  --allow-missing  skip a report that cannot be read (named on stderr)\n\n"
	      "Each broken bound is a line starting OVER.  A report that cannot be read\n"
	      "is named with the reason (exit 2).\n", f);
}

static void fmt_size(size_t n, char *buf, size_t len)
{
	ucopy_size_format(n, buf, len);
}

struct who {
	const char *name;       /* "auto", "default row" */
	char policy[512], row[128];
	struct ucopy_policy p;
};

/* auto's policy on the report's CPU, or the default row's (a family, or on
 * aarch64 a part, no row is keyed by). */
static int policy_for(const struct corpus_report *r, int dflt, struct who *w)
{
	char err[256];
	if (dflt) {
		if (corpus_default_policy(r, &w->p, err, sizeof err)) {
			cli_error("%s: %s", r->path, err);
			return EXIT_USAGE;
		}
		ucopy_policy_format(&w->p, w->policy, sizeof w->policy);
		snprintf(w->row, sizeof w->row, "default");
		return 0;
	}
	if (corpus_auto_policy(r, &w->p, w->policy, sizeof w->policy, w->row, sizeof w->row)) {
		cli_error("%s: auto cannot describe this CPU", r->path);
		return EXIT_USAGE;
	}
	return 0;
}

/* The bands of one state as text, and the bounds they break. */
static int one_state(FILE *over, const char *m, size_t nreports, const struct who *w,
		     const struct regret_state *st, const char *state, int md, int judge)
{
	char bands[2048], ws[16];
	size_t pos = 0;
	int broken = 0;
	long worst = regret_worst(st);
	bands[0] = 0;
	if (worst < 0) {
		/* A state the reports did not sweep is said, not passed over. */
		if (md)
			printf("| %s (%zu reports) | %s: `%s` | %s | %s | not measured | |\n", m,
			       nreports, w->name, w->policy, w->row, state);
		else
			printf("%-10s %-11s %-4s not measured | %s\n", m, w->name, state, w->policy);
		return 0;
	}
	for (unsigned i = 0; i < w->p.nrules; i++) {
		size_t lo = i ? w->p.rule[i - 1].limit : 0;
		size_t hi = i + 1 < w->p.nrules ? w->p.rule[i].limit : SIZE_MAX;
		size_t count;
		double g = regret_geomean(st, lo, hi, &count);
		char a[16], b[16];
		if (!count)
			continue;
		fmt_size(lo, a, sizeof a);
		fmt_size(hi, b, sizeof b);
		if (!lo && hi == SIZE_MAX)
			pos += (size_t)snprintf(bands + pos, pos < sizeof bands ? sizeof bands - pos : 0,
						"%s%s, every size: %.3f", pos ? "; " : "",
						w->p.rule[i].kernel->name, g);
		else
			pos += (size_t)snprintf(bands + pos, pos < sizeof bands ? sizeof bands - pos : 0,
						"%s%s %s%s%s%s: %.3f", pos ? "; " : "",
						w->p.rule[i].kernel->name,
						!lo ? "< " : hi == SIZE_MAX ? ">= " : "", !lo ? b : a,
						lo && hi != SIZE_MAX ? "-" : "",
						lo && hi != SIZE_MAX ? b : "", g);
		if (judge && g > REGRET_BAND_BOUND) {
			fprintf(over, "OVER %s %s %s band %s: geomean %.3f > %.2f\n", m, w->name, state,
			       w->p.rule[i].kernel->name, g, REGRET_BAND_BOUND);
			broken = 1;
		}
	}
	fmt_size(st->size[worst], ws, sizeof ws);
	if (judge && st->r[worst] > REGRET_SIZE_BOUND) {
		fprintf(over, "OVER %s %s %s: %s at %.3f > %.2f\n", m, w->name, state, ws, st->r[worst],
		       REGRET_SIZE_BOUND);
		broken = 1;
	}
	if (md)
		printf("| %s (%zu reports) | %s: `%s` | %s | %s | %s | %.3f at %s |\n", m, nreports,
		       w->name, w->policy, w->row, state, bands, st->r[worst], ws);
	else
		printf("%-10s %-11s %-4s %s | worst %.3f at %s | %s\n", m, w->name, state, bands,
		       st->r[worst], ws, w->policy);
	return broken;
}

/* auto on the distributions, each regime a line (or a row) of its own. */
static int dists(FILE *over, const char *m, const struct loaded *l, const struct who *w, int md)
{
	static const char *const regime[REGRET_REGIMES] = {
		"distributions, unlearnable", "distributions, repeated",
	};
	struct regret_dists d[REGRET_REGIMES];
	int broken = 0;
	regret_dists(l->r, l->n, w->policy, d);
	for (int g = 0; g < REGRET_REGIMES; g++) {
		char text[256];
		if (!d[g].n) {
			snprintf(text, sizeof text, "not judged: %zu report%s timed the vector kernels "
				 "alone with this policy (2 needed)", d[g].nreports,
				 d[g].nreports == 1 ? "" : "s");
			if (md)
				printf("| %s (%zu reports) | %s: `%s` | %s | %s | %s | |\n", m, l->n,
				       w->name, w->policy, w->row, regime[g], text);
			else
				printf("%-10s %-11s %s: %s\n", m, w->name, regime[g], text);
			continue;
		}
		size_t worst;
		double geo = regret_dists_geomean(&d[g], &worst);
		snprintf(text, sizeof text, "%zu files, %zu reports: %.3f", d[g].n, d[g].nreports, geo);
		if (geo > REGRET_BAND_BOUND) {
			fprintf(over, "OVER %s %s %s: geomean %.3f > %.2f\n", m, w->name, regime[g],
				geo, REGRET_BAND_BOUND);
			broken = 1;
		}
		if (d[g].r[worst] > REGRET_SIZE_BOUND) {
			fprintf(over, "OVER %s %s %s: %s at %.3f > %.2f\n", m, w->name, regime[g],
				d[g].name[worst], d[g].r[worst], REGRET_SIZE_BOUND);
			broken = 1;
		}
		if (md)
			printf("| %s (%zu reports) | %s: `%s` | %s | %s | %s | %.3f at %s |\n", m, l->n,
			       w->name, w->policy, w->row, regime[g], text, d[g].r[worst],
			       d[g].name[worst]);
		else
			printf("%-10s %-11s %s: %s | worst %.3f at %s\n", m, w->name, regime[g], text,
			       d[g].r[worst], d[g].name[worst]);
	}
	return broken;
}

/* The default row derived from every machine but `self` (the hand row's
 * limits when no other has two reports): what a CPU the corpus had never
 * seen would get. */
static int unseen(const struct loaded *all, struct regret_data **data, size_t n, size_t self,
		  struct who *w)
{
	struct default_machine dm[MAX_MACHINES];
	struct default_limits lim = default_row_hand;
	double scores[2 * MAX_MACHINES];
	char err[512];
	size_t nd = 0;
	for (size_t i = 0; i < n; i++)
		if (i != self && data[i]) {
			dm[nd].first = &all[i].r[0];
			dm[nd++].data = data[i];
		}
	if (nd && default_row_derive(dm, nd, &lim, scores, err, sizeof err)) {
		cli_error("the default row without %s: %s", all[self].r[0].path, err);
		return EXIT_USAGE;
	}
	if (default_row_policy(&all[self].r[0], &lim, &w->p, err, sizeof err)) {
		cli_error("%s: %s", all[self].r[0].path, err);
		return EXIT_USAGE;
	}
	ucopy_policy_fit(&w->p, all[self].r[0].cpu.features, NULL, 0);
	ucopy_policy_format(&w->p, w->policy, sizeof w->policy);
	snprintf(w->row, sizeof w->row, "default, derived without this machine%s",
		 nd ? "" : " (none left: the hand limits)");
	return 0;
}

static int one_machine(FILE *over, const char *m, const struct loaded *all,
		       struct regret_data **data, size_t n, size_t self, int md, int *broken)
{
	const struct loaded *l = &all[self];
	for (int who = 0; who < 3; who++) {
		static const char *const name[] = { "auto", "default row", "unseen" };
		struct who w = { name[who], "", "", { 0 } };
		struct regret g;
		int rc = who < 2 ? policy_for(&l->r[0], who, &w) : unseen(all, data, n, self, &w);
		if (rc)
			return rc;
		regret_of(data[self], &w.p, &g);
		for (int s = 0; s < REGRET_STATES; s++) {
			const struct regret_state *st = &g.st[s];
			/* A size the policy sends to a kernel a report did not
			 * time is not judged, and says so: a band must not pass
			 * unseen. */
			if (!who && st->missing_size) {
				char z[16];
				fmt_size(st->missing_size, z, sizeof z);
				fprintf(over, "OVER %s %s %s: %s at %s not in a report (not judged)\n", m,
				       w.name, regret_state_name[s], st->missing_kernel, z);
				*broken = 1;
			}
			*broken |= one_state(over, m, l->n, &w, st, regret_state_name[s], md, !who);
		}
		/* The reports ran auto on the distributions, never a default
		 * row. */
		if (!who)
			*broken |= dists(over, m, l, &w, md);
	}
	return 0;
}

int cmd_regret(int argc, char **argv)
{
	const char *corpus = "data/machines", *v;
	int md = 0, check = 0, allow = 0, rc = 0, broken = 0;
	for (int i = 1; i < argc && !rc; i++) {
		if (!strcmp(argv[i], "--markdown"))
			md = 1;
		else if (!strcmp(argv[i], "--check"))
			check = 1;
		else if (!strcmp(argv[i], "--allow-missing"))
			allow = 1;
		else if ((v = cli_opt_value(CMD, argc, argv, &i, "--corpus", 0, &rc)))
			corpus = v;
		else if (!rc)
			rc = cli_usage_error(CMD, "unexpected argument '%s'", argv[i]);
	}
	if (rc)
		return rc;
	size_t nm;
	char **machines = corpus_list(corpus, CORPUS_MACHINES, MAX_MACHINES, &nm);
	if (!machines) {
		cli_error("%s: cannot read: %s", corpus,
			  errno == EMFILE ? "more machine folders than 64" : strerror(errno));
		return EXIT_USAGE;
	}
	/* The broken bounds after the table, which they would cut. */
	char *overs = NULL;
	size_t nover = 0;
	FILE *over = open_memstream(&overs, &nover);
	if (!over) {
		corpus_free_list(machines, nm);
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	if (md)
		printf("| machine | policy | row | cache | regret by band (geomean) | worst size |\n"
		       "|---|---|---|---|---|---|\n");
	/* Every machine first: each one's default row "unseen" is derived
	 * from the others. */
	struct loaded *all = calloc(nm ? nm : 1, sizeof *all);
	struct regret_data **data = calloc(nm ? nm : 1, sizeof *data);
	size_t judged = 0;
	if (!all || !data) {
		cli_error("out of memory");
		rc = EXIT_FAIL;
	}
	for (size_t i = 0; i < nm && !rc; i++) {
		char files[1024];
		rc = machine_read(corpus, machines[i], allow, &all[i], files, sizeof files);
		if (!rc && all[i].n >= 2 && !(data[i] = regret_read(all[i].r, all[i].n))) {
			cli_error("out of memory");
			rc = EXIT_FAIL;
		}
	}
	for (size_t i = 0; i < nm && !rc; i++)
		if (data[i]) {
			rc = one_machine(over, machines[i], all, data, nm, i, md, &broken);
			judged++;
		}
	for (size_t i = 0; all && data && i < nm; i++) {
		loaded_release(&all[i]);
		free(data[i]);
	}
	free(all);
	free(data);
	corpus_free_list(machines, nm);
	fclose(over);
	if (!rc && md && nover)
		printf("\n");
	if (!rc)
		fwrite(overs, 1, nover, stdout);
	free(overs);
	if (!rc && !judged)
		rc = cli_usage_error(CMD, "%s: no machine folder with two reports or more", corpus);
	return rc ? rc : check && broken ? EXIT_FAIL : EXIT_OK;
}
