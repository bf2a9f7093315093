/*
 * test_sequence.c - the recorded-sequence reader: what a good file gives
 * (calls in order, threads one after another, the layout of each call), and
 * that every malformed file is refused with FILE:LINE and what was expected.
 */
#include "check.h"
#include "sequence.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int parse(const char *text, struct replay *r, char *err, size_t errlen)
{
	return replay_parse("t.seq", text, strlen(text), r, err, errlen);
}

static void test_good(void)
{
	struct replay r;
	char err[300] = "";
	CHECK(parse("# ucopy sequence 1\n# from a test\n"
		    "0 100 3 7 4\n0 0 0 63 63\n# between\n1 4352 63 0 1\n2 5 1 1 4096\n",
		    &r, err, sizeof err) < 0, "distance 4096 accepted");
	CHECK(parse("# ucopy sequence 1\n# from a test\n"
		    "0 100 3 7 4\n0 0 0 63 63\n# between\n1 4352 63 0 1\n2 5 1 1 4032\n",
		    &r, err, sizeof err) == 0, "good file: %s", err);
	CHECK(r.seq.len == 4 && r.nthreads == 3, "len %zu threads %zu", r.seq.len, r.nthreads);
	/* Each call: the source at its alignment, the destination at source +
	 * distance mod 4096, so dst - src and both alignments mod 64 hold. */
	static const struct copy_op want[4] = {
		{ 100, 3, 7 }, { 0, 0, 63 }, { 4352, 63, 64 }, { 5, 1, 4033 } };
	for (size_t i = 0; i < 4 && i < r.seq.len; i++)
		CHECK(r.seq.op[i].n == want[i].n && r.seq.op[i].src_off == want[i].src_off &&
		      r.seq.op[i].dst_off == want[i].dst_off, "op %zu: %zu %u %u", i,
		      r.seq.op[i].n, r.seq.op[i].src_off, r.seq.op[i].dst_off);
	CHECK(r.seq.max_n == 4352 && r.seq.max_off == 4033, "max %zu %u", r.seq.max_n,
	      r.seq.max_off);
	CHECK(r.bytes == 4457 && r.seq.mean_n == 4457.0 / 4, "bytes %g", r.bytes);

	/* Laid out by the measuring core as described: every slot keeps the
	 * offsets, in every cache state. */
	for (int c = CACHE_HOT; c <= CACHE_COLD; c++) {
		struct cell cell;
		replay_cell(&cell, &r, (enum cache_state)c);
		CHECK(cell.seq == &r.seq && cell.src.offset == 0 && cell.dst.offset == 0 &&
		      cell.src.region == cell.dst.region && cell_slot_stride(&r.seq) % 64 == 0,
		      "cell %d", c);
	}
	replay_free(&r);
	CHECK(r.seq.op == NULL && r.seq.len == 0, "freed");

	/* The largest values of every field. */
	CHECK(parse("# ucopy sequence 1\n1048575 67108864 63 62 4095\n", &r, err, sizeof err) == 0 &&
	      r.seq.op[0].n == (size_t)64 << 20 && r.seq.op[0].dst_off == (63 + 4095) % 4096,
	      "largest: %s", err);
	replay_free(&r);
	check_group("sequence: good files");
}

/* The file must be refused with exactly this message. */
static void bad(const char *text, const char *want)
{
	struct replay r;
	char err[300] = "";
	int rc = parse(text, &r, err, sizeof err);
	CHECK(rc < 0 && !strcmp(err, want), "'%s':\n    got  '%s'\n    want '%s'", text,
	      rc < 0 ? err : "(accepted)", want);
	CHECK(r.seq.op == NULL && r.seq.len == 0 && r.nthreads == 0, "not empty after '%s'",
	      text);
}

