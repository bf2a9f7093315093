/*
 * datadir.c - where the distribution files are (datadir.h).
 */
#include "datadir.h"
#include "cli.h"
#include "dist.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Where `make install` puts the distributions (the Makefile passes its
 * DATADIR); this default is the Makefile's own. */
#ifndef UCOPY_DATADIR
#define UCOPY_DATADIR "/usr/local/share/ucopy/distributions"
#endif

unsigned data_exe_depth = 1;

static int is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The user's directory: it must be one. */
static int given_dir(const char *path, const char *what, struct data_dir *d,
		     char *err, size_t errlen)
{
	if (!is_dir(path)) {
		snprintf(err, errlen, "bad %s '%s' (expected a directory of distribution files)",
			 what, path);
		return -1;
	}
	snprintf(d->path, sizeof d->path, "%s", path);
	d->from = what;
	return 1;
}

/* dir/rel when it is a directory, canonical (the path is shown to the
 * user, and build/../data reads worse than data). */
static int try_dir(const char *dir, const char *rel, const char *from, struct data_dir *d)
{
	char path[sizeof d->path + 64];
	snprintf(path, sizeof path, "%s/%s", dir, rel);
	if (!is_dir(path) || !realpath(path, d->path))
		return 0;
	d->from = from;
	return 1;
}

int data_dir_find(const char *given, const char *what, struct data_dir *d,
		  char *err, size_t errlen)
{
	if (given)
		return given_dir(given, what, d, err, errlen);
	const char *env = getenv("UCOPY_DATA_DIR");
	if (env && env[0])
		return given_dir(env, "UCOPY_DATA_DIR", d, err, errlen);

	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	char *slash = n > 0 ? (exe[n] = 0, strrchr(exe, '/')) : NULL;
	if (slash) {
		char rel[64] = "";
		*slash = 0;
		for (unsigned i = 0; i < data_exe_depth && i < 8; i++)
			strcat(rel, "../");
		strcat(rel, "data/distributions");
		if (try_dir(exe, rel, "source tree", d) ||
		    try_dir(exe, "../share/ucopy/distributions", "installed", d))
			return 1;
	}
	if (try_dir(UCOPY_DATADIR, ".", "installed", d))
		return 1;
	snprintf(err, errlen, "no distribution directory (UCOPY_DATA_DIR is not set, and "
		 "there is none in the source tree beside the command or in %s)", UCOPY_DATADIR);
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* data_list() that tells a directory it cannot read (or memory it cannot
 * get) from an empty one.
 * @return : how many, or -1 with the reason in err and nothing to free. */
static long list_dir(const char *dir, char ***paths, size_t max, char *err, size_t errlen)
{
	*paths = NULL;
	DIR *d = opendir(dir);
	if (!d) {
		snprintf(err, errlen, "cannot read the distribution directory '%s': %s", dir,
			 strerror(errno));
		return -1;
	}
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	int bad = 0;
	for (;;) {
		errno = 0;
		if (!(e = readdir(d))) {
			bad = errno;
			break;
		}
		size_t len = strlen(e->d_name);
		if (len < 5 || strcmp(e->d_name + len - 4, ".csv") != 0)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			char **nn = realloc(names, cap * sizeof *nn);
			if (!nn) {
				bad = ENOMEM;
				break;
			}
			names = nn;
		}
		size_t plen = strlen(dir) + len + 2;
		if (!(names[n] = malloc(plen))) {
			bad = ENOMEM;
			break;
		}
		snprintf(names[n], plen, "%s/%s", dir, e->d_name);
		n++;
	}
	closedir(d);
	if (bad) {
		data_list_free(names, n);
		snprintf(err, errlen, "cannot read the distribution directory '%s': %s", dir,
			 strerror(bad));
		return -1;
	}
	if (n)
		qsort(names, n, sizeof *names, by_name);
	while (n > max)
		free(names[--n]);
	if (!n) {
		free(names);
		names = NULL;
	}
	*paths = names;
	return (long)n;
}

size_t data_list(const char *dir, char ***paths, size_t max)
{
	char err[64];
	long n = list_dir(dir, paths, max, err, sizeof err);
	return n < 0 ? 0 : (size_t)n;
}

