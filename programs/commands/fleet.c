/*
 * fleet.c - `ucopy fleet`: many machines' `ucopy report --json` files as one
 * page, side by side (fleet.h, fleet_write.h; docs/fleet.md).
 */
#include "cli.h"
#include "fleet.h"
#include "fleet_write.h"
#include "outfile.h"

#include <stdio.h>
#include <string.h>

#define CMD "fleet"

void help_fleet(FILE *f)
{
	fputs("usage: ucopy fleet [-o FILE] [--json FILE] [--skip-bad] [-q] REPORT.json[.gz]...\n\n"
	      "Reads reports that `ucopy report --json` wrote on many machines (gzipped\n"
	      "or not, of any architecture) and writes one self-contained page with a\n"
	      "column per machine: its CPU and reports; what differs between the\n"
	      "machines, in sentences computed from the numbers; the fastest kernel by\n"
	      "size as a strip per machine, hot and cold; ucopy against libc on the\n"
	      "size classes and distributions, and the cliffs; the historic Linux\n"
	      "policies on each workload; auto's regret on each machine's own reports\n"
	      "(two or more) and the policies the reports record.  The reports of one\n"
	      "CPU (vendor, family, model, stepping, brand) are one machine, shown by\n"
	      "its newest.  A report made under an emulator is shown, marked, and left\n"
	      "out of every comparison.  One made with `ucopy report --assume-features`\n"
	      "is a column of its own, labelled with the list, in the machines table\n"
	      "and the historic policies alone.  `make fleet` runs it over\n"
	      "data/machines.\n\n"
	      "  -o, --output FILE  the page (default fleet.html; - for stdout)\n"
	      "  --json FILE        also write every number on the page as JSON\n"
	      "  --skip-bad         leave out a file that is not a report this ucopy reads,\n"
	      "                     naming it on stderr and on the page, and go on\n"
	      "  -q, --quiet        no line on stderr when done\n\n"
	      "A file that is not a report (not JSON, not a whole gzip file, a schema\n"
	      "this ucopy does not know, a directory, missing) is named with the reason\n"
	      "and nothing is written (exit 2), unless --skip-bad leaves it out.\n", f);
}

struct fleet_args {
	const char *out, *json;
	int skip_bad, quiet;
	char **files;
	size_t nfiles;
};

static int parse_args(int argc, char **argv, struct fleet_args *o)
{
	int bad = 0;
	memset(o, 0, sizeof *o);
	o->out = "fleet.html";
	o->files = argv + 1;
	for (int i = 1; i < argc && !bad; i++) {
		const char *a = argv[i], *v;
		if ((v = cli_opt_value2(CMD, argc, argv, &i, "-o", "--output", CLI_VALUE_STDIO, &bad)))
			o->out = v;
		else if ((v = cli_opt_value(CMD, argc, argv, &i, "--json", CLI_VALUE_STDIO, &bad)))
			o->json = v;
		else if (bad)
			break;
		else if (!strcmp(a, "--skip-bad"))
			o->skip_bad = 1;
		else if (!strcmp(a, "-q") || !strcmp(a, "--quiet"))
			o->quiet = 1;
		else if (a[0] == '-' && a[1])
			return cli_usage_error(CMD, "unknown option '%s'", a);
		else
			o->files[o->nfiles++] = argv[i];
	}
	if (bad)
		return bad;
	if (!o->nfiles)
		return cli_usage_error(CMD, "no report given (expected REPORT.json or "
				       "REPORT.json.gz files)");
	if (!o->out[0])
		return cli_usage_error(CMD, "empty output path after -o");
	if (o->json && (!o->json[0] || !strcmp(o->json, o->out)))
		return cli_usage_error(CMD, "bad --json path '%s' (expected a file other than the "
				       "page)", o->json);
	for (size_t i = 0; i < o->nfiles; i++)
		if (outfile_not_input(CMD, o->out, "report", o->files[i]) ||
		    (o->json && outfile_not_input(CMD, o->json, "report", o->files[i])))
			return EXIT_USAGE;
	return 0;
}

/* Every file read: a bad one ends the run, or with --skip-bad is named
 * and left out.  @return : 0, or the exit status after the message. */
static int read_all(const struct fleet_args *o, struct fleet *fl)
{
	size_t good = 0;
	for (size_t i = 0; i < o->nfiles; i++) {
		char err[512];
		int rc = fleet_add(fl, o->files[i], err, sizeof err);
		if (rc == -2) {
			cli_error("%s", err);
			return EXIT_USAGE;
		}
		if (rc && !o->skip_bad) {
			cli_error("%s: %s", o->files[i], err);
			return EXIT_USAGE;
		}
		if (rc)
			cli_error("%s: %s (left out: --skip-bad)", o->files[i], err);
		good += !rc;
	}
	if (!good) {
		cli_error("no report left to show: every file was bad");
		return EXIT_USAGE;
	}
	char err[512];
	if (fleet_build(fl, err, sizeof err)) {
		cli_error("%s", err);
		return EXIT_USAGE;
	}
	return 0;
}

int cmd_fleet(int argc, char **argv)
{
	struct fleet_args o;
	struct fleet fl = { 0 };
	struct outfile page = { 0 }, json = { 0 };
	int rc = parse_args(argc, argv, &o);
	if (rc)
		return rc;
	if ((rc = read_all(&o, &fl)))
		goto out;
	if ((rc = outfile_open(&page, CMD, o.out)))
		goto out;
	if (o.json && (rc = outfile_open(&json, CMD, o.json)))
		goto out;
	if (page.target && json.target && !strcmp(page.target, json.target)) {
		rc = cli_usage_error(CMD, "bad --json path '%s' (expected a file other than the "
				     "page)", o.json);
		goto out;
	}
	fleet_write_html(page.f, &fl);
	if (o.json)
		fleet_write_json(json.f, &fl);
	rc = outfile_commit_all((struct outfile *const[]){ &page, &json }, 2);
	size_t nown = 0;
	char assumed[64] = "";
	for (size_t i = 0; i < fl.nm; i++)
		nown += fleet_own_features(&fl, i);
	if (nown < fl.nm)
		snprintf(assumed, sizeof assumed, ", %zu column%s of assumed features",
			 fl.nm - nown, fl.nm - nown == 1 ? "" : "s");
	if (!rc && !o.quiet)
		fprintf(stderr, "fleet: wrote %s%s%s (%zu machine%s%s)\n",
			!strcmp(o.out, "-") ? "the page to stdout" : o.out, o.json ? " and " : "",
			o.json ? (!strcmp(o.json, "-") ? "the JSON to stdout" : o.json) : "", fl.ncpu,
			fl.ncpu == 1 ? "" : "s", assumed);
out:
	outfile_abandon(&page);
	outfile_abandon(&json);
	fleet_free(&fl);
	return rc;
}
