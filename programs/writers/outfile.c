/*
 * outfile.c - a command's output file, written whole or not at all
 * (outfile.h).
 */
#define _GNU_SOURCE   /* mkostemp */
#include "outfile.h"
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *file_kind(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISCHR(m) ? "a character device"
	     : S_ISBLK(m) ? "a block device" : S_ISFIFO(m) ? "a FIFO"
	     : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

/* The temporary files of this run, removed when Ctrl-C (or SIGTERM, SIGHUP)
 * ends it: a minute-long report is often interrupted, and a hidden
 * ".report.html.Xy12ab" left behind is litter the user cannot see. */
#define MAX_PENDING 4
static char *volatile pending[MAX_PENDING];

static void remove_pending(int sig)
{
	for (int i = 0; i < MAX_PENDING; i++)
		if (pending[i])
			unlink(pending[i]);
	signal(sig, SIG_DFL);
	raise(sig);   /* delivered on return: the run ends as the signal says */
}

static void track(char *tmp, int on)
{
	static int installed;
	if (!installed) {
		static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
		installed = 1;
		for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
			struct sigaction old, sa;
			memset(&sa, 0, sizeof sa);
			sa.sa_handler = remove_pending;
			sigemptyset(&sa.sa_mask);
			/* A signal the caller ignores (nohup) stays ignored. */
			if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
				sigaction(sigs[i], &sa, NULL);
		}
	}
	for (int i = 0; i < MAX_PENDING; i++)
		if (on ? !pending[i] : pending[i] == tmp) {
			pending[i] = on ? tmp : NULL;
			return;
		}
}

static void release(struct outfile *o)
{
	if (o->tmp)
		track(o->tmp, 0);
	free(o->target);
	free(o->tmp);
	o->target = o->tmp = NULL;
}

/* target for a path that does not exist yet: its directory, resolved, and
 * its last component. */
static int new_target(struct outfile *o, const char *cmd, const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	if (!*base || !strcmp(base, ".") || !strcmp(base, ".."))
		return cli_usage_error(cmd, "cannot write '%s': not a file name", path);
	char dir[PATH_MAX] = ".";
	if (slash) {
		size_t dlen = slash == path ? 1 : (size_t)(slash - path);
		if (dlen >= sizeof dir)
			return cli_usage_error(cmd, "cannot write '%s': %s", path,
					       strerror(ENAMETOOLONG));
		memcpy(dir, path, dlen);
		dir[dlen] = '\0';
	}
	char *real = realpath(dir, NULL);
	struct stat st;
	if (!real || stat(real, &st) || !S_ISDIR(st.st_mode)) {
		int e = real ? ENOTDIR : errno;
		free(real);
		return cli_usage_error(cmd, "cannot write '%s': %s", path, strerror(e));
	}
	size_t n = strlen(real) + strlen(base) + 2;
	o->target = malloc(n);
	if (!o->target) {
		free(real);
		return cli_usage_error(cmd, "out of memory");
	}
	snprintf(o->target, n, "%s/%s", strcmp(real, "/") ? real : "", base);
	free(real);
	return 0;
}

