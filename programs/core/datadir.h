/*
 * datadir.h - where the distribution files that ship with ucopy are
 * (data/distributions in the source tree; data/distributions/README.md), and
 * --dist arguments that name one of them.
 *
 * The directory is the first of:
 *  1. the one the command line gives (`report --dist-dir DIR`);
 *  2. $UCOPY_DATA_DIR, when set and not empty;
 *  3. data/distributions of the source tree the executable was built in,
 *     found from /proc/self/exe: ucopy is build/ucopy, so
 *     ../data/distributions from its directory (data_exe_depth);
 *  4. the installed copy: share/ucopy/distributions beside the executable's
 *     bin/ (an install moved as a whole, or staged with DESTDIR), then the
 *     directory `make install` put them in (UCOPY_DATADIR, compiled in).
 * 1 and 2 are the user's word: one that is not a directory is an error, never
 * a silent fall-through to other files.
 */
#ifndef UCOPY_DATADIR_H
#define UCOPY_DATADIR_H

#include <stddef.h>
#include <stdio.h>

/* Directories between the source tree's root and the executable: 1 for
 * build/ucopy; programs in build/tests/ set 2 before the first lookup. */
extern unsigned data_exe_depth;

struct data_dir {
	char path[4096];
	const char *from;   /* how it was found: the option's name,
			     * "UCOPY_DATA_DIR", "source tree" or "installed" */
};

/* Finds the distributions directory; `given` is an option's value (NULL
 * when not given), called `what` in messages.
 * @return : 1 found; 0 none anywhere (err says where it looked); -1 when
 *           `given` or $UCOPY_DATA_DIR is not a directory, with
 *           "bad UCOPY_DATA_DIR 'X' (expected ...)" in err. */
int data_dir_find(const char *given, const char *what, struct data_dir *d,
		  char *err, size_t errlen);

/* The distribution files (*.csv) in dir, as "DIR/NAME" sorted by name, at
 * most max; *paths is NULL when there are none, and when dir cannot be read
 * (a command checks it first: data_dir_check()).  Free with
 * data_list_free().
 * @return : how many. */
size_t data_list(const char *dir, char ***paths, size_t max);
void data_list_free(char **paths, size_t n);

/* The most distribution files one calibrate or report run measures on:
 * each file gets its share of the run's budget. */
#define DATA_MAX_DISTS 64
#define DATA_TEXT_(x) #x
#define DATA_TEXT(x) DATA_TEXT_(x)
#define DATA_MAX_DISTS_TEXT DATA_TEXT(DATA_MAX_DISTS)   /* for help texts */

/* data_list() for a command that measures on every file (calibrate,
 * report): each file is read as a distribution first, so that a bad one is
 * refused before anything is timed, not skipped; and a directory of more
 * than max files is refused rather than cut.
 * @return : how many (0: none, *paths NULL), or -1 with the first bad
 *           file's reason in err ("DIR/F.csv:3: bad line ...") and nothing
 *           to free. */
long data_list_checked(const char *dir, char ***paths, size_t max, char *err,
		       size_t errlen);
/* data_list_checked(dir, DATA_MAX_DISTS) for its verdict alone, before a run
 * measures anything.
 * @return : 0, or -1 with the reason in err. */
int data_dir_check(const char *dir, char *err, size_t errlen);

/* The file a --dist or dist: argument names: `arg` itself when it has a '/'
 * or names something that exists (a file in the current directory), else a
 * shipped distribution by name, ".csv" optional (Memcpy_Fleet).
 * @return : 0 with the path in path; -1 with the reason in err. */
int data_dist_path(const char *arg, char *path, size_t len, char *err,
		   size_t errlen);

/* The file name of a path, after its last '/' (a distribution's or a
 * sequence's name in tables). */
const char *path_base(const char *path);

/* `ucopy bench --list-dists`: the directory, how it was found, and each
 * distribution's name, format, number of sizes and mean size on out.
 * @return : an exit status (EXIT_USAGE when none is found or
 *           UCOPY_DATA_DIR is bad, EXIT_FAIL when out cannot be written). */
int data_print_list(FILE *out);

#endif