static void test_bad(void)
{
	/* Whole files. */
	bad("", "t.seq: empty sequence file (expected '# ucopy sequence 1' on the first line)");
	bad("0 8 0 0 0\n", "t.seq:1: '0 8 0 0 0' is not a sequence header "
	    "(expected '# ucopy sequence 1')");
	bad("# ucopy sequence 2\n0 8 0 0 0\n", "t.seq:1: '# ucopy sequence 2' is not a "
	    "sequence header (expected '# ucopy sequence 1')");
	bad("# ucopy sequence 1", "t.seq:1: truncated: the line has no end (expected a newline)");
	bad("# ucopy sequence 1\n", "t.seq:1: no calls (expected at least one line of "
	    "THREAD SIZE SRC_ALIGN DST_ALIGN DISTANCE)");
	bad("# ucopy sequence 1\n# only comments\n", "t.seq:2: no calls (expected at least "
	    "one line of THREAD SIZE SRC_ALIGN DST_ALIGN DISTANCE)");
	/* What follows the header. */
	static const struct { const char *calls, *want; } after_header[] = {
		{ "0 8 0 0 0\n0 8 0 0",
		  "t.seq:3: truncated: the line has no end (expected a newline)" },
		{ "0 8 0 0\n",
		  "t.seq:2: 4 fields in '0 8 0 0' (expected 5: THREAD SIZE SRC_ALIGN "
		  "DST_ALIGN DISTANCE)" },
		{ "0 8 0 0 0 0\n",
		  "t.seq:2: more than 5 fields, or more than one space between two, in "
		  "'0 8 0 0 0 0' (expected THREAD SIZE SRC_ALIGN DST_ALIGN DISTANCE)" },
		{ "0  8 0 0 0\n",
		  "t.seq:2: bad size '' (expected a decimal number, 0..67108864; fields are "
		  "separated by one space)" },
		{ "0 1\x1b[2J 0 0 0\n",
		  "t.seq:2: bad size '1\\x1b[2J' (expected a decimal number, 0..67108864; fields "
		  "are separated by one space)" },
		{ "0\t8 0 0 0\n",
		  "t.seq:2: bad thread '0\\x098' (expected a decimal number, 0..1048575; fields are "
		  "separated by one space)" },
		{ "0 -8 0 0 0\n",
		  "t.seq:2: bad size '-8' (expected a decimal number, 0..67108864; fields are "
		  "separated by one space)" },
		{ "0 8K 0 0 0\n",
		  "t.seq:2: bad size '8K' (expected a decimal number, 0..67108864; fields are "
		  "separated by one space)" },
		{ "0 67108865 0 0 0\n",
		  "t.seq:2: size '67108865' is out of range (expected 0..67108864)" },
		{ "0 99999999999999999999999999 0 0 0\n",
		  "t.seq:2: size '99999999999999999999999999' is out of range (expected "
		  "0..67108864)" },
		{ "1048576 8 0 0 0\n",
		  "t.seq:2: thread '1048576' is out of range (expected 0..1048575)" },
		{ "0 8 64 0 0\n",
		  "t.seq:2: source alignment '64' is out of range (expected 0..63)" },
		{ "0 8 0 64 0\n",
		  "t.seq:2: destination alignment '64' is out of range (expected 0..63)" },
		{ "0 8 0 0 4096\n",
		  "t.seq:2: distance '4096' is out of range (expected 0..4095)" },
		{ "0 8 0 0 0\r\n",
		  "t.seq:2: a CRLF line ending (expected LF alone: tr -d '\\r' converts the "
		  "file)" },
		{ "0 8 1 3 1\n",
		  "t.seq:2: destination alignment 3 does not match source alignment 1 and "
		  "distance 1 (expected (1 + 1) mod 64 = 2)" },
		{ "0 8 0 0 0\n\n0 8 0 0 0\n",
		  "t.seq:3: empty line (expected THREAD SIZE SRC_ALIGN DST_ALIGN DISTANCE, or a "
		  "'#' comment)" },
		{ "0 8 0 0 0\n1 8 0 0 0\n0 8 0 0 0\n",
		  "t.seq:4: thread 0's calls again after another thread's (expected each "
		  "thread's calls on consecutive lines)" },
		{ " 0 8 0 0 0\n",
		  "t.seq:2: bad thread '' (expected a decimal number, 0..1048575; fields are "
		  "separated by one space)" },
	};
	for (size_t i = 0; i < sizeof after_header / sizeof *after_header; i++) {
		char t[256];
		snprintf(t, sizeof t, "# ucopy sequence 1\n%s", after_header[i].calls);
		bad(t, after_header[i].want);
	}
	struct replay r;
	char err[300] = "";
	static const char nul[] = "# ucopy sequence 1\n0 8 0\0 0 0\n";
	CHECK(replay_parse("t.seq", nul, sizeof nul - 1, &r, err, sizeof err) < 0 &&
	      !strcmp(err, "t.seq:2: a NUL byte (expected a text file)"), "NUL: %s", err);
	check_group("sequence: bad files refused with file:line");
}

