/*
 * trace.c - `ucopy trace`: what a program copies, recorded by
 * libucopy-preload.so, merged over its processes into a sequence file and a
 * size distribution; `--summary` reads a sequence file back (docs/trace.md).
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ucopy.h"

#include "child.h"
#include "cli.h"
#include "datadir.h"
#include "dist.h"
#include "outfile.h"
#include "sequence.h"

#define CMD "trace"
#define DEFAULT_OUT "ucopy-trace"
#define DEFAULT_CAP "4194304"

void help_trace(FILE *f)
{
	fputs("usage: ucopy trace [-o FILE] [--cap N] -- CMD [ARGS...]\n"
	      "       ucopy trace --summary FILE.seq\n\n"
	      "Runs CMD under libucopy-preload.so in recording mode: every memcpy,\n"
	      "memmove and mempcpy (and _chk form) of CMD and of the programs it\n"
	      "starts is copied by ucopy and recorded with its size, src mod 64,\n"
	      "dst mod 64 and (dst - src) mod 4096, in call order, per thread.\n"
	      "Writes:\n"
	      "  FILE.seq  the sequence: '# ucopy sequence 1', comment lines, then\n"
	      "            'THREAD SIZE SRC_ALIGN DST_ALIGN DISTANCE' per call, threads\n"
	      "            numbered in order of first copy, each one's calls together\n"
	      "  FILE.csv  the size distribution in fleetbench's format (bench --dist)\n"
	      "  FILE.llvm.csv  the same in LLVM libc's format (a probability per size\n"
	      "            from 0; sizes over 4 KiB left out, as LLVM's benchmark takes\n"
	      "            no more; not written when every copy is over 4 KiB), which\n"
	      "            --dist reads too\n"
	      "FILE is " DEFAULT_OUT " (in the current directory) unless -o says.\n\n"
	      "options:\n"
	      "  -o FILE    the output prefix\n"
	      "  --cap N    calls held per thread (default " DEFAULT_CAP ", 8 bytes each);\n"
	      "             past it every other record is dropped and the stride\n"
	      "             doubles: a thread that made more calls keeps every k-th\n"
	      "             one over its whole run, and the header says k\n"
	      "  --summary FILE.seq\n"
	      "             prints the calls and bytes per size class (0, 1-16, 17-32,\n"
	      "             33-64, ... powers of two) and how predictable the sizes\n"
	      "             are: the share of calls whose size class (and size) is\n"
	      "             the previous call's in the same thread, the entropy of\n"
	      "             the size classes, and that entropy given the previous\n"
	      "             call's class (bits a predictor that knows the previous\n"
	      "             class still lacks: 0 is fully predictable)\n\n"
	      "Copies made after the interposer's destructor, inside a signal handler\n"
	      "that interrupted a copy, or by a process that ends with _exit or exec\n"
	      "are not recorded; those before main (other libraries' constructors)\n"
	      "are.  Children write their own records, which are merged.  A program\n"
	      "stopped by SIGINT, SIGTERM or SIGHUP (Ctrl-C, or the signal sent to\n"
	      "ucopy, which passes it on) writes its record first, where it left\n"
	      "that signal at its default (sigaction and signal still show CMD\n"
	      "SIG_DFL, and a handler it installs replaces the interposer's).\n"
	      "When CMD ends, trace waits for records its other processes are still\n"
	      "writing (up to 5 s without progress); a signal to ucopy then ends\n"
	      "that wait, and is held until the files are written.  A static or\n"
	      "setuid CMD ignores LD_PRELOAD: trace says so and records nothing.\n\n"
	      "exit status: CMD's (128+N when killed by signal N) once the files are\n"
	      "written, or when the interposer never loaded (1 if CMD ended well);\n"
	      "1 the files could not be written, or no copy was recorded; 2 bad input\n"
	      "(command line, an -o whose files cannot be written, checked before\n"
	      "CMD runs; a malformed file: 'FILE:LINE: what was expected')\n", f);
}

/*=====   --summary   =====*/

/* Size classes of the summary: 0 is size 0, 1 is 1-16, k >= 2 is
 * 2^(k+2)+1 .. 2^(k+3) (17-32, 33-64, ..., 513-1K, ...). */
#define SEQ_NCLASSES 64

static unsigned seq_class(uint64_t size)
{
	if (size == 0)
		return 0;
	if (size <= 16)
		return 1;
	unsigned lg = 64 - (unsigned)__builtin_clzll(size - 1);  /* ceil(log2) */
	return lg - 3;
}

/* A power of two, 2^k for k < 64, in the largest binary unit that divides
 * it: "512", "1K", "512G", "1T", "8E". */
static void pow2_format(unsigned k, char *buf, size_t len)
{
	static const char unit[] = " KMGTPE";
	snprintf(buf, len, "%llu%.*s", 1ULL << (k % 10), k >= 10, &unit[k / 10]);
}

