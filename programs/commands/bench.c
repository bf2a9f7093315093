/*
 * bench.c - `ucopy bench`: time kernels and policies over sizes, alignments,
 * distances, cache states and size distributions.
 *
 * Everything the user typed is checked before anything is timed, so a bad
 * input costs nothing and prints nothing on stdout; the results are written
 * only once every cell is measured.
 */
#include "cli.h"
#include "datadir.h"
#include "dist.h"
#include "json.h"
#include "machine.h"
#include "measure.h"
#include "outfile.h"
#include "output.h"
#include "scrub.h"
#include "sequence.h"
#include "sizespec.h"
#include "stats.h"
#include "ucopy.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CMD "bench"
/* Buffers for one copy are mapped twice over; 1 GiB keeps that sane. */
#define MAX_SIZE ((size_t)1 << 30)
/* --repeat-len: past a million copies nothing is "repeated" any more. */
#define MAX_REPEAT_LEN ((size_t)1 << 20)
/* --scrub's largest: no batch is longer (cell_plan_batch()). */
#define MAX_SCRUB_EVERY ((size_t)1 << 24)
#define LEVEL 0.95

void help_bench(FILE *f)
{
	fputs("usage: ucopy bench [OPTIONS]\n\n"
	      "Times copy kernels and policies, interleaved in rounds, and prints per\n"
	      "cell the median ns per copy, p10 and p90, GB/s, and the ratio to the\n"
	      "first variant with a 95% confidence interval.\n\n"
	      "  --kernels LIST     kernels to time (default: every kernel this CPU runs;\n"
	      "                     'all' says the same; libc is the C library's memcpy)\n"
	      "  --policies LIST    named policies (linux-6.4, auto, ...) or policy text\n"
	      "                     (64:word,movsb); may be repeated; one that names a\n"
	      "                     kernel this CPU does not run is refused\n"
	      "  --entries LIST     the library's entry points as a program calls them:\n"
	      "                     ucopy_memcpy, ucopy_try, ucopy_from (the active\n"
	      "                     policy), ucopy_try_sigsafe (no signals: system\n"
	      "                     calls) and memcpy (the C library's, called\n"
	      "                     directly); may be repeated\n"
	      "  --sizes SPEC       64 | 1-256 | 64,4K,1M | 1K-1M:x2 | 1-64:+8\n"
	      "                     (default: 1-1M:x2)\n"
	      "  --src-align LIST   source offsets within a page, 0..4095 (default 0)\n"
	      "  --dst-align LIST   destination offsets within a page (default 0)\n"
	      "  --distance LIST    (dst - src) mod 4096, 0..4095; sets the destination\n"
	      "                     offset to src-align + distance (not with --dst-align)\n"
	      "  --cache STATE      hot (default; same buffers every copy), warm (walks\n"
	      "                     L2/4 per side: misses L1d), cold (walks 4x the LLC\n"
	      "                     or flushes: every copy misses every cache)\n"
	      "  --dist FILE        draw sizes from a distribution (fleetbench, LLVM libc,\n"
	      "                     or 'SIZE WEIGHT' lines) with random offsets; not with\n"
	      "                     --sizes, --src-align, --dst-align or --distance.\n"
	      "                     A bare name is one that ships with ucopy:\n"
	      "                     --dist Memcpy_Fleet (.csv optional)\n"
	      "  --regime R         the order --dist's sizes come in: unlearnable (default;\n"
	      "                     65536 copies, more than a branch predictor learns),\n"
	      "                     repeated (a short sequence played again and again:\n"
	      "                     sizes as predictable as a loop's) or both (one cell\n"
	      "                     each); every result names its regime\n"
	      "  --repeat-len N     copies in the repeated sequence (default 8192: Zen 5\n"
	      "                     learns 8192 and not 65536; docs/bench.md)\n"
	      "  --replay FILE      replay a sequence `ucopy trace` recorded ('# ucopy\n"
	      "                     sequence 1'): every call's size, alignments and\n"
	      "                     distance, in order, all threads' calls one thread\n"
	      "                     after another; not with --dist, --sizes or offsets\n"
	      "  --list-dists       list the distributions that ship with ucopy and the\n"
	      "                     directory they were found in ($UCOPY_DATA_DIR, the\n"
	      "                     source tree beside the command, or the installed\n"
	      "                     ones), and time nothing\n"
	      "  --seconds S        the whole time budget (default 2, at most 86400)\n"
	      "  --max-memory SIZE  the most the buffers may take (default: half the\n"
	      "                     memory); a grid that needs more, or more time than\n"
	      "                     --seconds, is refused before anything is timed\n"
	      "  --event EVENT      count EVENT too, per copy, beside cycles and\n"
	      "                     instructions: raw:0xHEX (a raw PMU event number),\n"
	      "                     PMU/NAME or NAME as `perf list` shows it (resolved\n"
	      "                     from /sys/bus/event_source/devices); up to 4 times.\n"
	      "                     An event the kernel refuses is listed as unavailable\n"
	      "  --scrub K          the company condition: run the scrubber (fixed,\n"
	      "                     copy-like code with unlearnable branches) after\n"
	      "                     every K copies (256..16M), untimed, instead of\n"
	      "                     timing each variant at its steady state; every\n"
	      "                     result names it (docs/bench.md, \"Company\")\n"
	      "  --seed N           seed for --dist's size sequence (default: fresh,\n"
	      "                     printed with the results); without --dist nothing\n"
	      "                     is drawn and it only labels the results\n"
	      "  --format FMT       table (default), csv or json\n"
	      "  -o FILE            write the results to FILE instead of stdout\n"
	      "  -q                 no progress line on stderr\n\n"
	      "Example: the rep movsb 4K-aliasing cliff (AMD Zen 3):\n"
	      "  ucopy bench --kernels movsb,avx2 --sizes 4352 --distance 1,2048\n", f);
}

enum format { FMT_TABLE, FMT_CSV, FMT_JSON };

struct offsets {
	size_t *v;
	size_t n;
};

struct bench {
	/* What was asked. */
	struct variant *var;
	struct ucopy_policy *pol;   /* one per policy variant */
	char **pol_text;            /* its resolved text */
	size_t nvar, npol;
	struct sizes sizes;
	struct sizes src_align, dst_align, distance;
	int have_dst_align, have_distance, have_sizes;
	enum cache_state cache;
	const char *dist_path;
	struct dist dist;
	int have_dist;
	enum dist_regime regime[2];  /* of each drawn sequence */
	struct copy_seq drawn[2];
	size_t repeat_len;
	const char *replay_path;
	struct replay replay;
	int have_replay;
	size_t nseq;                 /* --dist or --replay: cells of one sequence each */
	double seconds;
	size_t max_memory;          /* --max-memory, or the default */
	int have_max_memory;
	uint64_t seed;
	size_t scrub_every;          /* --scrub: 0, or copies between scrubs */
	enum format format;
	const char *out_path;
	int quiet;
	/* What was measured: one row per variant per cell. */
	struct row *row;
	size_t nrows;
	const char *ctr_reason[CTR_SLOTS];
	struct counter_events events;   /* --event */
	/* Progress. */
	size_t cells, cell;
	double started, last_progress, cell_seconds;
	double elapsed;             /* the measurement's seconds, by its own clock */
	int progress;
};

