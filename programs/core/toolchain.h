/*
 * toolchain.h - what `ucopy kbuild` builds with and how (docs/kbuild.md):
 * the compatibility headers (kcompat/, <ucopy-asm.h>), a C compiler that
 * builds for the architecture, the compiler's command line, and running
 * it.  The finders and the run print their own messages, as kbuild's, and
 * return its exit status: what they found out is said there and nowhere
 * else.
 */
#ifndef UCOPY_TOOLCHAIN_H
#define UCOPY_TOOLCHAIN_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct toolchain {
	char kcompat[PATH_MAX], include[PATH_MAX];   /* absolute */
	char *cc_words[16];     /* the compiler, split at spaces, into cc_buf */
	char cc_buf[512];
	char cc_text[512];      /* as given, for messages */
};

/* Finds kcompat/ and the directory of <ucopy-asm.h>: those of the source
 * tree the command was built in (build/ucopy), else those an install put
 * beside its bin/, else where `make install` put them (UCOPY_INCLUDEDIR,
 * compiled in).
 * @return : 0, or EXIT_FAIL after saying where it looked. */
int toolchain_headers(struct toolchain *t);

/* Finds the compiler: cc (--cc) when not NULL, else the first of $CC, cc
 * and ARCH-linux-gnu-gcc that builds for arch, as its -dumpmachine says.
 * @return : 0, or EXIT_USAGE after saying why cc is no compiler for arch,
 *           or which it tried. */
int toolchain_compiler(struct toolchain *t, const char *arch, const char *cc);

/* What one build makes of what. */
struct toolchain_job {
	const char *file;       /* the kernel's .S */
	const char *out;        /* the shared object */
	const char *symbol;     /* its one export */
	const char *entry, *convention;   /* the routine, and its wrapper */
	const char *arch;
	uint64_t features;      /* the ALTERNATIVEs' choice, as -DUCOPY_KFEAT_* */
};

#define TOOLCHAIN_MAX_ARGS 128
struct toolchain_argv {
	char *argv[TOOLCHAIN_MAX_ARGS];   /* NULL-terminated */
	char store[16384];
	size_t n, used;
};

/* The compiler's command line for the job into a (zeroed by the caller). */
void toolchain_command(const struct toolchain *t, const struct toolchain_job *j,
		       struct toolchain_argv *a);

/* argv as a shell reads it back, then a newline, on f (--dry-run). */
void toolchain_print(char *const *argv, FILE *f);

/* Runs argv, the compiler's messages going where stderr goes.
 * @return : 0 when it built; EXIT_USAGE after the reason it did not start,
 *           or "FILE did not build (...)" (file is the job's). */
int toolchain_run(const struct toolchain *t, char *const *argv, const char *file);

#endif