/* "0", "1-16", "513-1K", ..., "524289-1M", then "1M+1-2M", ..., "512G+1-1T",
 * ..., "over 8E": each class's first and last size, exact (a decimal first
 * size past 1M would be 7 to 19 digits long; the last class ends at
 * 2^64 - 1, which no unit names). */
static void seq_class_name(unsigned c, char *buf, size_t len)
{
	if (c <= 1) {
		snprintf(buf, len, c ? "1-16" : "0");
		return;
	}
	char lo[24], hi[24];
	pow2_format(c + 2, lo, sizeof lo);
	if (c + 3 >= 64) {
		snprintf(buf, len, "over %s", lo);
		return;
	}
	pow2_format(c + 3, hi, sizeof hi);
	if (c + 2 < 20)
		snprintf(buf, len, "%llu-%s", (1ULL << (c + 2)) + 1, hi);
	else
		snprintf(buf, len, "%s+1-%s", lo, hi);
}

/* Bytes summed over a file's calls: up to 2^24 sizes of up to 2^64 - 1 each,
 * past what 64 bits (or a double, exactly) hold. */
typedef unsigned __int128 total_t;

static const char *total_format(total_t v, char *buf, size_t len)
{
	char t[48];
	size_t i = sizeof t;
	t[--i] = 0;
	do {
		t[--i] = (char)('0' + (unsigned)(v % 10));
		v /= 10;
	} while (v);
	snprintf(buf, len, "%s", t + i);
	return buf;
}

static double entropy(const double *count, size_t n, double total)
{
	double h = 0;
	for (size_t i = 0; i < n; i++)
		if (count[i] > 0)
			h -= count[i] / total * log2(count[i] / total);
	return h;
}

static int summary(const char *path)
{
	struct seq_file s;
	char err[1024];
	if (seq_read(path, (struct seq_limits){ UINT64_MAX, SEQ_MAX_CALLS, 0 }, &s, err,
		     sizeof err) < 0) {
		cli_error("%s", err);
		return EXIT_USAGE;
	}
	static double calls[SEQ_NCLASSES];
	static total_t bytes[SEQ_NCLASSES];
	static double pair[SEQ_NCLASSES][SEQ_NCLASSES];
	double ncalls = 0, pairs = 0, same_class = 0, same_size = 0;
	total_t nbytes = 0;
	int sampled = 0;
	for (size_t t = 0; t < s.nthreads; t++) {
		const struct seq_thread *th = &s.thread[t];
		sampled |= th->has_meta && th->every > 1;
		for (size_t i = 0; i < th->n; i++) {
			unsigned c = seq_class(th->call[i].size);
			calls[c]++;
			bytes[c] += th->call[i].size;
			ncalls++;
			nbytes += th->call[i].size;
			if (i) {
				unsigned p = seq_class(th->call[i - 1].size);
				pair[p][c]++;
				pairs++;
				same_class += p == c;
				same_size += th->call[i - 1].size == th->call[i].size;
			}
		}
	}
	char num[48];
	printf("%s: %.0f calls in %zu thread%s, %s bytes copied%s\n", path, ncalls,
	       s.nthreads, s.nthreads == 1 ? "" : "s", total_format(nbytes, num, sizeof num),
	       sampled ? " (sampled: see the file's header)" : "");
	printf("%-16s %12s %8s %20s %8s\n", "size class", "calls", "calls%", "bytes", "bytes%");
	for (unsigned c = 0; c < SEQ_NCLASSES; c++) {
		if (!calls[c])
			continue;
		char name[64];
		seq_class_name(c, name, sizeof name);
		printf("%-16s %12.0f %7.1f%% %20s %7.1f%%\n", name, calls[c],
		       100 * calls[c] / ncalls, total_format(bytes[c], num, sizeof num),
		       nbytes ? 100 * (double)bytes[c] / (double)nbytes : 0.0);
	}
	double h = ncalls ? entropy(calls, SEQ_NCLASSES, ncalls) : NAN;
	/* H(class | previous class) = H(previous, class) - H(previous) */
	double hcond = NAN;
	if (pairs) {
		double joint = 0, prev[SEQ_NCLASSES] = { 0 };
		for (unsigned p = 0; p < SEQ_NCLASSES; p++)
			for (unsigned c = 0; c < SEQ_NCLASSES; c++)
				if (pair[p][c]) {
					joint -= pair[p][c] / pairs * log2(pair[p][c] / pairs);
					prev[p] += pair[p][c];
				}
		hcond = joint - entropy(prev, SEQ_NCLASSES, pairs);
		if (hcond < 0)
			hcond = 0;
	}
	printf("predictability (%.0f pairs of consecutive calls in one thread):\n", pairs);
	/* With no pair (one call per thread) there is no previous class to
	 * condition on: say so rather than print "nan". */
	if (pairs) {
		printf("  same size class as the previous call: %.1f%%\n", 100 * same_class / pairs);
		printf("  same size as the previous call:       %.1f%%\n", 100 * same_size / pairs);
		printf("  size-class entropy: %.2f bits; given the previous call's class: %.2f bits\n",
		       h, hcond);
	} else if (ncalls)
		printf("  size-class entropy: %.2f bits; given the previous call's class: "
		       "no two calls in a row in one thread\n", h);
	seq_free(&s);
	return EXIT_OK;
}

