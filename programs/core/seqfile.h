/*
 * seqfile.h - the sequence format: a program's copies in the order it made
 * them (docs/trace.md), as `ucopy trace` writes it.
 *
 *   # ucopy sequence 1
 *   # free comment lines start with '#'
 *   <thread> <size> <src_align> <dst_align> <distance>
 *
 * one line per call, fields separated by one space, decimal: thread is an
 * index 0, 1, 2, ... in order of first copy; src_align = src mod 64,
 * dst_align = dst mod 64, distance = (dst - src) mod 4096.  Each thread's
 * calls are contiguous and in call order.  A comment line of the form
 *   # thread T pid P tid X first_ns N calls C every K
 * says which process and thread T was, when it first copied, how many calls
 * it made and that every K-th was recorded (K > 1: sampled).
 */
#ifndef UCOPY_SEQFILE_H
#define UCOPY_SEQFILE_H

#include <stddef.h>
#include <stdint.h>

struct seq_call {
	uint64_t size;
	uint16_t distance;
	uint8_t src_align, dst_align;
};

struct seq_thread {
	struct seq_call *call;
	size_t n;
	int has_meta;            /* a "# thread" line was read for it */
	uint64_t pid, tid, first_ns, calls, every;
};

struct seq_file {
	struct seq_thread *thread;
	size_t nthreads;
};

/* Reads a sequence file.
 * @return : 0, or -1 with "PATH:LINE: what was expected" (or "cannot read
 *           'PATH': reason") in err; s is then empty. */
int seq_read(const char *path, struct seq_file *s, char *err, size_t errlen);
void seq_free(struct seq_file *s);

/* Size classes of the summary: 0 is size 0, 1 is 1-16, k >= 2 is
 * 2^(k+2)+1 .. 2^(k+3) (17-32, 33-64, ..., 513-1K, ...). */
#define SEQ_NCLASSES 64
unsigned seq_class(uint64_t size);
/* "0", "1-16", "513-1K", "1025-2K". */
void seq_class_name(unsigned c, char *buf, size_t len);

#endif
