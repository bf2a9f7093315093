/*
 * bench_args.c - the command line of `ucopy bench`: the variants, the grid
 * or the sequences, and the options, all checked before anything is timed
 * (bench.h).
 */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "datadir.h"
#include "outfile.h"
#include "scrub.h"

#define CMD "bench"
/* Buffers for one copy are mapped twice over; 1 GiB keeps that sane. */
#define MAX_SIZE ((size_t)1 << 30)
/* --repeat-len: past a million copies nothing is "repeated" any more. */
#define MAX_REPEAT_LEN ((size_t)1 << 20)
/* --scrub's largest: no batch is longer (cell_plan_batch()). */
#define MAX_SCRUB_EVERY ((size_t)1 << 24)

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

/* A --routine: loaded now, so that a missing file or symbol costs nothing.
 * Its variant is named and pointed at it again once every name is known
 * and the array has stopped moving (name_routines). */
static int add_routine(struct bench *b, const char *spec)
{
	char err[1024];
	struct routine *nr = realloc(b->rt, (b->nrt + 1) * sizeof *nr);
	if (!nr)
		return cli_usage_error(CMD, "out of memory");
	b->rt = nr;
	if (routine_open(spec, &b->rt[b->nrt], err, sizeof err) < 0)
		return cli_usage_error(CMD, "bad --routine '%s': %s", spec, err);
	b->nrt++;
	struct variant *v;
	if (add_variant(b, &v) < 0)
		return cli_usage_error(CMD, "out of memory");
	variant_routine(v, b->rt[b->nrt - 1].name, &b->rt[b->nrt - 1]);
	v->ctx = (void *)(uintptr_t)(b->nrt - 1);
	return 0;
}

static int named_otherwise(const struct bench *b, const char *name)
{
	for (size_t i = 0; i < b->nvar; i++)
		if (!b->var[i].routine && !strcmp(b->var[i].name, name))
			return 1;
	return 0;
}

/* The routines' names made distinct from one another and from the
 * kernels', policies' and entries' (`memcpy` the entry and `memcpy` from
 * libc.so.6: the routine's row reads libc.so.6:memcpy), then their
 * variants set up: the array has stopped moving. */
static void name_routines(struct bench *b)
{
	routine_names_unique(b->rt, b->nrt);
	for (size_t i = 0; i < b->nrt; i++)
		while (named_otherwise(b, b->rt[i].name) && routine_name_lengthen(&b->rt[i]) == 0)
			;
	routine_names_unique(b->rt, b->nrt);
	for (size_t i = 0; i < b->nvar; i++)
		if (b->var[i].routine) {
			size_t k = (uintptr_t)b->var[i].ctx;
			variant_routine(&b->var[i], b->rt[k].name, &b->rt[k]);
		}
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

/* The options given before anything is checked against another. */
struct args {
	const char *kernels, *sizes, *cache, *format, *regime, *repeat;
};

static int parse_options(struct bench *b, struct args *o, int argc, char **argv)
{
	b->seconds = 2;
	b->max_memory = cli_default_max_memory();
	b->seed = rng_fresh_seed();
	for (int i = 1; i < argc; i++) {
		int rc = 0;
		const char *v;
		const char *a = argv[i];
		if ((v = cli_opt_value(CMD, argc, argv, &i, "--kernels", 0, &rc))) {
			o->kernels = v;
		} else if ((v = cli_opt_value(CMD, argc, argv, &i, "--policies", CLI_REPEAT, &rc))) {
			if ((rc = add_policies(b, v)))
				return rc;
		} else if ((v = cli_opt_value(CMD, argc, argv, &i, "--entries", CLI_REPEAT, &rc))) {
			if ((rc = add_entries(b, v)))
				return rc;
		} else if ((v = cli_opt_value(CMD, argc, argv, &i, "--routine", CLI_REPEAT, &rc))) {
			if ((rc = add_routine(b, v)))
				return rc;
		} else if ((v = cli_opt_value(CMD, argc, argv, &i, "--sizes", 0, &rc))) {
			o->sizes = v;
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
			o->cache = v;
		} else if ((v = cli_opt_value(CMD, argc, argv, &i, "--dist", 0, &rc))) {
			b->dist_path = v;
		} else if ((v = cli_opt_value(CMD, argc, argv, &i, "--regime", 0, &rc))) {
			o->regime = v;
		} else if ((v = cli_opt_value(CMD, argc, argv, &i, "--repeat-len",
					      CLI_VALUE_NUMBER, &rc))) {
			o->repeat = v;
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
			o->format = v;
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

	return 0;
}

/* The options checked against one another. */
static int check_options(struct bench *b, const struct args *o)
{
	if (o->format) {
		if (!strcmp(o->format, "table"))
			b->format = FMT_TABLE;
		else if (!strcmp(o->format, "csv"))
			b->format = FMT_CSV;
		else if (!strcmp(o->format, "json"))
			b->format = FMT_JSON;
		else
			return cli_usage_error(CMD, "bad format '%s' (expected table, csv or json)",
					       o->format);
	}
	if (o->cache && cache_parse(o->cache, &b->cache) < 0)
		return cli_usage_error(CMD, "bad cache state '%s' (expected hot, warm or cold)",
				       o->cache);
	if (b->have_distance && b->have_dst_align)
		return cli_usage_error(CMD, "--distance and --dst-align both set the destination offset (give one)");
	if (b->dist_path && (o->sizes || b->src_align.n || b->have_dst_align || b->have_distance))
		return cli_usage_error(CMD, "--dist draws sizes and offsets itself (not with --sizes, --src-align, --dst-align or --distance)");
	if (b->replay_path && (b->dist_path || o->sizes || b->src_align.n || b->have_dst_align ||
			       b->have_distance))
		return cli_usage_error(CMD, "--replay replays recorded sizes and offsets (not with --dist, --sizes, --src-align, --dst-align or --distance)");
	if ((o->regime || o->repeat) && !b->dist_path)
		return cli_usage_error(CMD, "%s orders the sizes --dist draws (expected --dist FILE)",
				       o->regime ? "--regime" : "--repeat-len");
	int rc = parse_regimes(b, o->regime, o->repeat);
	if (rc)
		return rc;
	if (b->out_path && !b->out_path[0])
		return cli_usage_error(CMD, "empty output file name (-o FILE)");
	return 0;
}

/* --kernels, or every kernel when nothing else was asked, ahead of the
 * other variants; the names checked unique. */
static int add_default_kernels(struct bench *b, const char *kernels)
{
	int rc;

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
		return cli_usage_error(CMD, "no kernel, policy, entry or routine to time");
	name_routines(b);
	/* A row is known by its name alone (table, CSV, the JSON's results). */
	for (size_t i = 0; i < b->nvar; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(b->var[i].name, b->var[j].name))
				return cli_usage_error(CMD, "'%s' is named twice among the kernels, "
						       "policies, entries and routines: its rows could "
						       "not be told apart (expected each once)",
						       b->var[i].name);
	resolve_policy_pointers(b);
	return 0;
}

/* The copies: --dist's drawn sequences, --replay's, or --sizes and the
 * offsets. */
static int read_copies(struct bench *b, const char *sizes)
{
	char err[512];
	int rc;

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

int bench_parse_args(struct bench *b, int argc, char **argv)
{
	struct args o = { 0 };
	int rc;

	if ((rc = parse_options(b, &o, argc, argv)) || (rc = check_options(b, &o)) ||
	    (rc = add_default_kernels(b, o.kernels)) || (rc = read_copies(b, o.sizes)))
		return rc;
	return 0;
}