/*=====   Recording   =====*/

struct tref {
	struct seq_thread *th;
	const char *proc;
};

static int by_first(const void *a, const void *b)
{
	const struct seq_thread *x = ((const struct tref *)a)->th;
	const struct seq_thread *y = ((const struct tref *)b)->th;
	if (x->first_ns != y->first_ns)
		return x->first_ns < y->first_ns ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static int by_size(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void ordinal(uint64_t k, char *buf, size_t len)
{
	const char *suf = k % 100 >= 11 && k % 100 <= 13 ? "th" :
			  k % 10 == 1 ? "st" : k % 10 == 2 ? "nd" : k % 10 == 3 ? "rd" : "th";
	snprintf(buf, len, "%llu%s", (unsigned long long)k, suf);
}

/* One argument of the '# program:' line, each written after one space, so
 * that the line reads back exactly (docs/trace.md): a backslash is \\, a
 * space \<space>, newline, CR and tab \n, \r, \t, another control byte
 * \xNN; other bytes (UTF-8) as they are.  A newline as itself would end
 * the comment, and the rest of the argument would be read as calls. */
static void write_arg(FILE *f, const char *a)
{
	for (const unsigned char *c = (const unsigned char *)a; *c; c++)
		if (*c == '\\' || *c == ' ')
			fprintf(f, "\\%c", *c);
		else if (*c == '\n')
			fputs("\\n", f);
		else if (*c == '\r')
			fputs("\\r", f);
		else if (*c == '\t')
			fputs("\\t", f);
		else if (*c < ' ' || *c == 0x7f)
			fprintf(f, "\\x%02x", *c);
		else
			fputc(*c, f);
}

/* The LLVM libc form holds one probability per size from 0 to the largest,
 * so sizes past LLVM_MAX_SIZE are left out of it.  LLVM libc's benchmark
 * (LibcMemoryBenchmark.cpp, getOffsetDistribution) aborts with "BufferSize
 * too small" when the probabilities outnumber its buffer, (L1D - 5 KiB) / 2
 * bytes: 13,824 on a 32 KiB L1D, 5,632 on a 16 KiB one.  4 KiB is about
 * what LLVM's own distribution files span.  Both forms leave
 * out sizes past DIST_MAX_SIZE, which --dist refuses. */
#define LLVM_MAX_SIZE ((uint64_t)4 << 10)

/* The records each distribution holds: *csv copies of DIST_MAX_SIZE bytes
 * or less, *llvm of LLVM_MAX_SIZE or less. */
static void dist_counts(const struct tref *t, size_t nt, size_t *csv, size_t *llvm)
{
	*csv = *llvm = 0;
	for (size_t i = 0; i < nt; i++)
		for (size_t j = 0; j < t[i].th->n; j++) {
			*csv += t[i].th->call[j].size <= DIST_MAX_SIZE;
			*llvm += t[i].th->call[j].size <= LLVM_MAX_SIZE;
		}
}

static void write_seq(FILE *f, struct tref *t, size_t nt, char **argv, size_t nproc,
		      const char *cap, uint64_t lost_calls, uint64_t lost_threads)
{
	uint64_t calls = 0, recorded = 0;
	for (size_t i = 0; i < nt; i++) {
		calls += t[i].th->calls;
		recorded += t[i].th->n;
	}
	fprintf(f, "# ucopy sequence 1\n# program:");
	for (char **a = argv; *a; a++) {
		fputc(' ', f);
		write_arg(f, *a);
	}
	fprintf(f, "\n# %zu process%s, %zu thread%s, %llu calls, %llu recorded\n", nproc,
		nproc == 1 ? "" : "es", nt, nt == 1 ? "" : "s", (unsigned long long)calls,
		(unsigned long long)recorded);
	/* The distributions have no room for a comment (their readers take
	 * numbers only): what they leave out is said here. */
	size_t csv, llvm;
	dist_counts(t, nt, &csv, &llvm);
	if (csv == 0)
		fprintf(f, "# distributions: none (every recorded copy is over %zu MiB)\n",
			DIST_MAX_SIZE >> 20);
	else if (llvm == 0 && csv == recorded)
		fprintf(f, "# distributions: .csv holds all %llu recorded copies, no .llvm.csv "
			"(every copy is over %llu KiB)\n", (unsigned long long)recorded,
			(unsigned long long)(LLVM_MAX_SIZE >> 10));
	else if (llvm == 0)
		fprintf(f, "# distributions: .csv holds %zu of the %llu recorded copies (%llu over "
			"%zu MiB left out), no .llvm.csv (every copy is over %llu KiB)\n", csv,
			(unsigned long long)recorded, (unsigned long long)(recorded - csv),
			DIST_MAX_SIZE >> 20, (unsigned long long)(LLVM_MAX_SIZE >> 10));
	else if (llvm == recorded)
		fprintf(f, "# distributions: .csv and .llvm.csv hold all %llu recorded copies\n",
			(unsigned long long)recorded);
	else if (csv == recorded)
		fprintf(f, "# distributions: .csv holds all %llu recorded copies, .llvm.csv %zu "
			"(%llu over %llu KiB left out)\n", (unsigned long long)recorded, llvm,
			(unsigned long long)(recorded - llvm),
			(unsigned long long)(LLVM_MAX_SIZE >> 10));
	else
		fprintf(f, "# distributions: .csv holds %zu of the %llu recorded copies (%llu over "
			"%zu MiB left out), .llvm.csv %zu (%llu over %llu KiB left out)\n", csv,
			(unsigned long long)recorded, (unsigned long long)(recorded - csv),
			DIST_MAX_SIZE >> 20, llvm, (unsigned long long)(recorded - llvm),
			(unsigned long long)(LLVM_MAX_SIZE >> 10));
	if (lost_calls)
		fprintf(f, "# lost: %llu calls of %llu thread%s that found no memory for %s records\n",
			(unsigned long long)lost_calls, (unsigned long long)lost_threads,
			lost_threads == 1 ? "" : "s", lost_threads == 1 ? "its" : "their");
	for (size_t i = 0; i < nt; i++) {
		const struct seq_thread *th = t[i].th;
		if (th->every > 1) {
			char k[32];
			ordinal(th->every, k, sizeof k);
			fprintf(f, "# sampled: thread %zu made %llu calls: every %s call is recorded "
				"(the cap is %s a thread, and a file holds %zu calls)\n", i,
				(unsigned long long)th->calls, k, cap, SEQ_MAX_CALLS);
		}
	}
	for (size_t i = 0; i < nt; i++) {
		const struct seq_thread *th = t[i].th;
		fprintf(f, "# thread %zu pid %llu tid %llu first_ns %llu calls %llu every %llu\n", i,
			(unsigned long long)th->pid, (unsigned long long)th->tid,
			(unsigned long long)th->first_ns, (unsigned long long)th->calls,
			(unsigned long long)th->every);
	}
	for (size_t i = 0; i < nt; i++)
		for (size_t j = 0; j < t[i].th->n; j++) {
			const struct seq_call *c = &t[i].th->call[j];
			fprintf(f, "%zu %llu %u %u %u\n", i, (unsigned long long)c->size,
				c->src_align, c->dst_align, c->distance);
		}
}

/* The LLVM libc form of the first n of the sorted sizes (those up to
 * LLVM_MAX_SIZE, n > 0): one line of probabilities, the i-th for size i,
 * and nothing else: LLVM libc's benchmark #includes the file between the
 * braces of a double[] initializer, where a '#' line is a preprocessor
 * directive. */
static void write_llvm(FILE *f, const uint64_t *sz, size_t n)
{
	/* Size 0 alone would be "1", no list at all: --dist takes a line
	 * without a comma for 'SIZE WEIGHT'.  Size 1's probability 0 keeps it
	 * one. */
	uint64_t last = sz[n - 1] ? sz[n - 1] : 1;
	for (size_t i = 0, s = 0; s <= last; s++) {
		size_t j = i;
		while (j < n && sz[j] == s)
			j++;
		fprintf(f, s ? ",%.9g" : "%.9g", (double)(j - i) / (double)n);
		i = j;
	}
	fprintf(f, "\n");
}

/* The copies larger than a replay or a distribution takes. */
static size_t count_over(const struct tref *t, size_t nt)
{
	size_t over = 0;
	for (size_t i = 0; i < nt; i++)
		for (size_t j = 0; j < t[i].th->n; j++)
			over += t[i].th->call[j].size > SEQ_MAX_SIZE;
	return over;
}

/* @return : 0, -1 when out of memory, 1 when no copy fits a distribution
 * (nothing written).  Writes the fleetbench form to f and the LLVM one to
 * llvm, or sets *no_llvm when no copy fits the LLVM form: an empty file
 * would be an empty initializer to LLVM's benchmark (write errors are the
 * caller's, at outfile_commit()).
 * The fleetbench form: sizes with their probabilities, the overlap line,
 * the alignment line (P(a pointer's alignment is exactly 2^i), from both
 * pointers of every call; offset 0 in a cache line counts as 64), and no
 * other line: fleetbench reads three.  What either form leaves out is said
 * on stderr (and in the .seq's header, by write_seq()). */
static int write_csv(FILE *f, FILE *llvm, int *no_llvm, struct tref *t, size_t nt,
		     uint64_t total)
{
	*no_llvm = 0;
	uint64_t *sz = malloc((total ? total : 1) * sizeof *sz);
	if (!sz)
		return -1;
	double align[7] = { 0 };
	size_t k = 0, over = 0;
	for (size_t i = 0; i < nt; i++)
		for (size_t j = 0; j < t[i].th->n; j++) {
			const struct seq_call *c = &t[i].th->call[j];
			/* --dist refuses a size past DIST_MAX_SIZE: the file says
			 * how many copies it leaves out rather than being refused. */
			if (c->size > DIST_MAX_SIZE) {
				over++;
				continue;
			}
			sz[k++] = c->size;
			unsigned off[2] = { c->src_align, c->dst_align };
			for (int p = 0; p < 2; p++)
				align[off[p] ? __builtin_ctz(off[p]) : 6]++;
		}
	if (!k) {
		free(sz);
		return 1;
	}
	qsort(sz, k, sizeof *sz, by_size);
	size_t n = 0;
	while (n < k && sz[n] <= LLVM_MAX_SIZE)
		n++;
	if (over)
		fprintf(stderr, "ucopy trace: %zu cop%s over %zu MiB left out of the .csv and "
			".llvm.csv distributions (the most a distribution names)\n", over,
			over == 1 ? "y" : "ies", DIST_MAX_SIZE >> 20);
	if (!n)
		*no_llvm = 1;   /* said by the caller, which knows the file's name */
	else if (n < k)
		fprintf(stderr, "ucopy trace: %zu more cop%s over %llu KiB left out of the "
			".llvm.csv distribution (one probability per size from 0)\n", k - n,
			k - n == 1 ? "y" : "ies", (unsigned long long)(LLVM_MAX_SIZE >> 10));
	for (size_t i = 0; i < k;) {
		size_t j = i;
		while (j < k && sz[j] == sz[i])
			j++;
		fprintf(f, "%s%llu:%.9g", i ? "," : "", (unsigned long long)sz[i],
			(double)(j - i) / (double)k);
		i = j;
	}
	fprintf(f, "\n0:1\n");
	for (int i = 0; i < 7; i++)
		fprintf(f, "%s%d:%.9g", i ? "," : "", 1 << i, align[i] / (2.0 * (double)k));
	fprintf(f, "\n");
	if (n)
		write_llvm(llvm, sz, n);
	free(sz);
	return 0;
}

/* Halves every thread's records (each keeps every other one of those it
 * holds, so still every k-th call of its life) until the file fits what the
 * reader takes.  @return : the calls left. */
static uint64_t fit_calls(struct tref *t, size_t nt, uint64_t total)
{
	while (total > SEQ_MAX_CALLS) {
		total = 0;
		for (size_t i = 0; i < nt; i++) {
			struct seq_thread *th = t[i].th;
			for (size_t j = 0; 2 * j < th->n; j++)
				th->call[j] = th->call[2 * j];
			th->n = (th->n + 1) / 2;
			th->every = 2 * (th->every ? th->every : 1);
			th->has_meta = 1;
			total += th->n;
		}
	}
	return total;
}

static int is_tmp(const char *name)
{
	size_t len = strlen(name);
	return len > 4 && !strcmp(name + len - 4, ".tmp");
}

/* Removes dir and the records in it (a .failed marker may be a directory:
 * preload/preload.c, mark_failed), but not a record still being written
 * (NAME.tmp): the process writing it would fail with "No such file or
 * directory".  Then dir stays, and is named. */
static void remove_parts(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[8192], left[256] = "";
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.') {
			if (is_tmp(e->d_name)) {
				snprintf(left, sizeof left, "%s", e->d_name);
				continue;
			}
			snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
			if (unlink(path) != 0 && (errno == EISDIR || errno == EPERM))
				rmdir(path);
		}
	if (d)
		closedir(d);
	if (rmdir(dir) != 0 && (errno == ENOTEMPTY || errno == EEXIST))
		fprintf(stderr, "ucopy trace: %s is left: a process is still writing its record "
			"there, or was killed writing it%s%s%s\n", dir, *left ? " (" : "", left,
			*left ? ")" : "");
}

/* A stopping signal to ucopy after the program ended: the merge and the
 * output files are finished first (ucopy dying halfway would leave the
 * records unmerged and nothing written), and ucopy then exits as the
 * program did. */
static volatile sig_atomic_t deferred;

static void defer_signal(int sig)
{
	static const char msg[] = "ucopy trace: signal received: the records are merged and "
				  "the files written first\n";
	if (!deferred) {
		ssize_t w = write(2, msg, sizeof msg - 1);
		(void)w;
	}
	deferred = sig;
}

static const int stop_sigs[] = { SIGINT, SIGTERM, SIGHUP };
#define NSTOP (sizeof stop_sigs / sizeof stop_sigs[0])

/* An ignored signal (nohup) stays ignored. */
static void defer_stop_signals(struct sigaction old[NSTOP])
{
	struct sigaction sa = { .sa_handler = defer_signal, .sa_flags = SA_RESTART };
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NSTOP; i++)
		sigaddset(&sa.sa_mask, stop_sigs[i]);
	for (size_t i = 0; i < NSTOP; i++)
		if (sigaction(stop_sigs[i], NULL, &old[i]) == 0 && old[i].sa_handler != SIG_IGN)
			sigaction(stop_sigs[i], &sa, NULL);
}