int outfile_open(struct outfile *o, const char *cmd, const char *path)
{
	memset(o, 0, sizeof *o);
	if (!path || !strcmp(path, "-")) {
		o->name = "stdout";
		o->f = stdout;
		return 0;
	}
	o->name = path;
	if (!path[0])
		return cli_usage_error(cmd, "empty output file name");
	struct stat st;
	mode_t mode;
	int rc, existed = 0;
	if (stat(path, &st) == 0) {
		if (!S_ISREG(st.st_mode))
			return cli_usage_error(cmd, "cannot write '%s': %s (expected a "
					       "regular file)", path, file_kind(st.st_mode));
		/* Renaming over a file needs only the directory's permission;
		 * the user asked to write the file, so it needs the file's. */
		if (access(path, W_OK))
			return cli_usage_error(cmd, "cannot write '%s': %s", path, strerror(errno));
		if (!(o->target = realpath(path, NULL)))
			return cli_usage_error(cmd, "cannot write '%s': %s", path, strerror(errno));
		mode = st.st_mode & 0777;
		existed = 1;
	} else if (errno == ENOENT) {
		if (lstat(path, &st) == 0)
			return cli_usage_error(cmd, "cannot write '%s': a symbolic link to "
					       "nothing", path);
		if ((rc = new_target(o, cmd, path)))
			return rc;
		mode = umask(0);
		umask(mode);
		mode = 0666 & ~mode;
	} else {
		return cli_usage_error(cmd, "cannot write '%s': %s", path, strerror(errno));
	}

	/* ".NAME.XXXXXX" beside the target: the same file system, so the
	 * rename is atomic; hidden, and mkostemp's O_EXCL never follows a
	 * link someone planted there. */
	const char *slash = strrchr(o->target, '/');
	size_t n = strlen(o->target) + 16;
	o->tmp = malloc(n);
	if (!o->tmp) {
		release(o);
		return cli_usage_error(cmd, "out of memory");
	}
	snprintf(o->tmp, n, "%.*s/.%.200s.XXXXXX", (int)(slash - o->target), o->target,
		 slash + 1);
	track(o->tmp, 1);
	int fd = mkostemp(o->tmp, O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		release(o);
		return cli_usage_error(cmd, "cannot write '%s': %s%s", path, strerror(e),
				       existed ? " (in its directory: the new file is "
						 "written beside it)" : "");
	}
	if (fchmod(fd, mode) || !(o->f = fdopen(fd, "w"))) {
		int e = errno;
		close(fd);
		unlink(o->tmp);
		release(o);
		return cli_usage_error(cmd, "cannot write '%s': %s", path, strerror(e));
	}
	return 0;
}

int outfile_not_input(const char *cmd, const char *path, const char *opt,
		      const char *input)
{
	struct stat a, b;
	if (!path || !input || !strcmp(path, "-") || stat(path, &a) || stat(input, &b) ||
	    a.st_dev != b.st_dev || a.st_ino != b.st_ino)
		return 0;
	return cli_usage_error(cmd, "cannot write '%s': it is the %s file (expected another "
			       "file: the results would replace their input)", path, opt);
}

int outfile_sync(struct outfile *o)
{
	if (o->f == stdout)
		return cli_stdout_check();
	if (!o->f)
		return EXIT_OK;   /* synced before */
	errno = 0;
	int bad = fflush(o->f) || ferror(o->f) || fsync(fileno(o->f));
	int e = errno;
	if (fclose(o->f) && !bad) {
		bad = 1;
		e = errno;
	}
	o->f = NULL;
	if (bad) {
		unlink(o->tmp);
		cli_error("cannot write '%s': %s", o->name, strerror(e ? e : EIO));
		release(o);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

int outfile_commit(struct outfile *o)
{
	int rc = outfile_sync(o);
	if (rc || !o->tmp)
		return rc;   /* failed (and removed), or stdout */
	if (rename(o->tmp, o->target)) {
		int e = errno;
		unlink(o->tmp);
		cli_error("cannot write '%s': %s", o->name, strerror(e));
		rc = EXIT_FAIL;
	}
	release(o);
	return rc;
}

int outfile_commit_all(struct outfile *const o[], size_t n)
{
	int rc = EXIT_OK;
	for (size_t i = 0; i < n && rc == EXIT_OK; i++)
		rc = outfile_sync(o[i]);
	for (size_t i = 0; i < n && rc == EXIT_OK; i++)
		rc = outfile_commit(o[i]);
	return rc;
}

void outfile_abandon(struct outfile *o)
{
	if (o->f && o->f != stdout)
		fclose(o->f);
	if (o->tmp)
		unlink(o->tmp);
	o->f = NULL;
	release(o);
}
