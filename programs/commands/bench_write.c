/*
 * bench_write.c - `ucopy bench`'s results as a table, CSV or JSON, each with
 * the machine, the method and the conditions they hold under (bench.h).
 */
#include "bench.h"

#include <math.h>
#include <string.h>

#include "datadir.h"
#include "json.h"
#include "machine.h"
#include "output.h"
#include "scrub.h"

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
	if (v->routine)
		return "routine";
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

/* A routine's line in the table's header: where its function came from
 * and what it was timed on.  The spec comes from outside: escaped. */
static void write_routine(const struct routine *r, FILE *f)
{
	fputs("# routine ", f);
	fput_escaped(r->name, f);
	fputs(" = ", f);
	fput_escaped(r->symbol, f);
	fputs(" from ", f);
	fput_escaped(r->lib, f);
	fprintf(f, ", the %s contract%s\n", routine_contract_name(r->contract),
		r->contract == ROUTINE_TRY ? ", timed on valid memory (no faults)" :
		r->contract == ROUTINE_MEMMOVE ? ", timed on copies that do not overlap" : "");
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

/* The table's header: the machine, the method and what the variants ran. */
static void table_header(const struct bench *b, FILE *f)
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
		if (b->var[i].routine)
			write_routine(b->var[i].routine, f);
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
}