static void restore_stop_signals(const struct sigaction old[NSTOP])
{
	for (size_t i = 0; i < NSTOP; i++)
		sigaction(stop_sigs[i], &old[i], NULL);
}

static double mono_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The records being written in dir (NAME.tmp), and their bytes. */
static size_t writing(const char *dir, long long *bytes)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[8192];
	size_t n = 0;
	*bytes = 0;
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.' && is_tmp(e->d_name)) {
			struct stat st;
			snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
			n++;
			if (stat(path, &st) == 0)
				*bytes += (long long)st.st_size;
		}
	if (d)
		closedir(d);
	return n;
}

/* ucopy waits for its own child only: the processes that child forked may
 * still be writing their records when it ends (^C reaches them all, and a
 * large record takes a while), and a merge then would leave them out.  So
 * the merge waits while a record is being written and growing, up to
 * WRITERS_STALL_S without growth (a writer killed halfway) or
 * WRITERS_MAX_S in all (processes that keep ending).  After a stop (the
 * program killed by a signal, or exiting 129 or more as a shell does), the
 * other processes got the signal as well: they are given WRITERS_GRACE_S
 * to begin.  A second signal to ucopy ends the wait. */
#define WRITERS_GRACE_S 0.2
#define WRITERS_STALL_S 5.0
#define WRITERS_MAX_S 60.0