struct row {
	size_t variant;
	size_t size;              /* SIZE_MAX: a sequence, the seq-th */
	size_t seq;
	uint32_t src_off, dst_off;
	struct variant_summary s;
	size_t rounds, batch;
	size_t slow_rounds;       /* measure_slow_rounds() of its cell */
	uint64_t copies;
	uint64_t steady_passes;   /* untimed passes to its steady state */
	uint64_t steady_capped;   /* batches a bound ended the passes of */
	uint64_t scrubs;          /* runs of the scrubber in its batches */
};

static void bench_free(struct bench *b)
{
	for (size_t i = 0; i < b->npol; i++)
		free(b->pol_text[i]);
	free(b->pol_text);
	free(b->pol);
	free(b->var);
	sizes_free(&b->sizes);
	sizes_free(&b->src_align);
	sizes_free(&b->dst_align);
	sizes_free(&b->distance);
	dist_free(&b->dist);
	for (size_t i = 0; i < 2; i++)
		copy_seq_free(&b->drawn[i]);
	replay_free(&b->replay);
	free(b->row);
}

static int add_variant(struct bench *b, struct variant **v)
{
	struct variant *p = realloc(b->var, (b->nvar + 1) * sizeof *p);
	if (!p)
		return -1;
	b->var = p;
	*v = &p[b->nvar++];
	return 0;
}

static void kernel_names(char *buf, size_t len)
{
	size_t off = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < ucopy_kernel_count() && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? ", " : "",
					ucopy_kernel_at(i)->name);
}

