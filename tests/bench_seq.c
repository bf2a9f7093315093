/*
 * bench_seq.c - the sequence reader's cost per thread: a file of 2^20
 * one-call threads (the most the format numbers), read as `ucopy trace
 * --summary` reads it (seq_read) and as `bench --replay` does
 * (replay_read_file), and the same threads with the "# thread" line
 * `ucopy trace` writes for each (seq_read).
 *
 * Each read runs in a child of its own, so that its peak RSS (getrusage's
 * ru_maxrss, before and after the read) is its own.  When the reader kept
 * an array per thread, a one-call thread cost 4 KiB and 15-30 us: 17-33 s
 * and 4.2 GB for the first file, and the "# thread" lines were matched by a
 * scan, quadratic (docs/trace.md, "Reading cost").  The line this prints
 * holds each read to under 2 s and 200 MB.  Exit status is 0 whatever the
 * verdict (make bench reads the line); non-zero only when it could not
 * measure.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "machine.h"
#include "measure.h"
#include "sequence.h"

#define THREADS SEQ_MAX_THREADS
#define MAX_SECONDS 2.0
#define MAX_MB 200.0

/* The file: its threads, one call each, with or without "# thread" lines
 * (all of them first, as `ucopy trace` writes them). */
static int write_file(const char *path, int meta)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(SEQ_HEADER "\n", f);
	for (unsigned t = 0; meta && t < THREADS; t++)
		fprintf(f, "# thread %u pid 100 tid %u first_ns %u calls 1 every 1\n", t,
			1000 + t, 10 * t);
	for (unsigned t = 0; t < THREADS; t++)
		fprintf(f, "%u %u %u %u %u\n", t, 1 + t % 256, t % 64, (t + t / 64) % 64,
			t / 64 % 64);
	return fclose(f);
}

static double maxrss_mb(void)
{
	struct rusage u;
	getrusage(RUSAGE_SELF, &u);
	return (double)u.ru_maxrss / 1024;
}

enum { SEQ_READ, REPLAY_READ };

/* One read in the child: prints its time and peak RSS; exit 0 within the
 * bounds, 1 over them, 2 when the read failed. */
static int child(const char *path, int how)
{
	char err[512];
	double before = maxrss_mb(), t0 = clock_seconds();
	size_t threads = 0, calls = 0;
	int rc;
	if (how == SEQ_READ) {
		struct seq_file s;
		rc = seq_read(path, (struct seq_limits){ UINT64_MAX, SEQ_MAX_CALLS, 0 }, &s, err,
			      sizeof err);
		if (rc == 0) {
			threads = s.nthreads;
			for (size_t i = 0; i < s.nthreads; i++)
				calls += s.thread[i].n;
		}
		seq_free(&s);
	} else {
		struct replay r;
		rc = replay_read_file(path, &r, err, sizeof err);
		threads = r.nthreads;
		calls = r.seq.len;
		replay_free(&r);
	}
	double secs = clock_seconds() - t0, mb = maxrss_mb() - before;
	if (rc < 0 || threads != THREADS || calls != THREADS) {
		printf("  %s: %s\n", path, rc < 0 ? err : "wrong thread or call count");
		return 2;
	}
	printf("  %-16s %7.2f s %8.1f MB   %.2f us, %.0f B a thread\n",
	       how == SEQ_READ ? "seq_read" : "replay_read_file", secs, mb,
	       secs * 1e6 / THREADS, mb * 1024 * 1024 / THREADS);
	return secs < MAX_SECONDS && mb < MAX_MB ? 0 : 1;
}

int main(void)
{
	char cpu[256], dir[] = "/tmp/ucopy-bench-seq-XXXXXX", path[2][128];
	setvbuf(stdout, NULL, _IOLBF, 0);   /* the children's lines in order */
	machine_cpu_line(cpu, sizeof cpu);
	printf("machine   %s\n", cpu);
	if (!mkdtemp(dir)) {
		perror("bench_seq: mkdtemp");
		return 1;
	}
	static const char *const what[2] = { "calls alone", "a '# thread' line each" };
	int over = 0, runs = 0, failed = 0;
	for (int meta = 0; meta < 2; meta++) {
		snprintf(path[meta], sizeof path[meta], "%s/%s.seq", dir, meta ? "meta" : "calls");
		if (write_file(path[meta], meta) < 0) {
			perror("bench_seq: writing the file");
			unlink(path[meta]);
			failed = 1;
			break;
		}
		printf("%u one-call threads, %s:\n", THREADS, what[meta]);
		/* A replay reads through seq_read: once is enough for the second file. */
		for (int how = SEQ_READ; how <= (meta ? SEQ_READ : REPLAY_READ); how++) {
			fflush(stdout);
			pid_t pid = fork();
			if (pid == 0)
				_exit(child(path[meta], how));
			int st = 0;
			if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) ||
			    WEXITSTATUS(st) > 1) {
				failed = 1;
				continue;
			}
			over += WEXITSTATUS(st);
			runs++;
		}
		unlink(path[meta]);
	}
	rmdir(dir);
	if (failed) {
		fprintf(stderr, "bench_seq: a read failed\n");
		return 1;
	}
	printf("SEQ %d of %d reads of %u one-call threads within %.0f s and %.0f MB: %s\n",
	       runs - over, runs, THREADS, MAX_SECONDS, MAX_MB, over ? "FAIL" : "PASS");
	return 0;
}