static void wait_for_writers(const char *dir, int stopped)
{
	const struct timespec tick = { 0, 20 * 1000 * 1000 };
	double t0 = mono_now(), changed = t0;
	long long last = -1;
	size_t lastn = 0;
	for (;;) {
		long long bytes;
		size_t n = writing(dir, &bytes);
		double t = mono_now();
		if (!n && (!stopped || t - t0 >= WRITERS_GRACE_S))
			return;
		if (n != lastn || bytes != last) {
			changed = t;
			lastn = n;
			last = bytes;
		}
		if (deferred)
			return;
		if (n && (t - changed >= WRITERS_STALL_S || t - t0 >= WRITERS_MAX_S)) {
			fprintf(stderr, "ucopy trace: %zu record%s still being written after %.0f s "
				"(%s): merging without %s\n", n, n == 1 ? "" : "s", t - t0,
				t - changed >= WRITERS_STALL_S ? "not growing" : "the longest wait",
				n == 1 ? "it" : "them");
			return;
		}
		nanosleep(&tick, NULL);
	}
}

/* The three files trace writes, opened before the program runs. */
enum { OUT_SEQ, OUT_CSV, OUT_LLVM, NOUT };
static const char *const out_suffix[NOUT] = { ".seq", ".csv", ".llvm.csv" };