static void test_files(void)
{
	struct replay r;
	char err[600] = "", dir[] = "/tmp/ucopy-seq-XXXXXX", path[256];
	if (!mkdtemp(dir)) {
		check_skip("sequence: files", "no temporary directory");
		return;
	}
	snprintf(path, sizeof path, "%s/a.seq", dir);
	FILE *f = fopen(path, "w");
	CHECK(f && fputs("# ucopy sequence 1\n0 64 0 0 0\n0 32 8 8 0\n", f) >= 0, "write");
	if (f)
		fclose(f);
	CHECK(replay_read_file(path, &r, err, sizeof err) == 0 && r.seq.len == 2 &&
	      r.seq.op[1].n == 32, "read: %s", err);
	replay_free(&r);

	char want[600];
	snprintf(path, sizeof path, "%s/fifo", dir);
	CHECK(mkfifo(path, 0600) == 0, "mkfifo");
	snprintf(want, sizeof want, "bad sequence file '%s' (expected a regular file, not a FIFO)",
		 path);
	CHECK(replay_read_file(path, &r, err, sizeof err) < 0 && !strcmp(err, want),
	      "FIFO refused without waiting: %s", err);
	unlink(path);
	CHECK(replay_read_file(dir, &r, err, sizeof err) < 0 && strstr(err, "not a directory"),
	      "directory: %s", err);
	snprintf(path, sizeof path, "%s/missing", dir);
	CHECK(replay_read_file(path, &r, err, sizeof err) < 0 && strstr(err, "cannot read") &&
	      r.seq.len == 0, "missing: %s", err);
	snprintf(path, sizeof path, "%s/a.seq", dir);
	unlink(path);
	rmdir(dir);
	check_group("sequence: files, FIFO and directory refused");
}

/* The per-thread form `ucopy trace` reads: threads in file order with
 * their numbers and "# thread" lines, sizes past a replay's cap, and the
 * empty record of a process that copied nothing where the caller allows it. */
