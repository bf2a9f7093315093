/*
 * outfile.h - a command's output file, written whole or not at all.
 *
 * Measuring takes seconds to minutes, so the path is checked before it
 * starts, and the old file stays as it was until the new one is complete:
 * the output goes to a temporary file beside the target, which is renamed
 * over it at the end.  Only regular files are written: "-o /dev/null" as
 * root must not replace the device node, nor "-o fifo" the FIFO.
 */
#ifndef UCOPY_OUTFILE_H
#define UCOPY_OUTFILE_H

#include <stdio.h>

struct outfile {
	const char *name;   /* as the user gave it, for messages */
	FILE *f;            /* write here: the temporary file, or stdout */
	char *target;       /* the file renamed over: symlinks resolved */
	char *tmp;          /* the temporary file, in target's directory */
};

/* Prepares to write `path` (NULL or "-": standard output).  An existing path
 * must be a regular file (through symlinks) that may be written; a new one
 * must name a file in an existing directory.
 * @return : 0, with o->f ready; or EXIT_USAGE after "cannot write 'PATH': WHY"
 *           on stderr (a directory, device, FIFO or socket; a missing
 *           directory; no permission), with nothing created. */
int outfile_open(struct outfile *o, const char *cmd, const char *path);
/* Refuses an output path that names the file `input` (read by the command
 * as option `opt`): the results would replace what they were measured on.
 * Either path may not exist yet (then they differ).
 * @return : 0, or EXIT_USAGE after the message on stderr. */
int outfile_not_input(const char *cmd, const char *path, const char *opt,
		      const char *input);
/* Flushes, syncs and closes o->f, the file not yet renamed: a command that
 * writes several files syncs them all before it commits any, so that a
 * full disk leaves every old file as it was.
 * @return : 0, or EXIT_FAIL after "cannot write 'PATH': WHY" on stderr, the
 *           temporary file removed. */
int outfile_sync(struct outfile *o);
/* outfile_sync() when not done, and renames the temporary file over the target.
 * @return : 0, or EXIT_FAIL after "cannot write 'PATH': WHY" on stderr (a
 *           full disk, an I/O error), the target left as it was. */
int outfile_commit(struct outfile *o);
/* outfile_sync() on every one of the n, then outfile_commit() on each: all
 * on disk before any replaces its old file.  An outfile never opened (zeroed)
 * or abandoned counts as done.
 * @return : 0, or EXIT_FAIL at the first failure, after its message. */
int outfile_commit_all(struct outfile *const o[], size_t n);
/* Closes and removes the temporary file: a run that failed writes nothing. */
void outfile_abandon(struct outfile *o);

#endif