/* Abandons every output (one never opened, or already committed, is left
 * as it is). */
static void abandon_outputs(struct outfile *out)
{
	for (int i = 0; i < NOUT; i++)
		outfile_abandon(&out[i]);
}

/* Reads every process's file in dir, orders the threads by first copy,
 * writes and commits the outputs, and removes dir; when that fails, dir is
 * kept and named, and the outputs are abandoned. */
/* Over 100 lines: every exit settles the outputs and dir together, from this frame's state. */
static int merge(const char *dir, struct outfile *out, char **argv, const char *cap)
{
	DIR *d = opendir(dir);
	if (!d) {
		cli_error("cannot read '%s': %s", dir, strerror(errno));
		abandon_outputs(out);
		return EXIT_FAIL;
	}
	/* A part may hold more calls than a file the reader takes (several
	 * threads at the cap): they are read whole and sampled below. */
	const struct seq_limits part = { UINT64_MAX, SIZE_MAX, 1 };
	struct seq_file *files = NULL;
	size_t nfiles = 0, nt = 0;
	int rc = EXIT_OK, keep = 0;   /* keep: a record unread, or nothing written */
	uint64_t lost_calls = 0, lost_threads = 0;
	size_t failed = 0;   /* records a process could not write (it said why) */
	struct dirent *e;
	char path[8192], err[1024];
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		/* Written under a temporary name and renamed when complete: a
		 * process still running (a daemon the program started) has
		 * not finished its record. */
		if (len > 4 && !strcmp(e->d_name + len - 4, ".tmp")) {
			fprintf(stderr, "ucopy trace: a process was still writing its record when "
				"the program ended: %s left out\n", e->d_name);
			continue;
		}
		/* Emptied and renamed so by a process whose write failed,
		 * after it printed why (preload/preload.c, trace_write). */
		if (len > 7 && !strcmp(e->d_name + len - 7, ".failed")) {
			failed++;
			continue;
		}
		struct seq_file s;
		if (seq_read(path, part, &s, err, sizeof err) < 0) {
			cli_error("a process's record: %s", err);
			rc = EXIT_FAIL;
			keep = 1;
			continue;
		}
		struct seq_file *nf = realloc(files, (nfiles + 1) * sizeof *nf);
		if (!nf) {
			seq_free(&s);
			cli_error("out of memory");
			rc = EXIT_FAIL;
			keep = 1;
			break;
		}
		files = nf;
		files[nfiles++] = s;
		nt += s.nthreads;
		lost_calls += s.lost_calls;
		lost_threads += s.lost_threads;
	}
	closedir(d);
	if (lost_calls)
		fprintf(stderr, "ucopy trace: %llu calls of %llu thread%s not recorded: no memory "
			"for their records\n", (unsigned long long)lost_calls,
			(unsigned long long)lost_threads, lost_threads == 1 ? "" : "s");
	struct tref *t = calloc(nt ? nt : 1, sizeof *t);
	uint64_t total = 0, before;
	size_t k = 0;
	for (size_t i = 0; t && i < nfiles; i++)
		for (size_t j = 0; j < files[i].nthreads; j++) {
			t[k++].th = &files[i].thread[j];
			total += files[i].thread[j].n;
		}
	if (!t) {
		cli_error("out of memory");
		rc = EXIT_FAIL;
		keep = 1;
	} else if (rc == EXIT_OK && total == 0) {
		/* A record that could not be written has had its one message,
		 * the true one: a second would guess at a reason. */
		if (!failed)
			cli_error("no copies were recorded (a process writes its record at exit "
				  "or when SIGINT, SIGTERM or SIGHUP ends it: one killed by another "
				  "signal, or ended by _exit or exec, leaves none); nothing written");
		rc = EXIT_FAIL;
	} else if (rc == EXIT_OK) {
		int wrc;
		qsort(t, nt, sizeof *t, by_first);
		if (nt > SEQ_MAX_THREADS) {
			fprintf(stderr, "ucopy trace: %zu threads copied; the first %u to copy are "
				"kept (the most a sequence file numbers)\n", nt, SEQ_MAX_THREADS);
			nt = SEQ_MAX_THREADS;
			total = 0;
			for (size_t i = 0; i < nt; i++)
				total += t[i].th->n;
		}
		before = total;
		total = fit_calls(t, nt, total);
		if (total < before)
			fprintf(stderr, "ucopy trace: %llu calls recorded, more than a sequence file "
				"holds (%zu): every thread's records halved to %llu\n",
				(unsigned long long)before, SEQ_MAX_CALLS, (unsigned long long)total);
		write_seq(out[OUT_SEQ].f, t, nt, argv, nfiles, cap, lost_calls, lost_threads);
		int no_llvm = 0;
		if ((wrc = write_csv(out[OUT_CSV].f, out[OUT_LLVM].f, &no_llvm, t, nt, total)) < 0) {
			cli_error("out of memory");
			rc = EXIT_FAIL;
			keep = 1;
		} else {
			/* Every output is on disk before any replaces its old
			 * file: a full disk leaves all of them as they were.
			 * (The .seq alone when no copy fits a distribution.) */
			if (wrc)
				outfile_abandon(&out[OUT_CSV]);
			if (wrc || no_llvm)
				outfile_abandon(&out[OUT_LLVM]);
			if (rc == EXIT_OK)
				rc = outfile_commit_all((struct outfile *const[]){
					&out[OUT_SEQ], &out[OUT_CSV], &out[OUT_LLVM] }, NOUT);
			keep = rc != EXIT_OK;
		}
		if (rc == EXIT_OK) {
			if (failed)
				fprintf(stderr, "ucopy trace: %zu process%s could not write %s record "
					"(above): left out\n", failed, failed == 1 ? "" : "es",
					failed == 1 ? "its" : "their");
			if (wrc)
				fprintf(stderr, "ucopy trace: no %s: every copy is over %zu MiB, more "
					"than a distribution may name\n", out[OUT_CSV].name,
					DIST_MAX_SIZE >> 20);
			else if (no_llvm)
				fprintf(stderr, "ucopy trace: no %s: every copy is over %llu KiB, the "
					"largest size it holds (one probability per size from 0)\n",
					out[OUT_LLVM].name, (unsigned long long)(LLVM_MAX_SIZE >> 10));
			int llvm = !wrc && !no_llvm;
			fprintf(stderr, "ucopy trace: %llu copies in %zu thread%s of %zu process%s: "
				"%s%s%s%s%s\n", (unsigned long long)total, nt, nt == 1 ? "" : "s",
				nfiles, nfiles == 1 ? "" : "es", out[OUT_SEQ].name,
				wrc ? "" : ", ", wrc ? "" : out[OUT_CSV].name, llvm ? ", " : "",
				llvm ? out[OUT_LLVM].name : "");
			size_t over = count_over(t, nt);
			if (over)
				fprintf(stderr, "ucopy trace: %zu cop%s over %zu MiB, more than a "
					"replay takes: --replay refuses %s (trace --summary reads "
					"it)\n", over, over == 1 ? "y is" : "ies are",
					(size_t)SEQ_MAX_SIZE >> 20, out[OUT_SEQ].name);
		}
	}
	abandon_outputs(out);
	free(t);
	for (size_t i = 0; i < nfiles; i++)
		seq_free(&files[i]);
	free(files);
	if (!keep)
		remove_parts(dir);
	else
		fprintf(stderr, "ucopy trace: the processes' records are kept in %s\n", dir);
	return rc;
}

