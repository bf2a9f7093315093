/*
 * child.h - running a program under libucopy-preload.so (`ucopy run`,
 * `ucopy trace`, `ucopy compare A B -- CMD`): finding the interposer, the
 * environment the program gets, its status and what it cost.
 */
#ifndef UCOPY_CHILD_H
#define UCOPY_CHILD_H

#include <stddef.h>
#include <sys/resource.h>

#include "counters.h"

/* Finds libucopy-preload.so, the first of: $UCOPY_PRELOAD when set and not
 * empty (the user's word: it must exist); beside the executable (the build
 * tree: build/ucopy and build/libucopy-preload.so); ../lib beside the
 * executable's bin/ (an install moved as a whole); the LIBDIR `make install`
 * put it in (UCOPY_LIBDIR, compiled in).
 * @return : 0 with the absolute path in path; PRELOAD_BAD_ENV with why
 *           $UCOPY_PRELOAD is no shared library of this machine in err
 *           (the caller shows the value); -1 with where it looked in err. */
#define PRELOAD_BAD_ENV (-2)
int preload_find(char *path, size_t len, char *err, size_t errlen);

struct child_opts {
	const char *preload;    /* prepended to LD_PRELOAD; NULL: the program
				   runs with the environment as it is */
	const char *policy;     /* UCOPY_POLICY for the program; NULL: as is */
	int no_inherit;         /* the program's own children lose it */
	const char *trace_out;  /* UCOPY_TRACE_OUT, or NULL */
	const char *trace_cap;  /* UCOPY_TRACE_CAP, or NULL */
	int quiet;              /* stdout and stderr to /dev/null */
	int counters;           /* open counters on it (struct child_result) */
	const struct counter_events *events;  /* and these extra events; NULL:
						 none */
	int forward_signals;    /* ignore SIGINT/SIGQUIT while it runs, as a
				   shell does (the terminal's ^C is its), and
				   pass SIGTERM/SIGHUP on to it */
};

struct child_result {
	int status;             /* as wait4 gives it */
	double wall_s;          /* from fork to the end of wait4 */
	double cpu_s;           /* user + system time of it and its children */
	struct counters ctr;    /* when opts->counters; closed */
	double ctr_total[CTR_SLOTS];   /* NaN where unavailable */
	const char *ctr_reason[CTR_SLOTS];
	int preload_loaded;     /* when opts->preload: whether the interposer
				   said it loaded, in the program or in any
				   process it started (a static or setuid
				   program ignores LD_PRELOAD) */
};

/* Runs argv[0] (searched in PATH) with argv, waits for it.  Whatever
 * descriptors the caller has open, 0 to 2 included, only the program's own
 * are the program's.
 * @return : 0 when it ran, whatever its status; -1 when it could not be
 *           started ("cannot run 'CMD': No such file or directory") with
 *           the reason in err. */
int child_run(char *const *argv, const struct child_opts *o,
	      struct child_result *r, char *err, size_t errlen);

/* "the interposer was not loaded by 'CMD' (...)": why r->preload_loaded
 * is 0, for the commands to say. */
void child_not_loaded(char *const *argv, char *buf, size_t len);

/* Where `--` is in argv (from 1), or 0 when there is none. */
int child_dashdash(int argc, char **argv);

/* The status as a shell gives it: the exit code, or 128 + the signal. */
int child_exit_code(int status);
/* "exit 1", "killed by signal 11 (Segmentation fault)". */
void child_describe(int status, char *buf, size_t len);

#endif