static void test_threads(void)
{
	static const char text[] =
		"# ucopy sequence 1\n"
		"# thread 3 pid 10 tid 11 first_ns 500 calls 4 every 2\n"
		"# thread 7 pid 12 tid 13 first_ns 100 calls 1 every 1\n"
		"# lost: 5 calls of 2 threads that found no memory for their records\n"
		"3 100000000 0 0 0\n"
		"3 8 1 9 8\n"
		"0 1 0 1 1\n";
	const struct seq_limits any = { UINT64_MAX, SEQ_MAX_CALLS, 0 },
				part = { UINT64_MAX, SIZE_MAX, 1 },
				two = { UINT64_MAX, 2, 0 };
	struct seq_file s;
	char err[600] = "";
	CHECK(seq_parse("t.seq", text, sizeof text - 1, any, &s, err, sizeof err) == 0,
	      "parse: %s", err);
	CHECK(s.nthreads == 2 && s.thread[0].index == 3 && s.thread[0].n == 2 &&
	      s.thread[1].index == 0 && s.thread[1].n == 1, "threads in file order");
	CHECK(s.lost_calls == 5 && s.lost_threads == 2, "the '# lost' line: %llu, %llu",
	      (unsigned long long)s.lost_calls, (unsigned long long)s.lost_threads);
	CHECK(s.thread[0].call[0].size == 100000000 && s.thread[0].call[1].distance == 8 &&
	      s.thread[0].call[1].dst_align == 9, "calls");
	CHECK(s.thread[0].has_meta && s.thread[0].pid == 10 && s.thread[0].every == 2 &&
	      !s.thread[1].has_meta, "the '# thread' line of a thread with calls, not of one without");
	seq_free(&s);
	CHECK(seq_parse("t.seq", text, sizeof text - 1, SEQ_REPLAY_LIMITS, &s, err, sizeof err) < 0 &&
	      !strcmp(err, "t.seq:5: size '100000000' is out of range (expected 0..67108864)"),
	      "a replay's cap: %s", err);
	static const char empty[] = "# ucopy sequence 1\n# thread 0 pid 1 tid 1 first_ns 0 calls 0 every 1\n";
	CHECK(seq_parse("e.seq", empty, sizeof empty - 1, part, &s, err, sizeof err) == 0 &&
	      s.nthreads == 0, "an empty record where allowed: %s", err);
	seq_free(&s);
	CHECK(seq_parse("e.seq", empty, sizeof empty - 1, any, &s, err, sizeof err) < 0 &&
	      strstr(err, "e.seq:2: no calls"), "and refused elsewhere: %s", err);
	/* A "# thread" line off the form written is a free comment. */
	static const char loose[] = "# ucopy sequence 1\n"
				    "# thread 0 pid  10 tid 11 first_ns 5 calls 1 every 1\n"
				    "# thread 1 pid 10 tid 11 first_ns 5 calls 1 every 0\n"
				    "0 8 0 0 0\n1 8 0 0 0\n";
	CHECK(seq_parse("l.seq", loose, sizeof loose - 1, any, &s, err, sizeof err) == 0 &&
	      s.nthreads == 2 && !s.thread[0].has_meta && !s.thread[1].has_meta,
	      "loose '# thread' lines: %s", err);
	seq_free(&s);
	CHECK(seq_parse("t.seq", text, sizeof text - 1, two, &s, err, sizeof err) < 0 &&
	      !strcmp(err, "t.seq:7: more than 2 calls (expected at most that many: a longer "
		      "trace is to be sampled)"), "a call limit: %s", err);
	check_group("sequence: per thread, as trace reads it");
}

/* Many threads of a few calls each, numbered out of order, as the reader
 * keeps them: every thread's calls its own and in order, every "# thread"
 * line on its thread wherever it stands (before the calls, after them, or
 * twice: the last says), none on a thread without calls. */
#define MANY 70000
static unsigned many_number(unsigned i)
{
	return (unsigned)((i * 7919ull + 13) % SEQ_MAX_THREADS);
}