void bench_write_table(const struct bench *b, FILE *f)
{
	table_header(b, f);

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
void bench_write_csv(const struct bench *b, FILE *f)
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

/* The JSON's "config": what was asked, and how it was measured. */
static void json_config(struct json *j, const struct bench *b)
{
	json_key(j, "config");
	json_begin_object(j);
	json_key(j, "variants");
	json_begin_array(j);
	for (size_t i = 0; i < b->nvar; i++) {
		json_begin_object(j);
		json_key(j, "name"); json_string(j, b->var[i].name);
		json_key(j, "kind"); json_string(j, variant_kind_name(&b->var[i]));
		json_key(j, "policy"); json_string(j, variant_policy_text(b, &b->var[i]));
		json_key(j, "routine");
		routine_json(j, b->var[i].routine);
		json_end_object(j);
	}
	json_end_array(j);
	json_offsets(j, "sizes", &b->sizes, !seq_run(b));
	json_key(j, "dist");
	if (b->have_dist) {
		json_begin_object(j);
		json_key(j, "file"); json_string(j, b->dist_path);
		json_key(j, "format"); json_string(j, dist_format_name(b->dist.format));
		json_key(j, "sizes"); json_uint(j, b->dist.n);
		json_key(j, "mean"); json_double(j, b->dist.mean);
		json_key(j, "alignments"); json_bool(j, b->dist.has_align);
		json_key(j, "sequence"); json_uint(j, b->drawn[0].len);
		json_key(j, "regimes");
		json_regimes(j, b);
		json_end_object(j);
	} else {
		json_null(j);
	}
	json_key(j, "replay");
	if (b->have_replay) {
		json_begin_object(j);
		json_key(j, "file"); json_string(j, b->replay_path);
		json_key(j, "calls"); json_uint(j, b->replay.seq.len);
		json_key(j, "threads"); json_uint(j, b->replay.nthreads);
		json_key(j, "mean"); json_double(j, b->replay.seq.mean_n);
		json_key(j, "max_size"); json_uint(j, b->replay.seq.max_n);
		json_key(j, "regimes");
		json_regimes(j, b);
		json_end_object(j);
	} else {
		json_null(j);
	}
	json_offsets(j, "src_align", &b->src_align, !seq_run(b));
	json_offsets(j, "dst_align", &b->dst_align, !seq_run(b) && !b->have_distance);
	json_offsets(j, "distance", &b->distance, b->have_distance);
	json_key(j, "cache"); json_string(j, cache_name(b->cache));
	json_key(j, "seconds"); json_double(j, b->seconds);
	json_key(j, "elapsed_seconds"); json_double(j, b->elapsed);
	json_key(j, "seed"); json_uint(j, b->seed);
	json_key(j, "scrub_every");
	if (b->scrub_every)
		json_uint(j, b->scrub_every);
	else
		json_null(j);
	json_key(j, "timer"); json_string(j, timer_name());
	json_key(j, "tsc_ghz"); json_double(j, timer_tsc_ghz());
	json_key(j, "confidence"); json_double(j, LEVEL);
	json_key(j, "interval");
	json_string(j, "median of per-round ratios, order statistics (sign test)");
	json_key(j, "counters");
	json_begin_object(j);
	for (int e = 0; e < CTR_COUNT; e++) {
		json_key(j, counter_key((enum counter)e));
		const char *why = b->ctr_reason[e];
		json_string(j, !why ? "unknown" : why[0] ? why : "ok");
	}
	json_end_object(j);
	json_key(j, "events");
	counter_events_json(j, &b->events, b->ctr_reason);
	json_end_object(j);
}

/* One row of the JSON's "results". */
static void json_result(struct json *j, const struct bench *b, const struct row *w)
{
	int d = w->size == SIZE_MAX;
	json_begin_object(j);
	json_key(j, "variant"); json_string(j, b->var[w->variant].name);
	json_key(j, "size");
	if (d) json_null(j); else json_uint(j, w->size);
	json_key(j, "dist"); json_string(j, d && b->have_dist ? b->dist_path : NULL);
	json_key(j, "replay"); json_string(j, d && b->have_replay ? b->replay_path : NULL);
	json_key(j, "regime"); json_string(j, d ? seq_regime(b, w->seq) : NULL);
	json_key(j, "sequence");
	if (d) json_uint(j, seq_at(b, w->seq)->len); else json_null(j);
	json_key(j, "src_align");
	if (d) json_null(j); else json_uint(j, w->src_off);
	json_key(j, "dst_align");
	if (d) json_null(j); else json_uint(j, w->dst_off);
	json_key(j, "distance");
	if (d) json_null(j); else json_uint(j, (w->dst_off - w->src_off) & 4095u);
	json_key(j, "cache"); json_string(j, cache_name(b->cache));
	json_key(j, "ns_median"); json_double(j, w->s.ns.median);
	json_key(j, "ns_p10"); json_double(j, w->s.ns.p10);
	json_key(j, "ns_p90"); json_double(j, w->s.ns.p90);
	json_key(j, "gbps"); json_double(j, w->s.gbps);
	json_key(j, "ratio"); json_double(j, w->s.ratio.est);
	json_key(j, "ratio_lo"); json_double(j, w->s.ratio.lo);
	json_key(j, "ratio_hi"); json_double(j, w->s.ratio.hi);
	json_key(j, "cycles"); json_double(j, w->s.per_copy[CTR_CYCLES]);
	json_key(j, "instructions"); json_double(j, w->s.per_copy[CTR_INSTRUCTIONS]);
	json_key(j, "branches"); json_double(j, w->s.per_copy[CTR_BRANCHES]);
	json_key(j, "branch_misses"); json_double(j, w->s.per_copy[CTR_BRANCH_MISSES]);
	json_key(j, "task_clock_ns"); json_double(j, w->s.per_copy[CTR_TASK_CLOCK]);
	json_key(j, "events");
	json_begin_object(j);
	for (unsigned k = 0; k < b->events.n; k++) {
		json_key(j, b->events.e[k].name);
		json_double(j, w->s.per_copy[CTR_COUNT + k]);
	}
	json_end_object(j);
	json_key(j, "rounds"); json_uint(j, w->rounds);
	json_key(j, "slow_rounds"); json_uint(j, w->slow_rounds);
	json_key(j, "batch"); json_uint(j, w->batch);
	json_key(j, "copies"); json_uint(j, w->copies);
	json_key(j, "steady_passes"); json_uint(j, w->steady_passes);
	json_key(j, "steady_capped"); json_uint(j, w->steady_capped);
	json_key(j, "scrubs"); json_uint(j, w->scrubs);
	json_end_object(j);
}

void bench_write_json(const struct bench *b, FILE *f)
{
	struct json j;
	json_init(&j, f, 1);
	json_begin_object(&j);
	json_key(&j, "machine");
	machine_json(&j);
	json_config(&j, b);
	json_key(&j, "results");
	json_begin_array(&j);
	for (size_t i = 0; i < b->nrows; i++)
		json_result(&j, b, &b->row[i]);
	json_end_array(&j);
	json_end_object(&j);
	json_finish(&j);
}