void data_list_free(char **paths, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
}

long data_list_checked(const char *dir, char ***paths, size_t max, char *err,
		       size_t errlen)
{
	long got = list_dir(dir, paths, max + 1, err, errlen);
	if (got < 0)
		return -1;
	size_t n = (size_t)got;
	if (n > max) {
		data_list_free(*paths, n);
		*paths = NULL;
		snprintf(err, errlen, "%s holds more than %zu distribution files (*.csv), "
			 "the most one run measures on (expected a directory of fewer)", dir, max);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		struct dist d;
		if (dist_read_file((*paths)[i], &d, err, errlen) < 0) {
			data_list_free(*paths, n);
			*paths = NULL;
			return -1;
		}
		dist_free(&d);
	}
	return (long)n;
}

int data_dir_check(const char *dir, char *err, size_t errlen)
{
	char **files;
	long n = data_list_checked(dir, &files, DATA_MAX_DISTS, err, errlen);
	if (n < 0)
		return -1;
	data_list_free(files, (size_t)n);
	return 0;
}

int data_dist_path(const char *arg, char *path, size_t len, char *err, size_t errlen)
{
	struct stat st;
	size_t n = strlen(arg);
	/* A path, or a file here: dist_read_file() says what is wrong with it. */
	if (strchr(arg, '/') || lstat(arg, &st) == 0) {
		snprintf(path, len, "%s", arg);
		return 0;
	}
	struct data_dir d;
	char why[512];
	int found = data_dir_find(NULL, NULL, &d, why, sizeof why);
	if (found < 0) {
		snprintf(err, errlen, "%s", why);
		return -1;
	}
	int csv = n >= 4 && !strcmp(arg + n - 4, ".csv");
	if (found && n && n < 256) {
		snprintf(path, len, "%s/%s%s", d.path, arg, csv ? "" : ".csv");
		if (stat(path, &st) == 0)
			return 0;
		if (errno != ENOENT && errno != ENOTDIR) {
			snprintf(err, errlen, "bad distribution '%s': cannot read %s: %s", arg,
				 path, strerror(errno));
			return -1;
		}
	}
	if (!found)
		snprintf(err, errlen, "bad distribution '%s' (expected a file; a bare name is "
			 "looked up among the shipped ones, and there is %s)", arg, why);
	else
		snprintf(err, errlen, "bad distribution '%s' (expected a file, or the name of "
			 "one in %s such as Memcpy_Fleet: `ucopy bench --list-dists`)", arg, d.path);
	return -1;
}

int data_print_list(FILE *out)
{
	struct data_dir d;
	char err[512];
	int found = data_dir_find(NULL, NULL, &d, err, sizeof err);
	if (found <= 0) {
		cli_error("%s", err);   /* none found is no usage error */
		return found < 0 ? EXIT_USAGE : EXIT_FAIL;
	}
	char **paths;
	long got = list_dir(d.path, &paths, 4096, err, sizeof err);
	if (got < 0) {
		cli_error("%s", err);
		return !strcmp(d.from, "UCOPY_DATA_DIR") ? EXIT_USAGE : EXIT_FAIL;
	}
	size_t n = (size_t)got;
	fprintf(out, "# %zu distributions in %s (%s)\n", n, d.path, d.from);
	for (size_t i = 0; i < n; i++) {
		const char *base = strrchr(paths[i], '/') + 1;
		struct dist dist;
		if (dist_read_file(paths[i], &dist, err, sizeof err) < 0) {
			fprintf(out, "%-16.*s refused: %s\n", (int)strlen(base) - 4, base, err);
			continue;
		}
		fprintf(out, "%-16.*s %s, %zu size%s up to %zu, mean %.0f B\n", (int)strlen(base) - 4,
			base, dist_format_name(dist.format), dist.n, dist.n == 1 ? "" : "s",
			dist.max_size, dist.mean);
		dist_free(&dist);
	}
	data_list_free(paths, n);
	if (out == stdout)
		return cli_stdout_check();   /* one message, main's */
	if (fflush(out) || ferror(out)) {
		cli_error("cannot write the list: %s", strerror(errno));
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

const char *path_base(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}
