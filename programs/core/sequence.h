/*
 * sequence.h - recorded copy sequences (`ucopy trace` writes them, `bench
 * --replay` and `calibrate --replay` read them).
 *
 * The format keeps what a size distribution loses: the order of the calls.
 *
 *   # ucopy sequence 1
 *   # any number of comment lines, here or between calls
 *   THREAD SIZE SRC_ALIGN DST_ALIGN DISTANCE
 *
 * one line per call, the five fields decimal and separated by one space:
 * THREAD a small index (0, 1, 2, ...), SIZE the bytes copied, SRC_ALIGN src
 * mod 64, DST_ALIGN dst mod 64, DISTANCE (dst - src) mod 4096.  A thread's
 * calls are in call order and on consecutive lines.  The first line is the
 * header exactly; every line ends with a newline (a file cut short is
 * refused, not read as a shorter sequence).
 *
 * A replay is one copy sequence: the threads' calls one thread after the
 * other, in file order, replayed on one thread in a loop.  Each call keeps
 * its size, both alignments and its distance: the source is at SRC_ALIGN
 * past a cache-line-aligned slot and the destination at
 * (SRC_ALIGN + DISTANCE) mod 4096 past the matching slot of the destination
 * buffer (copy_op's dst_off may be up to 4095).  The measuring core walks
 * both sides' slots in step from page-aligned buffers with base offsets 0
 * (replay_cell()), so dst - src is DISTANCE mod 4096 and each side's
 * alignment mod 64 holds in every cache state.  That needs DST_ALIGN ==
 * (SRC_ALIGN + DISTANCE) mod 64, which any real call satisfies; a line that
 * does not is refused.
 */
#ifndef UCOPY_SEQUENCE_H
#define UCOPY_SEQUENCE_H

#include <stddef.h>
#include <stdint.h>

#include "dist.h"
#include "measure.h"

#define SEQ_HEADER "# ucopy sequence 1"
/* The largest call replayed: as for a distribution, bigger than any memcpy
 * a trace is likely to hold, small enough that its buffers always fit. */
#define SEQ_MAX_SIZE DIST_MAX_SIZE
/* The most calls read (16 bytes each in memory): 16 Mi calls, a file of at
 * most about 400 MiB.  A longer trace is to be sampled by its writer. */
#define SEQ_MAX_CALLS ((size_t)1 << 24)
#define SEQ_MAX_FILE ((size_t)512 << 20)
/* Thread indices: a trace numbers the threads it saw, and `ucopy trace`
 * keeps at most this many (12 bytes each while reading, of memory only a
 * number in use touches). */
#define SEQ_MAX_THREADS ((unsigned)1 << 20)

/* One recorded call, and a thread's calls in order. */
struct seq_call {
	uint64_t size;
	uint16_t distance;
	uint8_t src_align, dst_align;
};

struct seq_thread {
	unsigned index;          /* THREAD, as the file numbers it */
	/* From a comment "# thread T pid P tid X first_ns N calls C every K",
	 * one space between fields, K > 0 (`ucopy trace` writes one per
	 * thread; has_meta 0 without it, and any other comment is free):
	 * which process and thread T was, when it first copied, how many
	 * calls it made, and that every K-th was recorded (K > 1: sampled).
	 * has_meta beside index: 64 bytes a thread, not 72. */
	int has_meta;
	uint64_t pid, tid, first_ns, calls, every;
	struct seq_call *call;   /* its n calls, a slice of seq_file's calls */
	size_t n;
};

/* A sequence file as written: its threads in file order, and what its
 * "# lost: N calls of M threads ..." lines count (calls the interposer
 * could not record: no memory for them). */
struct seq_file {
	struct seq_thread *thread;
	size_t nthreads;
	struct seq_call *calls;   /* every call in file order: each thread's call
				   * is its slice (seq_free() frees it) */
	uint64_t lost_calls, lost_threads;
};

/* What a reader accepts beyond the format: sizes up to max_size, at most
 * max_calls calls, and none at all only when allow_empty (the record of a
 * process that copied nothing). */
struct seq_limits {
	uint64_t max_size;
	size_t max_calls;
	int allow_empty;
};
/* A replay: what its buffers and memory hold. */
#define SEQ_REPLAY_LIMITS ((struct seq_limits){ SEQ_MAX_SIZE, SEQ_MAX_CALLS, 0 })

/* Parses a sequence held in memory (the one reader of the format: replays,
 * `ucopy trace --summary` and the merging of a trace's processes all read
 * through it), within lim.
 * @return : 0, or -1 with "NAME:LINE: what is wrong (what was expected)" in
 *           err; s is then empty. */
int seq_parse(const char *name, const char *buf, size_t len, struct seq_limits lim,
	      struct seq_file *s, char *err, size_t errlen);
/* seq_parse() of a file: a regular file only (text_file_read()), of at most
 * SEQ_MAX_FILE bytes, or any size when lim.max_calls is SIZE_MAX. */
int seq_read(const char *path, struct seq_limits lim, struct seq_file *s, char *err,
	     size_t errlen);
void seq_free(struct seq_file *s);

struct replay {
	struct copy_seq seq;   /* every thread's calls, thread after thread */
	size_t nthreads;
	double bytes;          /* copied by one pass over the sequence */
};

/* A replay of the sequence in buf (seq_parse(), sizes up to SEQ_MAX_SIZE);
 * `name` is used in messages.
 * @return : 0, or -1 with "NAME:LINE: what is wrong (what was expected)" (or
 *           "NAME: empty sequence file (...)") in err; r is then empty. */
int replay_parse(const char *name, const char *buf, size_t len, struct replay *r,
		 char *err, size_t errlen);
/* Reads and parses a sequence file: a regular file only (text_file_read()).
 * @return : as replay_parse(), or -1 with the reason the file did not read. */
int replay_read_file(const char *path, struct replay *r, char *err, size_t errlen);
void replay_free(struct replay *r);

/* Sets up c to replay r's sequence in a cache state with the layout above:
 * base offsets 0 on both sides. */
void replay_cell(struct cell *c, const struct replay *r, enum cache_state cache);

#endif
