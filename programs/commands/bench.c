/*
 * bench.c - `ucopy bench`: time kernels, policies, entries and routines over
 * sizes, alignments, distances, cache states and size distributions.
 *
 * Everything the user typed is checked before anything is timed, so a bad
 * input costs nothing and prints nothing on stdout; the results are written
 * only once every cell is measured.
 */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "datadir.h"
#include "outfile.h"

#define CMD "bench"

void help_bench(FILE *f)
{
	fputs("usage: ucopy bench [OPTIONS]\n\n"
	      "Times copy kernels, policies, entry points and routines of your own,\n"
	      "interleaved in rounds, and prints per cell the median ns per copy, p10\n"
	      "and p90, GB/s, and the ratio to the first variant with a 95% confidence\n"
	      "interval.\n\n"
	      "  --kernels LIST     kernels to time (default: every kernel this CPU runs,\n"
	      "                     unless policies, entries or routines are asked for:\n"
	      "                     then only those, or --kernels too; 'all' is every\n"
	      "                     kernel; libc is the C library's memcpy)\n"
	      "  --policies LIST    named policies (linux-6.4, auto, ...) or policy text\n"
	      "                     (64:word,movsb); may be repeated; one that names a\n"
	      "                     kernel this CPU does not run is refused\n"
	      "  --entries LIST     the library's entry points as a program calls them:\n"
	      "                     ucopy_memcpy, ucopy_try, ucopy_from (the active\n"
	      "                     policy), ucopy_try_sigsafe (no signals: system\n"
	      "                     calls) and memcpy (the C library's, called\n"
	      "                     directly); may be repeated\n"
	      "  --routine LIB.so:SYMBOL[:CONTRACT]\n"
	      "                     a copy routine of your own from a shared object (a\n"
	      "                     path, or a name the loader finds: libc.so.6:memcpy);\n"
	      "                     CONTRACT memcpy (default), memmove or try (size_t\n"
	      "                     f(dst, src, n) returning the bytes not copied).  It\n"
	      "                     is timed through the loop its shape's entries use,\n"
	      "                     on valid memory that does not overlap: a try\n"
	      "                     routine never faults here.  Its row is SYMBOL\n"
	      "                     (SYMBOL:CONTRACT), or LIB:SYMBOL where a kernel,\n"
	      "                     policy, entry or other routine has that name; may\n"
	      "                     be repeated\n"
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
	      "Examples: the rep movsb 4K-aliasing cliff (AMD Zen 3); a routine of your\n"
	      "own against the C library's memcpy:\n"
	      "  ucopy bench --kernels movsb,avx2 --sizes 4352 --distance 1,2048\n"
	      "  ucopy bench --entries memcpy --routine ./mine.so:my_memcpy --sizes 8-4K:x2\n", f);
}

static void bench_free(struct bench *b)
{
	for (size_t i = 0; i < b->npol; i++)
		free(b->pol_text[i]);
	free(b->pol_text);
	free(b->pol);
	for (size_t i = 0; i < b->nrt; i++)
		routine_close(&b->rt[i]);
	free(b->rt);
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

int cmd_bench(int argc, char **argv)
{
	struct bench b;
	memset(&b, 0, sizeof b);
	/* --list-dists times nothing: it comes alone, as --help does. */
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--list-dists"))
			return argc == 2 ? data_print_list(stdout)
					 : cli_usage_error(CMD, "--list-dists takes no other option");
	int rc = bench_parse_args(&b, argc, argv);
	if (!rc)
		rc = bench_check_budget(&b);
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
	rc = bench_measure(&b);
	if (rc == EXIT_OK) {
		if (b.format == FMT_JSON)
			bench_write_json(&b, out.f);
		else if (b.format == FMT_CSV)
			bench_write_csv(&b, out.f);
		else
			bench_write_table(&b, out.f);
		rc = outfile_commit(&out);
	} else {
		outfile_abandon(&out);
	}
	bench_free(&b);
	return rc;
}
