/*
 * check_child.h - the cases of `ucopy check` run in a child process, so that
 * a routine that crashes or hangs costs one case, not the command.
 *
 * The child (fork) runs the cases in order, saying through shared memory
 * which one it is at and through a pipe which failed.  A child killed by a
 * signal fails the case it was at; one whose case has not moved for the
 * timeout is killed and fails it as hung; either way a new child goes on
 * from the next case.  A try routine's fault sites are registered in each
 * child (ucopy_fault_register()), which installs libucopy's SIGSEGV and
 * SIGBUS handler there and nowhere else.
 */
#ifndef UCOPY_CHECK_CHILD_H
#define UCOPY_CHECK_CHILD_H

#include <stddef.h>

#include "check_case.h"
#include "check_matrix.h"
#include "routine.h"

struct check_opts {
	int at_least;          /* --count at-least (check_case.h) */
	double timeout;        /* seconds one case may take */
	size_t max_failures;   /* stop at this many; 0: no limit */
};

/* What the run tells its caller as it goes. */
struct check_report {
	void *ctx;
	/* A case failed: why, in one line ("returned 9, expected 8"). */
	void (*fail)(void *ctx, const struct check_case *c, const char *why);
	/* try: what the first child's ucopy_fault_register() returned, the
	 * count of fault sites or -1 with errno in err. */
	void (*sites)(void *ctx, int count, int err);
};

struct check_result {
	size_t run;            /* cases run, a crashed or hung one included */
	size_t failed;
	double seconds;
	int stopped;           /* at max_failures, before the last case */
};

/* Runs m's cases on r, in a is buffers, with o, telling rep.
 * @return : 0 when every case ran or the run stopped at max_failures
 *           (res says which failed); -1 when a child could not be made
 *           or could not set a case up, with why in err. */
int check_run(const struct routine *r, const struct check_matrix *m, struct check_arena *a,
	      const struct check_opts *o, const struct check_report *rep,
	      struct check_result *res, char *err, size_t errlen);

#endif