static void test_many_threads(void)
{
	size_t cap = (size_t)MANY * 200, len = 0;
	char *text = malloc(cap);
	CHECK(text != NULL, "malloc");
	if (!text)
		return;
#define PUT(...) (len += (size_t)snprintf(text + len, cap - len, __VA_ARGS__))
	PUT("# ucopy sequence 1\n");
	/* Lines for some threads first, as `ucopy trace` writes them, one
	 * for a number with no calls, and one said twice. */
	for (unsigned i = 0; i < MANY; i += 3)
		PUT("# thread %u pid 7 tid %u first_ns %u calls %u every 1\n", many_number(i),
		    100 + i, i, 1 + i % 4);
	PUT("# thread %u pid 1 tid 1 first_ns 1 calls 1 every 1\n", many_number(MANY));
	PUT("# thread %u pid 8 tid 0 first_ns 0 calls 0 every 1\n", many_number(3));
	size_t calls = 0;
	for (unsigned i = 0; i < MANY; i++) {
		for (unsigned j = 0; j <= i % 4; j++, calls++)
			PUT("%u %u %u %u %u\n", many_number(i), i * 4 + j, j, (j + i % 64) % 64,
			    i % 64);
		if (i % 3 == 1)   /* after its calls */
			PUT("# thread %u pid 9 tid %u first_ns %u calls %u every 2\n",
			    many_number(i), 100 + i, i, 1 + i % 4);
	}
#undef PUT
	struct seq_file s;
	char err[300] = "";
	const struct seq_limits any = { UINT64_MAX, SEQ_MAX_CALLS, 0 };
	CHECK(len < cap && seq_parse("m.seq", text, len, any, &s, err, sizeof err) == 0,
	      "parse: %s", err);
	CHECK(s.nthreads == MANY, "%zu threads, want %d", s.nthreads, MANY);
	size_t bad = 0;
	for (unsigned i = 0; i < MANY && i < s.nthreads; i++) {
		const struct seq_thread *th = &s.thread[i];
		int ok = th->index == many_number(i) && th->n == 1 + i % 4;
		for (unsigned j = 0; ok && j < th->n; j++)
			ok = th->call[j].size == i * 4 + j && th->call[j].src_align == j &&
			     th->call[j].dst_align == (j + i % 64) % 64 &&
			     th->call[j].distance == i % 64;
		if (i % 3 == 2)
			ok = ok && !th->has_meta;
		else if (i == 3)
			ok = ok && th->has_meta && th->pid == 8 && th->tid == 0 &&
			     th->first_ns == 0 && th->calls == 0 && th->every == 1;
		else
			ok = ok && th->has_meta && th->tid == 100 + i && th->first_ns == i &&
			     th->calls == 1 + i % 4 && th->pid == (i % 3 == 1 ? 9u : 7u) &&
			     th->every == (i % 3 == 1 ? 2u : 1u);
		if (!ok && bad++ < 3)
			CHECK(0, "thread %u (number %u): index %u, %zu calls, meta %d pid %llu "
			      "tid %llu every %llu", i, many_number(i), th->index, th->n,
			      th->has_meta, (unsigned long long)th->pid,
			      (unsigned long long)th->tid, (unsigned long long)th->every);
	}
	CHECK(bad == 0, "%zu threads wrong", bad);
	seq_free(&s);
	CHECK(s.thread == NULL && s.nthreads == 0, "freed");

	/* A replay: the threads' calls one thread after another. */
	struct replay r;
	CHECK(replay_parse("m.seq", text, len, &r, err, sizeof err) == 0, "replay: %s", err);
	CHECK(r.nthreads == MANY && r.seq.len == calls, "replay: %zu threads, %zu calls",
	      r.nthreads, r.seq.len);
	size_t k = 0;
	bad = 0;
	for (unsigned i = 0; i < MANY; i++)
		for (unsigned j = 0; j <= i % 4 && k < r.seq.len; j++, k++)
			bad += r.seq.op[k].n != i * 4 + j || r.seq.op[k].src_off != j;
	CHECK(bad == 0, "replay: %zu calls out of place", bad);
	replay_free(&r);

	/* A thread that comes back is caught among many. */
	char again[128];
	snprintf(again, sizeof again, "%u 1 0 0 0\n", many_number(MANY / 2));
	size_t alen = strlen(again);
	if (len + alen < cap) {
		memcpy(text + len, again, alen);
		CHECK(seq_parse("m.seq", text, len + alen, any, &s, err, sizeof err) < 0 &&
		      strstr(err, "calls again after another thread's"),
		      "a thread's calls again: %s", err);
	}
	free(text);
	check_group("sequence: 70000 threads of 1 to 4 calls, numbered out of order");
}

int main(void)
{
	test_good();
	test_bad();
	test_files();
	test_threads();
	test_many_threads();
	return check_exit();
}
