/*
 * dist.h - copy-size distributions, and the sequences of copies the lab
 * times.
 *
 * Three file formats, told apart by their first entry:
 *  - fleetbench (Memcpy_*.csv): line 1 "size:probability" pairs separated by
 *    commas, line 2 the overlap distribution (read, checked, not used: these
 *    are memcpy copies), line 3 the alignment distribution "1:p,2:p,...,64:p"
 *    (p = probability that a pointer's alignment is exactly that power of
 *    two).  Lines 2 and 3 are optional: without an alignment line, offsets
 *    are uniform.
 *  - LLVM libc (MemcpyGoogle*.csv): comma-separated probabilities, the i-th
 *    for size i (one line; more lines continue the list).
 *  - plain: "SIZE WEIGHT" per line (SIZE may have a K, M or G suffix),
 *    blank lines allowed.
 * In every format '#' starts a comment, and lines holding only a comment
 * are skipped.  Weights need not add up to 1; they are normalised (scaled to
 * the largest first, so any finite weights do, 1e308 and 1e-320 alike).
 *
 * A copy sequence is what a measurement walks: for each copy its size and the
 * offsets of source and destination within a cache line.  Drawing it in
 * advance keeps the random number generator out of the timed loop, and a long
 * sequence keeps the branch predictor from learning the sizes.
 */
#ifndef UCOPY_DIST_H
#define UCOPY_DIST_H

#include <stddef.h>
#include <stdint.h>

enum dist_format { DIST_FLEETBENCH, DIST_LLVM, DIST_PLAIN };

/* Largest size a distribution may name: bigger than any recorded memcpy, and
 * small enough that buffers for it always fit. */
#define DIST_MAX_SIZE ((size_t)64 << 20)
/* Largest file read: the real ones are under 100 KiB. */
#define DIST_MAX_FILE ((size_t)64 << 20)

struct dist {
	enum dist_format format;
	size_t n;          /* distinct sizes with weight > 0 */
	size_t *size;      /* ascending */
	double *cdf;       /* cumulative probability up to and including size[i] */
	double mean;       /* mean size in bytes */
	size_t max_size;
	int has_align;
	double align[7];   /* P(alignment == 1 << i), i = 0..6 (1..64 bytes) */
};

/* Reads and parses a distribution file; only a regular one (a FIFO is
 * refused without waiting for a writer).
 * @return : 0, or -1 with "PATH:LINE: what is wrong (what was expected)" (or
 *           "cannot read 'PATH': reason", or "bad distribution file 'PATH'
 *           (expected a regular file, not a FIFO)") in err; d is then empty. */
int dist_read_file(const char *path, struct dist *d, char *err, size_t errlen);
/* Reads a whole text file of at most `max` bytes (a power of two) into a
 * malloc'd buffer, refusing anything but a regular file; `what` names the
 * kind of file in messages ("distribution").
 * @return : 0 with the buffer in *buf (free() it) and its length in *len, or
 *           -1 with "cannot read 'PATH': reason", "'PATH' is too large for a
 *           WHAT (at most N MiB)" or "bad WHAT file 'PATH' (expected a regular
 *           file, not a FIFO)" in err. */
int text_file_read(const char *path, const char *what, size_t max, char **buf,
		   size_t *len, char *err, size_t errlen);
/* Parses a distribution held in memory; `name` is used in messages. */
int dist_parse(const char *name, const char *buf, size_t len, struct dist *d,
	       char *err, size_t errlen);
void dist_free(struct dist *d);
const char *dist_format_name(enum dist_format f);

/*=====   Copy sequences   =====*/

struct copy_op {
	size_t n;
	uint32_t src_off, dst_off;  /* added to the cell's base offsets (< 4096) */
};

struct copy_seq {
	struct copy_op *op;
	size_t len;
	size_t max_n;
	uint32_t max_off;   /* the largest src_off or dst_off */
	double mean_n;
	uint64_t seed;      /* what it was drawn with (0 for a fixed one) */
};

/* The two orders a distribution's sizes are timed in.  The measuring core
 * walks a sequence in a loop, so what a predictor may learn is its length:
 *  - unlearnable: DIST_SEQ_UNLEARNABLE copies, more than any branch
 *    predictor holds: every size is a fresh guess, as in a program whose
 *    sizes follow no pattern;
 *  - repeated: a short sequence (DIST_SEQ_REPEAT_DEFAULT copies unless asked)
 *    played again and again, which a modern predictor learns: the sizes are
 *    as predictable as in a program that repeats the same work.
 * A program's real sequence lies somewhere between; every number measured on
 * a distribution says which regime it is (dist_regime_condition()). */
enum dist_regime { REGIME_UNLEARNABLE, REGIME_REPEATED };
#define DIST_SEQ_UNLEARNABLE ((size_t)1 << 16)
/* Long enough to draw the common sizes of a fleetbench file many times
 * over, and short enough for Zen 5's predictor to learn, where twice this
 * is not (docs/bench.md, "The method", "Regimes").  A CPU with a smaller
 * predictor may need less (--repeat-len). */
#define DIST_SEQ_REPEAT_DEFAULT ((size_t)8192)
/* "unlearnable" or "repeated". */
const char *dist_regime_name(enum dist_regime g);
/* @return : 0, or -1 when s names no regime. */
int dist_regime_parse(const char *s, enum dist_regime *g);
/* The condition a claim measured in that regime holds under, in words:
 * "sizes in an order no predictor learns (65536 copies)" or "a repeated
 * sequence of 8192 copies, each variant at its steady state"; with
 * scrub_every > 0 (the company condition, scrub.h) ending "the scrubber
 * after every K copies" instead. */
void dist_regime_condition(enum dist_regime g, size_t len, size_t scrub_every, char *buf,
			   size_t n);

/* Draws `len` copies from d with `seed`: sizes from the distribution; source
 * and destination offsets (0..63) from its alignment line when it has one,
 * uniform otherwise.
 * @return : 0, or -1 when out of memory or len == 0. */
int dist_sample(const struct dist *d, size_t len, uint64_t seed,
		struct copy_seq *out);
/* The sequence of distribution d in regime g that every command times:
 * DIST_SEQ_UNLEARNABLE copies, or repeat_len (0: DIST_SEQ_REPEAT_DEFAULT)
 * for the repeated regime, drawn by dist_sample() with `seed` itself,
 * whichever file it is and whatever else is measured beside it.  So one
 * seed names one cell in `bench --dist`, `report`, `calibrate`'s verify
 * phase and make bench's bar 2 (the repeated sequence being the start of
 * the unlearnable one), and they measure it alike (docs/bench.md, "One
 * cell, one answer").
 * @return : 0, or -1 when out of memory. */
int dist_regime_sample(const struct dist *d, enum dist_regime g, size_t repeat_len,
		       uint64_t seed, struct copy_seq *out);
/* A sequence of one copy of n bytes at the given offsets.
 * @return : 0, or -1 when out of memory. */
int copy_seq_fixed(struct copy_seq *s, size_t n, uint32_t src_off,
		   uint32_t dst_off);
/* A sequence of the given sizes in order, offsets 0 (workloads such as
 * alternating 64- and 32-byte copies).
 * @return : 0, or -1 when out of memory or len == 0. */
int copy_seq_sizes(struct copy_seq *s, const size_t *n, size_t len);
void copy_seq_free(struct copy_seq *s);

#endif