/* Over 100 lines: the checks in the order that picks a bad command line's message. */
int cmd_trace(int argc, char **argv)
{
	const char *out = NULL, *cap = NULL, *sum = NULL;
	int dd = child_dashdash(argc, argv);
	int end = dd ? dd : argc;
	for (int i = 1; i < end; i++) {
		int rc = 0;
		const char *v;
		if ((v = cli_opt_value(CMD, end, argv, &i, "-o", 0, &rc)))
			out = v;
		else if ((v = cli_opt_value(CMD, end, argv, &i, "--cap", CLI_VALUE_NUMBER, &rc)))
			cap = v;
		else if ((v = cli_opt_value(CMD, end, argv, &i, "--summary", 0, &rc)))
			sum = v;
		else if (rc)
			return rc;
		else
			return cli_usage_error(CMD, "unexpected argument '%s' (the program "
					       "comes after '--')", argv[i]);
	}
	if (out && !*out)
		return cli_usage_error(CMD, "empty output file name (-o PREFIX)");
	if (sum) {
		if (dd || out || cap)
			return cli_usage_error(CMD, "--summary takes a file and nothing else");
		return summary(sum);
	}
	if (!dd)
		return cli_usage_error(CMD, "no program to trace (expected '-- CMD [ARGS...]' "
				       "or '--summary FILE')");
	if (dd + 1 >= argc)
		return cli_usage_error(CMD, "no program after '--'");
	if (cap) {
		char *e;
		errno = 0;
		unsigned long long c = strtoull(cap, &e, 10);
		/* More than a sequence file holds would only be sampled again at
		 * the merge, after the memory was spent. */
		if (cap[0] < '0' || cap[0] > '9' || *e || errno || c < 2 || c > SEQ_MAX_CALLS)
			return cli_usage_error(CMD, "bad --cap '%s' (expected a number of calls, "
					       "2 to %zu)", cap, SEQ_MAX_CALLS);
	}
	if (!out)
		out = DEFAULT_OUT;
	char err[512], so[4096], dir[8192], prefix[8300];
	if (cli_preload_find(so, sizeof so))
		return EXIT_USAGE;
	/* PREFIX names files: "dir/" would write dir/.seq, hidden. */
	const char *base = path_base(out);
	if (!*base || !strcmp(base, ".") || !strcmp(base, ".."))
		return cli_usage_error(CMD, "cannot write '%s': not a file name (expected -o "
				       "PREFIX, the outputs' name before .seq)", out);
	/* The outputs are checked and opened before the program runs, as
	 * every other command's -o is: a program that ran for an hour
	 * must not end in "cannot write". */
	char names[NOUT][8192];
	struct outfile files[NOUT] = { { 0 } };
	for (int i = 0; i < NOUT; i++) {
		snprintf(names[i], sizeof names[i], "%s%s", out, out_suffix[i]);
		int rc = outfile_open(&files[i], CMD, names[i]);
		if (rc) {
			while (i--)
				outfile_abandon(&files[i]);
			return rc;
		}
	}
	/* The processes' own files go to a directory beside the output, so
	 * that a program that changes directory still writes them there. */
	snprintf(dir, sizeof dir, "%s.parts.XXXXXX", out);
	char abs[4096];
	int made = mkdtemp(dir) != NULL;
	if (!made || !realpath(dir, abs)) {
		int e = errno;
		if (made)
			rmdir(dir);
		abandon_outputs(files);
		return cli_usage_error(CMD, "cannot make a directory beside '%s' for the "
				       "processes' records: %s", out, strerror(e));
	}
	snprintf(prefix, sizeof prefix, "%s/p", abs);
	struct child_opts o = { .preload = so, .trace_out = prefix,
				.trace_cap = cap ? cap : DEFAULT_CAP, .forward_signals = 1 };
	struct child_result r;
	/* Caught from here to the end (child_run passes them on while the
	 * program runs, and puts these handlers back after). */
	struct sigaction old_stop[NSTOP];
	defer_stop_signals(old_stop);
	if (child_run(argv + dd + 1, &o, &r, err, sizeof err) < 0) {
		cli_error("%s", err);
		rmdir(abs);   /* empty: the program never ran */
		abandon_outputs(files);
		restore_stop_signals(old_stop);
		return EXIT_USAGE;
	}
	/* Nothing to merge, and the reason is not the program's: its own
	 * status is kept, or 1 for one that ended well untraced. */
	if (!r.preload_loaded) {
		child_not_loaded(argv + dd + 1, err, sizeof err);
		cli_error("%s: no copies were recorded; nothing written", err);
		remove_parts(abs);
		abandon_outputs(files);
		restore_stop_signals(old_stop);
		return r.status ? child_exit_code(r.status) : EXIT_FAIL;
	}
	wait_for_writers(abs, WIFSIGNALED(r.status) ||
				      (WIFEXITED(r.status) && WEXITSTATUS(r.status) > 128));
	int rc = merge(abs, files, argv + dd + 1, o.trace_cap);
	restore_stop_signals(old_stop);
	return rc ? rc : child_exit_code(r.status);
}