static int add_kernels(struct bench *b, const char *list)
{
	uint64_t have = ucopy_cpu()->features;
	if (!strcmp(list, "all")) {
		for (size_t i = 0; i < ucopy_kernel_count(); i++) {
			const struct ucopy_kernel *k = ucopy_kernel_at(i);
			struct variant *v;
			if (!ucopy_kernel_supported(k, have))
				continue;
			if (add_variant(b, &v) < 0)
				return cli_usage_error(CMD, "out of memory");
			variant_kernel(v, k);
		}
		return 0;
	}
	const char *p = list;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char name[64];
		if (len == 0 || len >= sizeof name) {
			char names[512];
			kernel_names(names, sizeof names);
			return cli_usage_error(CMD, "bad kernel list '%s' (expected names from: %s)",
					       list, names);
		}
		memcpy(name, p, len);
		name[len] = '\0';
		const struct ucopy_kernel *k = ucopy_kernel_find(name);
		if (!k) {
			char names[512];
			kernel_names(names, sizeof names);
			return cli_usage_error(CMD, "unknown kernel '%s' (expected one of: %s)",
					       name, names);
		}
		if (!ucopy_kernel_supported(k, have)) {
			char need[256], why[160];
			ucopy_features_format(k->requires & ~have, ",", need, sizeof need);
			cli_mask_note(k, why, sizeof why);
			return cli_usage_error(CMD, "kernel '%s' needs %s, which this CPU lacks%s",
					       name, need, why);
		}
		struct variant *v;
		if (add_variant(b, &v) < 0)
			return cli_usage_error(CMD, "out of memory");
		variant_kernel(v, k);
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

/* Entry points are timed as a program calls them, so what the entry itself
 * costs (the first-rule test, the fault-tolerant flag) is in the numbers. */
static const struct entry {
	const char *name;
	void *(*copy)(void *, const void *, size_t);
	size_t (*try)(void *, const void *, size_t);
} entries[] = {
	{ "ucopy_memcpy", ucopy_memcpy, NULL },
	{ "ucopy_try", NULL, ucopy_try },
	{ "ucopy_from", NULL, ucopy_from },
	{ "ucopy_try_sigsafe", NULL, ucopy_try_sigsafe },
	{ "memcpy", memcpy, NULL },
};

static int add_entries(struct bench *b, const char *list)
{
	const char *p = list;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		const struct entry *e = NULL;
		for (size_t i = 0; i < sizeof entries / sizeof *entries; i++)
			if (strlen(entries[i].name) == len && !strncmp(entries[i].name, p, len))
				e = &entries[i];
		if (!e)
			return cli_usage_error(CMD, "unknown entry point '%.*s' in '%s' (expected "
					       "ucopy_memcpy, ucopy_try, ucopy_from, ucopy_try_sigsafe "
					       "or memcpy)",
					       (int)len, p, list);
		struct variant *v;
		if (add_variant(b, &v) < 0)
			return cli_usage_error(CMD, "out of memory");
		if (e->copy)
			variant_memcpy(v, e->name, e->copy);
		else
			variant_try(v, e->name, e->try);
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

/* A comma both separates policies and appears inside policy text: a token
 * with a ':' is a rule with a limit, so it and the tokens up to the next one
 * without a limit (the last rule) form one policy; any other token is a
 * policy name or a kernel name on its own. */
/* The next policy of a --policies list that starts at p, resolved by the
 * library: the shortest run of items up to a comma (or the end) that
 * ucopy_policy_resolve() accepts ("linux-6.4", "64:word,movsb"), so that
 * policy text's own commas need no grammar here.  When no run resolves, the
 * error is the one for all of the rest (*end at the end).
 * @return : the text in a malloc'd string (NULL when out of memory), with the
 *           policy in *pol and *ok, or *ok == 0 and the message in err. */
static char *next_policy(const char *p, uint64_t have, struct ucopy_policy *pol,
			 int *ok, const char **end, char *err, size_t errlen)
{
	for (const char *q = p;;) {
		const char *comma = strchr(q, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char *spec = malloc(len + 1);
		if (!spec)
			return NULL;
		memcpy(spec, p, len);
		spec[len] = '\0';
		err[0] = '\0';
		/* An empty item is a policy of its own, and an error. */
		*ok = len > 0 && ucopy_policy_resolve(pol, spec, have, err, errlen) == 0;
		if (*ok || !comma || len == 0) {
			*end = p + len;
			return spec;
		}
		free(spec);
		q = comma + 1;
	}
}

static int add_policies(struct bench *b, const char *list)
{
	uint64_t have = ucopy_cpu()->features;
	const char *p = list;
	if (!*p)
		return cli_usage_error(CMD, "empty policy list (expected names or policy text)");
	while (*p) {
		struct ucopy_policy pol;
		char err[512] = "";
		const char *q;
		int ok;
		char *spec = next_policy(p, have, &pol, &ok, &q, err, sizeof err);
		if (!spec)
			return cli_usage_error(CMD, "out of memory");
		if (!ok) {
			int rc = cli_usage_error(CMD, "bad policy '%s': %s", spec,
						 err[0] ? err : "empty");
			free(spec);
			return rc;
		}
		/* ucopy_memcpy would run another kernel in place of one this
		 * CPU lacks; a row named after the one asked for would time
		 * the other.  So refused, as --kernels refuses it. */
		if (cli_policy_fits(&pol, err, sizeof err)) {
			int rc = cli_usage_error(CMD, "bad policy '%s': %s; name those it runs "
						 "('ucopy features')", spec, err);
			free(spec);
			return rc;
		}
		struct ucopy_policy *np = realloc(b->pol, (b->npol + 1) * sizeof *np);
		char **nt = np ? realloc(b->pol_text, (b->npol + 1) * sizeof *nt) : NULL;
		if (np)
			b->pol = np;
		if (nt)
			b->pol_text = nt;
		char text[512];
		ucopy_policy_format(&pol, text, sizeof text);
		char *t = nt ? malloc(strlen(text) + 1) : NULL;
		if (!t) {
			free(spec);
			return cli_usage_error(CMD, "out of memory");
		}
		strcpy(t, text);
		b->pol[b->npol] = pol;
		b->pol_text[b->npol] = t;
		b->npol++;
		/* Variants point at policies only once the array stops moving
		 * (see resolve_policy_pointers). */
		struct variant *v;
		if (add_variant(b, &v) < 0) {
			free(spec);
			return cli_usage_error(CMD, "out of memory");
		}
		variant_policy(v, spec, NULL, 0);
		v->ctx = (void *)(uintptr_t)(b->npol - 1);
		free(spec);
		p = *q ? q + 1 : q;
		if (*q && !*p)
			return cli_usage_error(CMD, "bad policy list '%s' (ends with a comma)", list);
	}
	return 0;
}

static void resolve_policy_pointers(struct bench *b)
{
	for (size_t i = 0; i < b->nvar; i++)
		if (b->var[i].kind == VARIANT_POLICY)
			b->var[i].policy = &b->pol[(uintptr_t)b->var[i].ctx];
}

static int parse_offsets(const char *opt, const char *arg, struct sizes *out)
{
	char err[256];
	sizes_free(out);
	/* The parser checks a range's end before it counts the range, so
	 * "0-10G" is an offset too large, not too many offsets.  A distance
	 * is no page offset, and its message says so. */
	const char *noun = strcmp(opt, "--distance") ? "offset" : "distance";
	if (sizespec_parse(arg, noun, 0, 4095, out, err, sizeof err) == 0)
		return 0;
	return cli_usage_error(CMD, "%s: %s", opt, err);
}

/* --regime and --repeat-len into b->regime[], b->nseq and b->repeat_len. */
static int parse_regimes(struct bench *b, const char *regime, const char *repeat)
{
	b->nseq = 1;
	b->regime[0] = REGIME_UNLEARNABLE;
	b->repeat_len = DIST_SEQ_REPEAT_DEFAULT;
	if (regime && !strcmp(regime, "both")) {
		b->nseq = 2;
		b->regime[1] = REGIME_REPEATED;
	} else if (regime && dist_regime_parse(regime, &b->regime[0]) < 0) {
		return cli_usage_error(CMD, "bad regime '%s' (expected unlearnable, repeated or both)",
				       regime);
	}
	if (!repeat)
		return 0;
	if (b->regime[b->nseq - 1] != REGIME_REPEATED)
		return cli_usage_error(CMD, "--repeat-len is the length of the repeated regime (expected --regime repeated or both)");
	if (ucopy_size_parse(repeat, &b->repeat_len, NULL, 0) < 0 || b->repeat_len == 0 ||
	    b->repeat_len > MAX_REPEAT_LEN)
		return cli_usage_error(CMD, "bad --repeat-len '%s' (expected 1..%zu copies)", repeat,
				       MAX_REPEAT_LEN);
	return 0;
}

static int parse_args(struct bench *b, int argc, char **argv)
{
	const char *kernels = NULL, *sizes = NULL, *cache = NULL, *format = NULL;
	const char *regime = NULL, *repeat = NULL;
	b->seconds = 2;
	b->max_memory = cli_default_max_memory();
	b->seed = rng_fresh_seed();
	for (int i = 1; i < argc; i++) {
		int rc = 0;
		const char *v;
		const char *a = argv[i];
		if ((v = cli_opt_value(CMD, argc, argv, &i, "--kernels", 0, &rc))) {
			kernels = v;
		} else if ((v = cli_opt_value(CMD, argc, argv, &i, "--policies", CLI_REPEAT, &rc))) {
			if ((rc = add_policies(b, v)))
				return rc;
		} else if ((v = cli_opt_value(CMD, argc, argv, &i, "--entries", CLI_REPEAT, &rc))) {
			if ((rc = add_entries(b, v)))
				return rc;
		} else if ((v = cli_opt_value(CMD, argc, argv, &i, "--sizes", 0, &rc))) {
			sizes = v;
		} else if ((v = cli_opt_value(CMD, argc, argv, &i, "--src-align", 0, &rc))) {
			if ((rc = parse_offsets("--src-align", v, &b->src_align)))
				return rc;
		} else if ((v = cli_opt_value(CMD, argc, argv, &i, "--dst-align", 0, &rc))) {
			if ((rc = parse_offsets("--dst-align", v, &b->dst_align)))
				return rc;
			b->have_dst_align = 1;
		} else if ((v = cli_opt_value(CMD, argc, argv, &i, "--distance", 0, &rc))) {
			if ((rc = parse_offsets("--distance", v, &b->distance)))
				return rc;
			b->have_distance = 1;
		} else if ((v = cli_opt_value(CMD, argc, argv, &i, "--cache", 0, &rc))) {
			cache = v;
		} else if ((v = cli_opt_value(CMD, argc, argv, &i, "--dist", 0, &rc))) {
			b->dist_path = v;
		} else if ((v = cli_opt_value(CMD, argc, argv, &i, "--regime", 0, &rc))) {
			regime = v;
		} else if ((v = cli_opt_value(CMD, argc, argv, &i, "--repeat-len",
					      CLI_VALUE_NUMBER, &rc))) {
			repeat = v;
		} else if ((v = cli_opt_value(CMD, argc, argv, &i, "--replay", 0, &rc))) {
			b->replay_path = v;
		} else if ((v = cli_opt_value(CMD, argc, argv, &i, "--seconds",
					      CLI_VALUE_NUMBER, &rc))) {
			if ((rc = cli_parse_seconds(CMD, v, &b->seconds)))
				return rc;
		} else if ((v = cli_opt_value(CMD, argc, argv, &i, "--max-memory", 0, &rc))) {
			if ((rc = cli_parse_memory(CMD, v, &b->max_memory)))
				return rc;
			b->have_max_memory = 1;
		} else if ((v = cli_opt_value(CMD, argc, argv, &i, "--event", CLI_REPEAT, &rc))) {
			if ((rc = cli_parse_event(CMD, v, &b->events)))
				return rc;
		} else if ((v = cli_opt_value(CMD, argc, argv, &i, "--seed",
					      CLI_VALUE_NUMBER, &rc))) {
			if ((rc = cli_parse_seed(CMD, v, &b->seed)))
				return rc;
		} else if ((v = cli_opt_value(CMD, argc, argv, &i, "--scrub",
					      CLI_VALUE_NUMBER, &rc))) {
			if (ucopy_size_parse(v, &b->scrub_every, NULL, 0) < 0 ||
			    b->scrub_every < SCRUB_MIN_EVERY || b->scrub_every > MAX_SCRUB_EVERY)
				return cli_usage_error(CMD, "bad --scrub '%s' (expected %d..%zu copies "
						       "between runs of the scrubber)", v,
						       SCRUB_MIN_EVERY, MAX_SCRUB_EVERY);
		} else if ((v = cli_opt_value(CMD, argc, argv, &i, "--format", 0, &rc))) {
			format = v;
		} else if ((v = cli_opt_value(CMD, argc, argv, &i, "-o", 0, &rc))) {
			b->out_path = v;
		} else if (!rc && !strcmp(a, "-q")) {
			b->quiet = 1;
		} else if (!rc) {
			if (a[0] == '-')
				return cli_usage_error(CMD, "unknown option '%s'", a);
			return cli_usage_error(CMD, "unexpected argument '%s'", a);
		}
		if (rc)
			return rc;
	}

	if (format) {
		if (!strcmp(format, "table"))
			b->format = FMT_TABLE;
		else if (!strcmp(format, "csv"))
			b->format = FMT_CSV;
		else if (!strcmp(format, "json"))
			b->format = FMT_JSON;
		else
			return cli_usage_error(CMD, "bad format '%s' (expected table, csv or json)",
					       format);
	}
	if (cache && cache_parse(cache, &b->cache) < 0)
		return cli_usage_error(CMD, "bad cache state '%s' (expected hot, warm or cold)",
				       cache);
	if (b->have_distance && b->have_dst_align)
		return cli_usage_error(CMD, "--distance and --dst-align both set the destination offset (give one)");
	if (b->dist_path && (sizes || b->src_align.n || b->have_dst_align || b->have_distance))
		return cli_usage_error(CMD, "--dist draws sizes and offsets itself (not with --sizes, --src-align, --dst-align or --distance)");
	if (b->replay_path && (b->dist_path || sizes || b->src_align.n || b->have_dst_align ||
			       b->have_distance))
		return cli_usage_error(CMD, "--replay replays recorded sizes and offsets (not with --dist, --sizes, --src-align, --dst-align or --distance)");
	if ((regime || repeat) && !b->dist_path)
		return cli_usage_error(CMD, "%s orders the sizes --dist draws (expected --dist FILE)",
				       regime ? "--regime" : "--repeat-len");
	int rc = parse_regimes(b, regime, repeat);
	if (rc)
		return rc;
	if (b->out_path && !b->out_path[0])
		return cli_usage_error(CMD, "empty output file name (-o FILE)");

	if (kernels || !b->nvar) {
		size_t before = b->nvar;
		rc = add_kernels(b, kernels ? kernels : "all");
		if (rc)
			return rc;
		/* Kernels come first: the first variant is the baseline. */
		if (before) {
			struct variant *tmp = malloc(b->nvar * sizeof *tmp);
			if (!tmp)
				return cli_usage_error(CMD, "out of memory");
			memcpy(tmp, b->var + before, (b->nvar - before) * sizeof *tmp);
			memcpy(tmp + (b->nvar - before), b->var, before * sizeof *tmp);
			memcpy(b->var, tmp, b->nvar * sizeof *tmp);
			free(tmp);
		}
	}
	if (b->nvar == 0)
		return cli_usage_error(CMD, "no kernel or policy to time");
	/* A row is known by its name alone (table, CSV, the JSON's results). */
	for (size_t i = 0; i < b->nvar; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(b->var[i].name, b->var[j].name))
				return cli_usage_error(CMD, "'%s' is named twice among the kernels, "
						       "policies and entries: its rows could not be "
						       "told apart (expected each once)",
						       b->var[i].name);
	resolve_policy_pointers(b);

	char err[512];
	if (b->dist_path) {
		static char path[4096];   /* b->dist_path from here on */
		if (data_dist_path(b->dist_path, path, sizeof path, err, sizeof err) < 0 ||
		    dist_read_file(path, &b->dist, err, sizeof err) < 0)
			return cli_usage_error(CMD, "%s", err);
		if ((rc = outfile_not_input(CMD, b->out_path, "--dist", path)))
			return rc;
		b->dist_path = path;
		b->have_dist = 1;
		for (size_t k = 0; k < b->nseq; k++)
			if (dist_regime_sample(&b->dist, b->regime[k], b->repeat_len, b->seed,
					       &b->drawn[k]) < 0)
				return cli_usage_error(CMD, "out of memory");
	} else if (b->replay_path) {
		if (replay_read_file(b->replay_path, &b->replay, err, sizeof err) < 0)
			return cli_usage_error(CMD, "%s", err);
		if ((rc = outfile_not_input(CMD, b->out_path, "--replay", b->replay_path)))
			return rc;
		b->have_replay = 1;
		b->nseq = 1;
	} else {
		b->have_sizes = 1;
		if (sizespec_parse(sizes ? sizes : "1-1M:x2", NULL, 100000, MAX_SIZE, &b->sizes, err,
				   sizeof err) < 0)
			return cli_usage_error(CMD, "--sizes: %s", err);
	}
	if (!b->src_align.n && parse_offsets("--src-align", "0", &b->src_align))
		return EXIT_USAGE;
	if (!b->have_distance && !b->have_dst_align &&
	    parse_offsets("--dst-align", "0", &b->dst_align))
		return EXIT_USAGE;
	return 0;
}

static void show_progress(void *ctx, double done)
{
	struct bench *b = ctx;
	double now = clock_seconds();
	if (!b->progress || now - b->last_progress < 0.1)
		return;
	b->last_progress = now;
	double frac = ((double)b->cell + done) / (double)b->cells;
	double left = (1 - frac) * b->seconds;
	fprintf(stderr, "\rucopy bench: %3.0f%% (%.0f s left) ", 100 * frac, ceil(left));
	fflush(stderr);
}

/* A run of copy sequences (--dist, --replay) rather than of fixed sizes:
 * one cell per sequence, its offsets its own. */
static int seq_run(const struct bench *b)
{
	return b->have_dist || b->have_replay;
}

static const struct copy_seq *seq_at(const struct bench *b, size_t i)
{
	return b->have_replay ? &b->replay.seq : &b->drawn[i];
}

static void seq_cell(const struct bench *b, size_t i, struct cell *c)
{
	if (b->have_replay)
		replay_cell(c, &b->replay, b->cache);
	else
		cell_init_drawn(c, &b->drawn[i], b->cache);
}

/* How many sizes, source offsets and destination offsets the grid has. */
static void grid(const struct bench *b, size_t *nsize, size_t *nsrc, size_t *ndst)
{
	*nsize = seq_run(b) ? b->nseq : b->sizes.n;
	*nsrc = seq_run(b) ? 1 : b->src_align.n;
	*ndst = seq_run(b) ? 1 : b->have_distance ? b->distance.n : b->dst_align.n;
}

static size_t count_cells(const struct bench *b)
{
	size_t nsize, nsrc, ndst;
	grid(b, &nsize, &nsrc, &ndst);
	return nsrc * ndst * nsize;
}

static size_t largest(const struct sizes *s)
{
	size_t m = 0;
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i] > m)
			m = s->v[i];
	return m;
}

/* A grid whose cells cannot all be measured in the budget, or whose buffers
 * would take more than --max-memory, is refused before anything runs: each
 * cell has a floor (warm-up, the fewest rounds that give an interval, its
 * copies at a speed no CPU reaches), and a grid of 16 million cells would
 * otherwise run for hours on a 1-second budget, a 1 GiB copy for 16 s on a
 * 0.1 s one. */
static int check_budget(const struct bench *b)
{
	size_t cells = count_cells(b), nsize, nsrc, ndst;
	grid(b, &nsize, &nsrc, &ndst);
	/* The largest base offsets (a distance's wraps below 4096). */
	size_t so = seq_run(b) ? 0 : largest(&b->src_align);
	size_t dof = seq_run(b) ? 0 : b->have_distance ? so + largest(&b->distance)
						     : largest(&b->dst_align);
	double need = 0;
	size_t map_s = 0, map_d = 0;
	for (size_t i = 0; i < nsize; i++) {
		struct copy_seq fixed = { 0 };
		struct cell c;
		/* Offsets 0 give cold cells their largest regions. */
		if (seq_run(b)) {
			seq_cell(b, i, &c);
		} else {
			if (copy_seq_fixed(&fixed, b->sizes.v[i], 0, 0) < 0)
				return cli_usage_error(CMD, "out of memory");
			cell_init(&c, &fixed, b->cache, 0, 0);
		}
		need += measure_cell_floor_seconds(&c, b->nvar, 0) * (double)(cells / nsize);
		c.src.offset = (uint32_t)so;
		c.dst.offset = (uint32_t)(dof < 4096 ? dof : 4095);
		size_t s, d;
		cell_map_bytes(&c, &s, &d);
		map_s = s > map_s ? s : map_s;
		map_d = d > map_d ? d : map_d;
		copy_seq_free(&fixed);
	}
	int rc = cli_check_memory(CMD, map_s + map_d, b->max_memory, b->have_max_memory);
	if (rc)
		return rc;
	need += measure_map_floor_seconds(map_s + map_d);
	if (need <= b->seconds)
		return 0;
	return cli_usage_error(CMD, "%zu cell%s of %zu variant%s need%s a budget of at least "
			       "%.*f s, more than --seconds %g (fewer or smaller sizes, fewer "
			       "offsets or variants, or more seconds)", cells,
			       cells == 1 ? "" : "s", b->nvar, b->nvar == 1 ? "" : "s",
			       cells == 1 ? "s" : "", need < 10 ? 3 : 0, need, b->seconds);
}

static int measure_all(struct bench *b)
{
	size_t nsize, nsrc, ndst;
	grid(b, &nsize, &nsrc, &ndst);
	b->cells = count_cells(b);
	b->row = calloc(b->cells * b->nvar, sizeof *b->row);
	struct variant_summary *sum = calloc(b->nvar, sizeof *sum);
	struct measure *m = measure_new();
	if (!b->row || !sum || !m) {
		free(sum);
		measure_free(m);
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	b->progress = !b->quiet && isatty(2) && b->seconds > 1;
	b->started = clock_seconds();
	b->last_progress = 0;
	struct measure_opts o = { .seconds = b->seconds / (double)b->cells,
				  .counters = 1, .events = &b->events,
				  .scrub_every = b->scrub_every,
				  .progress = show_progress,
				  .progress_ctx = b };
	int rc = EXIT_OK;
	b->cell = 0;
	for (size_t si = 0; si < nsize && rc == EXIT_OK; si++)
		for (size_t ai = 0; ai < nsrc && rc == EXIT_OK; ai++)
			for (size_t di = 0; di < ndst && rc == EXIT_OK; di++) {
				uint32_t so = 0, dof = 0;
				size_t size = SIZE_MAX;
				struct copy_seq fixed = { 0 };
				struct cell c;
				if (seq_run(b)) {
					seq_cell(b, si, &c);
				} else {
					size = b->sizes.v[si];
					so = (uint32_t)b->src_align.v[ai];
					dof = b->have_distance
						      ? (uint32_t)((so + b->distance.v[di]) % 4096)
						      : (uint32_t)b->dst_align.v[di];
					if (copy_seq_fixed(&fixed, size, 0, 0) < 0) {
						cli_error("out of memory");
						rc = EXIT_FAIL;
						break;
					}
					cell_init(&c, &fixed, b->cache, so, dof);
				}
				/* What is left of the budget, shared by the cells
				 * left: a cell that overran is paid for by the rest. */
				o.seconds = (b->seconds - (clock_seconds() - b->started)) /
					    (double)(b->cells - b->cell);
				struct cell_result r;
				char err[256];
				if (measure_cell(m, b->var, b->nvar, &c, &o, &r, err, sizeof err) < 0) {
					cli_error("%s", err);
					rc = EXIT_FAIL;
				} else {
					measure_summarize(&r, 0, LEVEL, sum);
					size_t slow = measure_slow_rounds(&r);
					for (size_t v = 0; v < b->nvar; v++) {
						struct row *w = &b->row[b->nrows++];
						w->variant = v;
						w->size = size;
						w->seq = si;
						w->src_off = so;
						w->dst_off = dof;
						w->s = sum[v];
						w->rounds = r.rounds;
						w->slow_rounds = slow;
						w->batch = r.batch;
						w->copies = r.v[v].copies;
						w->steady_passes = r.v[v].steady_passes;
						w->steady_capped = r.v[v].steady_capped;
						w->scrubs = r.v[v].scrubs;
					}
					for (int e = 0; e < CTR_SLOTS; e++)
						b->ctr_reason[e] = r.v[0].ctr_reason[e];
					cell_result_free(&r);
				}
				copy_seq_free(&fixed);
				b->cell++;
			}
	if (b->progress)
		fprintf(stderr, "\r%40s\r", "");
	b->elapsed = clock_seconds() - b->started;
	free(sum);
	measure_free(m);
	return rc;
}

static const char *seq_name(const struct bench *b)
{
	return path_base(b->have_replay ? b->replay_path : b->dist_path);
}

static const char *seq_regime(const struct bench *b, size_t i)
{
	return b->have_replay ? "recorded" : dist_regime_name(b->regime[i]);
}

/* The company condition's words for a replay's condition: the scrubber's,
 * else the steady state's where the sequence is one a predictor learns. */
static const char *scrub_text(const struct bench *b, int learnable)
{
	static char buf[64];
	if (b->scrub_every)
		snprintf(buf, sizeof buf, ", the scrubber after every %zu copies", b->scrub_every);
	else
		snprintf(buf, sizeof buf, "%s", learnable ? ", each variant at its steady state" : "");
	return buf;
}

/* What the sequence's numbers hold under, in words. */
static void seq_condition(const struct bench *b, size_t i, char *buf, size_t n)
{
	if (b->have_replay)
		snprintf(buf, n, "the recorded order of %zu calls from %zu thread%s (one thread's "
			 "calls after another's), repeated%s", b->replay.seq.len, b->replay.nthreads,
			 b->replay.nthreads == 1 ? "" : "s",
			 scrub_text(b, b->replay.seq.len < DIST_SEQ_UNLEARNABLE));
	else
		dist_regime_condition(b->regime[i], seq_at(b, i)->len, b->scrub_every, buf, n);
}

static const char *variant_kind_name(const struct variant *v)
{
	switch (v->kind) {
	case VARIANT_KERNEL: return "kernel";
	case VARIANT_MEMCPY: return v->kernel ? "kernel" : "entry";   /* libc */
	case VARIANT_TRY: return "entry";
	default: return "policy";
	}
}

/* Whether v is an entry that runs the active policy (ucopy_try_sigsafe
 * runs none: it copies through the kernel). */
static int runs_active(const struct variant *v)
{
	return (v->kind == VARIANT_MEMCPY && v->memcpy_fn == ucopy_memcpy) ||
	       (v->kind == VARIANT_TRY && (v->try_fn == ucopy_try || v->try_fn == ucopy_from));
}

static const char *variant_policy_text(const struct bench *b, const struct variant *v)
{
	static char active[1024];
	if (runs_active(v)) {
		ucopy_policy_format(ucopy_active()->policy, active, sizeof active);
		return active;
	}
	return v->kind == VARIANT_POLICY ? b->pol_text[(uintptr_t)v->ctx] : NULL;
}

/* The active policy, where it came from and the library's reason (a
 * profile at the default path that was ignored, say), on the table's
 * header: what the entries timed ran, which the user may not have chosen.
 * The path and the reason come from outside: escaped. */
static void write_active(const struct bench *b, const struct variant *v, FILE *f)
{
	const struct ucopy_active *a = ucopy_active();
	fprintf(f, "# the active policy (ucopy_memcpy, ucopy_try, ucopy_from) = %s (source %s",
		variant_policy_text(b, v), ucopy_source_name(a->source));
	if (a->reason[0]) {
		fputs("; ", f);
		fput_escaped_message(a->reason, f);   /* it names the profile */
	} else if (a->profile[0]) {
		fputs(", profile ", f);
		fput_escaped(a->profile, f);
	}
	fputs(")\n", f);
}

/* Under the table: measure_slow_note() over all cells' rounds. */
static void write_slow_note(const struct bench *b, FILE *f)
{
	size_t rounds = 0, slow = 0;
	for (size_t i = 0; i < b->nrows; i += b->nvar) {
		rounds += b->row[i].rounds;
		slow += b->row[i].slow_rounds;
	}
	char note[512];
	measure_slow_note(note, sizeof note, slow, rounds);
	if (note[0])
		fprintf(f, "# %s\n", note);
}

/* Under the table: the batches a bound kept from their steady state. */
static void write_steady_note(const struct bench *b, FILE *f)
{
	uint64_t capped = 0, batches = 0;
	for (size_t i = 0; i < b->nrows; i++)
		if (b->row[i].steady_passes || b->row[i].steady_capped) {
			capped += b->row[i].steady_capped;
			batches += b->row[i].rounds;
		}
	if (capped)
		fprintf(f, "# steady state: %llu of %llu batches began before it was seen (a "
			"bound ended their passes: docs/bench.md, \"Steady state\")\n",
			(unsigned long long)capped, (unsigned long long)batches);
}

static void write_table(const struct bench *b, FILE *f)
{
	char line[512], ghz[32];
	machine_cpu_line(line, sizeof line);
	fprintf(f, "# ucopy %s bench on %s\n", ucopy_version_string(), line);
	if (isnan(timer_tsc_ghz()))
		snprintf(ghz, sizeof ghz, "%s", timer_name());
	else
		snprintf(ghz, sizeof ghz, "%s %.3f GHz", timer_name(), timer_tsc_ghz());
	fprintf(f, "# %s, %s; timer %s; cache %s; budget %g s; seed %llu\n",
		machine_compiler(), machine_cflags(), ghz, cache_name(b->cache), b->seconds,
		(unsigned long long)b->seed);
	if (b->have_dist)
		fprintf(f, "# distribution %s (%s, %zu sizes, mean %.1f B)\n", b->dist_path,
			dist_format_name(b->dist.format), b->dist.n, b->dist.mean);
	if (b->have_replay)
		fprintf(f, "# replay %s (%zu calls, mean %.1f B, sizes up to %zu B)\n",
			b->replay_path, b->replay.seq.len, b->replay.seq.mean_n, b->replay.seq.max_n);
	for (size_t i = 0; seq_run(b) && i < b->nseq; i++) {
		char cond[256];
		seq_condition(b, i, cond, sizeof cond);
		fprintf(f, "# regime %s: %s\n", seq_regime(b, i), cond);
	}
	if (b->scrub_every)
		fprintf(f, "# company: the scrubber (%d copy-like size decisions) after every %zu "
			"copies, untimed, no steady state; counters not opened (docs/bench.md, "
			"\"Company\")\n", SCRUB_DECISIONS, b->scrub_every);
	for (size_t i = 0; i < b->nvar; i++)
		if (b->var[i].kind == VARIANT_POLICY)
			fprintf(f, "# policy %s = %s\n", b->var[i].name,
				variant_policy_text(b, &b->var[i]));
	for (size_t i = 0; i < b->nvar; i++)
		if (runs_active(&b->var[i])) {
			write_active(b, &b->var[i], f);
			break;
		}
	int first = 1;
	for (int e = 0; e < counter_slots(&b->events); e++)
		if (b->ctr_reason[e] && b->ctr_reason[e][0]) {
			fprintf(f, "%s%s (%s)", first ? "# counters unavailable: " : ", ",
				counter_slot_name(&b->events, e), b->ctr_reason[e]);
			first = 0;
		}
	if (!first)
		fputc('\n', f);

	/* The extra events' columns follow insns, each named by its event. */
	enum { N = 13, NMAX = N + CTR_EXTRA_MAX };
	const char *head[NMAX] = { "variant", "size", "src", "dst", "dist", "ns/copy", "p10",
				   "p90", "GB/s", "ratio", "95% CI", "cycles", "insns" };
	char align[NMAX + 1] = "lrrrrrrrrrrrr";
	size_t ncol = N + b->events.n;
	for (size_t k = N; k < ncol; k++) {
		head[k] = b->events.e[k - N].name;
		align[k] = 'r';
	}
	align[ncol] = '\0';
	struct table t;
	if (table_init(&t, ncol, head, align) < 0)
		return;
	size_t last_cell = SIZE_MAX;
	for (size_t i = 0; i < b->nrows; i++) {
		const struct row *w = &b->row[i];
		size_t cell = i / b->nvar;
		if (b->nvar > 1 && last_cell != SIZE_MAX && cell != last_cell)
			table_add_blank(&t);
		last_cell = cell;
		char sz[32], so[16], dof[16], dd[16], med[32], p10[32], p90[32], gb[32],
			ra[32], ci[64], cy[32], in[32], lo[32], hi[32];
		if (w->size == SIZE_MAX) {
			const char *o = b->have_replay ? "rec" : "rand";
			snprintf(sz, sizeof sz, "%.18s %s", seq_name(b), seq_regime(b, w->seq));
			snprintf(so, sizeof so, "%s", o);
			snprintf(dof, sizeof dof, "%s", o);
			snprintf(dd, sizeof dd, "%s", o);
		} else {
			ucopy_size_format(w->size, sz, sizeof sz);
			snprintf(so, sizeof so, "%u", w->src_off);
			snprintf(dof, sizeof dof, "%u", w->dst_off);
			snprintf(dd, sizeof dd, "%u", (w->dst_off - w->src_off) & 4095u);
		}
		fmt_num(med, sizeof med, w->s.ns.median);
		fmt_num(p10, sizeof p10, w->s.ns.p10);
		fmt_num(p90, sizeof p90, w->s.ns.p90);
		fmt_num(gb, sizeof gb, w->s.gbps);
		fmt_num(lo, sizeof lo, w->s.ratio.lo);
		fmt_num(hi, sizeof hi, w->s.ratio.hi);
		snprintf(ra, sizeof ra, "%.3f", w->s.ratio.est);
		snprintf(ci, sizeof ci, "%s-%s", lo, hi);
		fmt_num(cy, sizeof cy, w->s.per_copy[CTR_CYCLES]);
		fmt_num(in, sizeof in, w->s.per_copy[CTR_INSTRUCTIONS]);
		char ex[CTR_EXTRA_MAX][32];
		const char *cells[NMAX] = { b->var[w->variant].name, sz, so, dof, dd, med, p10,
					    p90, gb, ra, ci, cy, in };
		for (size_t k = N; k < ncol; k++) {
			fmt_num(ex[k - N], sizeof ex[0], w->s.per_copy[CTR_COUNT + (k - N)]);
			cells[k] = ex[k - N];
		}
		table_add(&t, cells);
	}
	table_print(&t, f);
	table_free(&t);
	write_slow_note(b, f);
	write_steady_note(b, f);
}

static const char *const keys[] = { "variant", "size", "dist", "src_align", "dst_align",
				    "distance", "cache", "ns_median", "ns_p10", "ns_p90",
				    "gbps", "ratio", "ratio_lo", "ratio_hi", "cycles",
				    "instructions", "branches", "branch_misses",
				    "task_clock_ns", "rounds", "batch", "copies", "regime",
				    "sequence", "replay", "slow_rounds", "scrub_every" };
enum { NKEYS = sizeof keys / sizeof keys[0] };

/* The extra events' columns come last, each named by its event. */
static void write_csv(const struct bench *b, FILE *f)
{
	const char *head[NKEYS + CTR_EXTRA_MAX];
	size_t ncol = NKEYS + b->events.n;
	for (size_t k = 0; k < ncol; k++)
		head[k] = k < NKEYS ? keys[k] : b->events.e[k - NKEYS].name;
	csv_row(f, ncol, head);
	for (size_t i = 0; i < b->nrows; i++) {
		const struct row *w = &b->row[i];
		char v[NKEYS + CTR_EXTRA_MAX][48];
		const char *cells[NKEYS + CTR_EXTRA_MAX];
		int d = w->size == SIZE_MAX;
		v[0][0] = '\0';
		v[1][0] = '\0';
		if (!d)
			snprintf(v[1], 48, "%zu", w->size);
		v[2][0] = '\0';
		if (d) {
			v[3][0] = v[4][0] = v[5][0] = '\0';
		} else {
			snprintf(v[3], 48, "%u", w->src_off);
			snprintf(v[4], 48, "%u", w->dst_off);
			snprintf(v[5], 48, "%u", (w->dst_off - w->src_off) & 4095u);
		}
		snprintf(v[6], 48, "%s", cache_name(b->cache));
		double num[] = { w->s.ns.median, w->s.ns.p10, w->s.ns.p90, w->s.gbps,
				 w->s.ratio.est, w->s.ratio.lo, w->s.ratio.hi,
				 w->s.per_copy[CTR_CYCLES], w->s.per_copy[CTR_INSTRUCTIONS],
				 w->s.per_copy[CTR_BRANCHES], w->s.per_copy[CTR_BRANCH_MISSES],
				 w->s.per_copy[CTR_TASK_CLOCK] };
		for (size_t k = 0; k < sizeof num / sizeof num[0]; k++)
			fmt_raw(v[7 + k], 48, num[k]);
		snprintf(v[19], 48, "%zu", w->rounds);
		snprintf(v[20], 48, "%zu", w->batch);
		snprintf(v[21], 48, "%llu", (unsigned long long)w->copies);
		snprintf(v[22], 48, "%s", d ? seq_regime(b, w->seq) : "");
		v[23][0] = '\0';
		if (d)
			snprintf(v[23], 48, "%zu", seq_at(b, w->seq)->len);
		snprintf(v[25], 48, "%zu", w->slow_rounds);
		snprintf(v[26], 48, "%zu", b->scrub_every);
		for (size_t k = NKEYS; k < ncol; k++)
			fmt_raw(v[k], 48, w->s.per_copy[CTR_COUNT + (k - NKEYS)]);
		for (size_t k = 0; k < ncol; k++)
			cells[k] = v[k];
		cells[0] = b->var[w->variant].name;
		cells[2] = d && b->have_dist ? b->dist_path : "";
		cells[24] = d && b->have_replay ? b->replay_path : "";
		csv_row(f, ncol, cells);
	}
}

static void json_offsets(struct json *j, const char *key, const struct sizes *s,
			 int present)
{
	json_key(j, key);
	if (!present) {
		json_null(j);
		return;
	}
	json_begin_array(j);
	for (size_t i = 0; i < s->n; i++)
		json_uint(j, s->v[i]);
	json_end_array(j);
}

/* Each sequence's regime, length and condition in words. */
static void json_regimes(struct json *j, const struct bench *b)
{
	json_begin_array(j);
	for (size_t i = 0; i < b->nseq; i++) {
		char cond[256];
		seq_condition(b, i, cond, sizeof cond);
		json_begin_object(j);
		json_key(j, "regime"); json_string(j, seq_regime(b, i));
		json_key(j, "sequence"); json_uint(j, seq_at(b, i)->len);
		/* The drawn sequence's mean, which names the cell: docs/bench.md,
		 * "One cell, one answer". */
		json_key(j, "mean_size"); json_double(j, seq_at(b, i)->mean_n);
		json_key(j, "condition"); json_string(j, cond);
		json_end_object(j);
	}
	json_end_array(j);
}

static void write_json(const struct bench *b, FILE *f)
{
	struct json j;
	json_init(&j, f, 1);
	json_begin_object(&j);
	json_key(&j, "machine");
	machine_json(&j);

	json_key(&j, "config");
	json_begin_object(&j);
	json_key(&j, "variants");
	json_begin_array(&j);
	for (size_t i = 0; i < b->nvar; i++) {
		json_begin_object(&j);
		json_key(&j, "name"); json_string(&j, b->var[i].name);
		json_key(&j, "kind"); json_string(&j, variant_kind_name(&b->var[i]));
		json_key(&j, "policy"); json_string(&j, variant_policy_text(b, &b->var[i]));
		json_end_object(&j);
	}
	json_end_array(&j);
	json_offsets(&j, "sizes", &b->sizes, !seq_run(b));
	json_key(&j, "dist");
	if (b->have_dist) {
		json_begin_object(&j);
		json_key(&j, "file"); json_string(&j, b->dist_path);
		json_key(&j, "format"); json_string(&j, dist_format_name(b->dist.format));
		json_key(&j, "sizes"); json_uint(&j, b->dist.n);
		json_key(&j, "mean"); json_double(&j, b->dist.mean);
		json_key(&j, "alignments"); json_bool(&j, b->dist.has_align);
		json_key(&j, "sequence"); json_uint(&j, b->drawn[0].len);
		json_key(&j, "regimes");
		json_regimes(&j, b);
		json_end_object(&j);
	} else {
		json_null(&j);
	}
	json_key(&j, "replay");
	if (b->have_replay) {
		json_begin_object(&j);
		json_key(&j, "file"); json_string(&j, b->replay_path);
		json_key(&j, "calls"); json_uint(&j, b->replay.seq.len);
		json_key(&j, "threads"); json_uint(&j, b->replay.nthreads);
		json_key(&j, "mean"); json_double(&j, b->replay.seq.mean_n);
		json_key(&j, "max_size"); json_uint(&j, b->replay.seq.max_n);
		json_key(&j, "regimes");
		json_regimes(&j, b);
		json_end_object(&j);
	} else {
		json_null(&j);
	}
	json_offsets(&j, "src_align", &b->src_align, !seq_run(b));
	json_offsets(&j, "dst_align", &b->dst_align, !seq_run(b) && !b->have_distance);
	json_offsets(&j, "distance", &b->distance, b->have_distance);
	json_key(&j, "cache"); json_string(&j, cache_name(b->cache));
	json_key(&j, "seconds"); json_double(&j, b->seconds);
	json_key(&j, "elapsed_seconds"); json_double(&j, b->elapsed);
	json_key(&j, "seed"); json_uint(&j, b->seed);
	json_key(&j, "scrub_every");
	if (b->scrub_every)
		json_uint(&j, b->scrub_every);
	else
		json_null(&j);
	json_key(&j, "timer"); json_string(&j, timer_name());
	json_key(&j, "tsc_ghz"); json_double(&j, timer_tsc_ghz());
	json_key(&j, "confidence"); json_double(&j, LEVEL);
	json_key(&j, "interval");
	json_string(&j, "median of per-round ratios, order statistics (sign test)");
	json_key(&j, "counters");
	json_begin_object(&j);
	for (int e = 0; e < CTR_COUNT; e++) {
		json_key(&j, counter_key((enum counter)e));
		const char *why = b->ctr_reason[e];
		json_string(&j, !why ? "unknown" : why[0] ? why : "ok");
	}
	json_end_object(&j);
	json_key(&j, "events");
	counter_events_json(&j, &b->events, b->ctr_reason);
	json_end_object(&j);

	json_key(&j, "results");
	json_begin_array(&j);
	for (size_t i = 0; i < b->nrows; i++) {
		const struct row *w = &b->row[i];
		int d = w->size == SIZE_MAX;
		json_begin_object(&j);
		json_key(&j, "variant"); json_string(&j, b->var[w->variant].name);
		json_key(&j, "size");
		if (d) json_null(&j); else json_uint(&j, w->size);
		json_key(&j, "dist"); json_string(&j, d && b->have_dist ? b->dist_path : NULL);
		json_key(&j, "replay"); json_string(&j, d && b->have_replay ? b->replay_path : NULL);
		json_key(&j, "regime"); json_string(&j, d ? seq_regime(b, w->seq) : NULL);
		json_key(&j, "sequence");
		if (d) json_uint(&j, seq_at(b, w->seq)->len); else json_null(&j);
		json_key(&j, "src_align");
		if (d) json_null(&j); else json_uint(&j, w->src_off);
		json_key(&j, "dst_align");
		if (d) json_null(&j); else json_uint(&j, w->dst_off);
		json_key(&j, "distance");
		if (d) json_null(&j); else json_uint(&j, (w->dst_off - w->src_off) & 4095u);
		json_key(&j, "cache"); json_string(&j, cache_name(b->cache));
		json_key(&j, "ns_median"); json_double(&j, w->s.ns.median);
		json_key(&j, "ns_p10"); json_double(&j, w->s.ns.p10);
		json_key(&j, "ns_p90"); json_double(&j, w->s.ns.p90);
		json_key(&j, "gbps"); json_double(&j, w->s.gbps);
		json_key(&j, "ratio"); json_double(&j, w->s.ratio.est);
		json_key(&j, "ratio_lo"); json_double(&j, w->s.ratio.lo);
		json_key(&j, "ratio_hi"); json_double(&j, w->s.ratio.hi);
		json_key(&j, "cycles"); json_double(&j, w->s.per_copy[CTR_CYCLES]);
		json_key(&j, "instructions"); json_double(&j, w->s.per_copy[CTR_INSTRUCTIONS]);
		json_key(&j, "branches"); json_double(&j, w->s.per_copy[CTR_BRANCHES]);
		json_key(&j, "branch_misses"); json_double(&j, w->s.per_copy[CTR_BRANCH_MISSES]);
		json_key(&j, "task_clock_ns"); json_double(&j, w->s.per_copy[CTR_TASK_CLOCK]);
		json_key(&j, "events");
		json_begin_object(&j);
		for (unsigned k = 0; k < b->events.n; k++) {
			json_key(&j, b->events.e[k].name);
			json_double(&j, w->s.per_copy[CTR_COUNT + k]);
		}
		json_end_object(&j);
		json_key(&j, "rounds"); json_uint(&j, w->rounds);
		json_key(&j, "slow_rounds"); json_uint(&j, w->slow_rounds);
		json_key(&j, "batch"); json_uint(&j, w->batch);
		json_key(&j, "copies"); json_uint(&j, w->copies);
		json_key(&j, "steady_passes"); json_uint(&j, w->steady_passes);
		json_key(&j, "steady_capped"); json_uint(&j, w->steady_capped);
		json_key(&j, "scrubs"); json_uint(&j, w->scrubs);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_end_object(&j);
	json_finish(&j);
}

int cmd_bench(int argc, char **argv)
{
	struct bench b;
	memset(&b, 0, sizeof b);
	/* --list-dists times nothing: it comes alone, as --help does. */
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--list-dists"))
			return argc == 2 ? data_print_list(stdout)
					 : cli_usage_error(CMD, "--list-dists takes no other option");
	int rc = parse_args(&b, argc, argv);
	if (!rc)
		rc = check_budget(&b);
	if (rc) {
		bench_free(&b);
		return rc;
	}
	/* The file is checked now, and replaced only by complete results. */
	struct outfile out;
	if ((rc = outfile_open(&out, CMD, b.out_path))) {
		bench_free(&b);
		return rc;
	}
	rc = measure_all(&b);
	if (rc == EXIT_OK) {
		if (b.format == FMT_JSON)
			write_json(&b, out.f);
		else if (b.format == FMT_CSV)
			write_csv(&b, out.f);
		else
			write_table(&b, out.f);
		rc = outfile_commit(&out);
	} else {
		outfile_abandon(&out);
	}
	bench_free(&b);
	return rc;
}
