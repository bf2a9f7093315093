/*
 * corpus.c - report files read back as machines and measurements
 * (corpus.h).
 */
#include "corpus.h"
#include "stats.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

/* A report is a few MB; anything far larger is not one. */
#define MAX_TEXT (256u << 20)
/* No copy size or cache in a report is larger (1 TiB). */
#define MAX_SIZE 1099511627776.0

#define TEXT_OF_(x) #x
#define TEXT_OF(x) TEXT_OF_(x)

static int fail(char *err, size_t len, const char *fmt, const char *a, const char *b)
{
	if (err && len)
		snprintf(err, len, fmt, a, b);
	return -1;
}

/* All of fd into *buf.  @return : the length, or -1 (errno set; E2BIG:
 * past MAX_TEXT). */
static ssize_t slurp(int fd, char **buf)
{
	size_t len = 0, cap = 1 << 16;
	char *b = malloc(cap);
	if (!b)
		return -1;
	for (;;) {
		if (len == cap) {
			if (cap >= MAX_TEXT) {
				free(b);
				errno = E2BIG;
				return -1;
			}
			char *nb = realloc(b, cap *= 2);
			if (!nb) {
				free(b);
				return -1;
			}
			b = nb;
		}
		ssize_t n = read(fd, b + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			free(b);
			errno = e;
			return -1;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	*buf = b;
	return (ssize_t)len;
}

/* The text of a gzip file, through `gzip -dc` (the corpus is gzipped; the
 * command, not a library, keeps ucopy without a dependency). */
static ssize_t gunzip(const char *path, char **buf, char *err, size_t errlen)
{
	int fds[2];
	/* SIGCHLD ignored (inherited through exec) would reap gzip itself and
	 * leave nothing to wait for: the default while it runs. */
	struct sigaction dfl = { .sa_handler = SIG_DFL }, old;
	sigemptyset(&dfl.sa_mask);
	if (pipe(fds))
		return fail(err, errlen, "cannot make a pipe for gzip: %s", strerror(errno), "");
	sigaction(SIGCHLD, &dfl, &old);
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		sigaction(SIGCHLD, &old, NULL);
		close(fds[0]);
		close(fds[1]);
		return fail(err, errlen, "cannot start gzip: %s", strerror(e), "");
	}
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(fds[1], 1);
		if (null >= 0)
			dup2(null, 2);
		close(fds[0]);
		close(fds[1]);
		execlp("gzip", "gzip", "-dc", "--", path, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	ssize_t n = slurp(fds[0], buf);
	int e = errno;
	close(fds[0]);
	int status = 0;
	pid_t w;
	while ((w = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
		;
	sigaction(SIGCHLD, &old, NULL);
	if (w < 0) {
		if (n >= 0)
			free(*buf);
		return fail(err, errlen, "cannot wait for gzip: %s", strerror(errno), "");
	}
	if (n < 0) {
		return fail(err, errlen, "%s", e == E2BIG ? "larger than a report can be"
							  : strerror(e), "");
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		free(*buf);
		return fail(err, errlen, "%s", WIFEXITED(status) && WEXITSTATUS(status) == 127
			    ? "gzip -dc could not be run (is gzip installed?)"
			    : "not a whole gzip file (gzip -dc failed: truncated, corrupt, or "
			      "data after its end)", "");
	}
	return n;
}

static ssize_t read_text(const char *path, char **buf, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(err, errlen, "cannot open: %s", strerror(errno), "");
	ssize_t n = slurp(fd, buf);
	int e = errno;
	close(fd);
	if (n < 0)
		return fail(err, errlen, "%s", e == E2BIG ? "larger than a report can be"
							 : e == EISDIR ? "a directory, not a report"
							 : strerror(e), "");
	if (n >= 2 && (unsigned char)(*buf)[0] == 0x1f && (unsigned char)(*buf)[1] == 0x8b) {
		free(*buf);
		return gunzip(path, buf, err, errlen);
	}
	return n;
}

/* What names the machine: its CPU's architecture, vendor, family, model,
 * stepping and brand, whatever the architecture. */
static int read_identity(struct corpus_report *r, char *err, size_t errlen)
{
	const struct jr_value *m = jr_get(r->root, "machine"), *c = jr_get(m, "cpu");
	const char *arch = jr_string(jr_get(c, "arch")), *vendor = jr_string(jr_get(c, "vendor"));
	double fam, model, stepping = 0;

	if (!arch || !vendor || !jr_get(m, "features") || !jr_get(m, "caches"))
		return fail(err, errlen, "%s", "no machine.cpu {arch, vendor, family, model}, "
				"machine.features or machine.caches: not a ucopy report", "");
	if (jr_uint(jr_get(c, "family"), 0xffff, &fam) || jr_uint(jr_get(c, "model"), 0xffff, &model) ||
	    (jr_get(c, "stepping") && jr_uint(jr_get(c, "stepping"), 0xffff, &stepping)))
		return fail(err, errlen, "%s", "machine.cpu's family, model or stepping is not "
				"a whole number up to 65535", "");
	/* The vendor goes into generated C (derive --rows) and messages. */
	for (const char *q = vendor; *q; q++)
		if (!((*q >= 'A' && *q <= 'Z') || (*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9')))
			return fail(err, errlen, "%s", "machine.cpu.vendor is not letters and digits", "");
	if (!*vendor || strlen(vendor) >= sizeof r->cpu.vendor)
		return fail(err, errlen, "%s", "machine.cpu.vendor is empty or too long", "");
	if (!*arch || strlen(arch) >= sizeof r->cpu.arch)
		return fail(err, errlen, "%s", "machine.cpu.arch is empty or too long", "");
	memset(&r->cpu, 0, sizeof r->cpu);
	snprintf(r->cpu.arch, sizeof r->cpu.arch, "%s", arch);
	snprintf(r->cpu.vendor, sizeof r->cpu.vendor, "%s", vendor);
	snprintf(r->brand, sizeof r->brand, "%s", jr_string(jr_get(c, "brand")) ?
		 jr_string(jr_get(c, "brand")) : "");
	r->cpu.family = (unsigned)fam;
	r->cpu.model = (unsigned)model;
	r->cpu.stepping = (unsigned)stepping;
	return 0;
}

/* The caches and features, which only this architecture's library reads. */
static int read_cpu(struct corpus_report *r, char *err, size_t errlen)
{
	const struct jr_value *m = jr_get(r->root, "machine");
	const struct jr_value *feats = jr_get(m, "features"), *caches = jr_get(m, "caches");
	double l1d = 0, l2 = 0, l3 = 0;

	if (strcmp(r->cpu.arch, ucopy_cpu()->arch))
		return fail(err, errlen, "measured on %s; this ucopy is built for %s", r->cpu.arch,
			    ucopy_cpu()->arch);
	if ((jr_get(caches, "l1d") && jr_uint(jr_get(caches, "l1d"), MAX_SIZE, &l1d)) ||
	    (jr_get(caches, "l2") && jr_uint(jr_get(caches, "l2"), MAX_SIZE, &l2)) ||
	    (jr_get(caches, "l3") && jr_uint(jr_get(caches, "l3"), MAX_SIZE, &l3)))
		return fail(err, errlen, "%s", "machine.caches holds a size that is not a whole "
				"number of bytes up to 1 TiB", "");
	r->cpu.l1d = (size_t)l1d;
	r->cpu.l2 = (size_t)l2;
	r->cpu.l3 = (size_t)l3;
	/* Features by name: a name this library does not know (a later
	 * version's) is refused, not dropped. */
	char list[1024], why[256];
	size_t pos = (size_t)snprintf(list, sizeof list, "none");
	for (size_t i = 0; i < jr_len(feats); i++) {
		const char *f = jr_string(jr_at(feats, i));
		if (!f || pos + strlen(f) + 2 >= sizeof list)
			return fail(err, errlen, "%s", "machine.features is not a list of names", "");
		pos += (size_t)snprintf(list + pos, sizeof list - pos, ",%s", f);
	}
	if (ucopy_features_parse(list, 0, &r->cpu.features, why, sizeof why))
		return fail(err, errlen, "machine.features: %s", why, "");
	r->cpu.detected = r->cpu.features;
	return 0;
}

/* A size: a whole number of bytes, 1 to 1 TiB. */
static int bad_size(const struct jr_value *v)
{
	double d;
	return jr_uint(v, MAX_SIZE, &d) || d < 1;
}

/* A time or ratio: absent, null, or a positive number. */
static int bad_positive(const struct jr_value *v)
{
	return v && v->type != JR_NULL && !(jr_number(v, -1) > 0);
}

/* Every number the derivation reads is what it should be, so that a
 * damaged report is refused by name, never read as other numbers. */
static int check_numbers(const struct corpus_report *r, char *err, size_t errlen)
{
	const struct jr_value *sw = jr_get(r->root, "sweep");
	for (size_t i = 0; i < jr_len(sw); i++) {
		const struct jr_value *part = jr_at(sw, i), *sizes = jr_get(part, "sizes");
		const struct jr_value *series = jr_get(part, "series");
		if (!jr_string(jr_get(part, "cache")) || !jr_len(sizes) ||
		    jr_len(sizes) > CAL_MAX_POINTS)
			return fail(err, errlen, "sweep %s: no cache name, or no sizes, or more than "
				    "%s", jr_string(jr_get(part, "cache")) ? jr_string(jr_get(part, "cache"))
				    : "?", "96 (CAL_MAX_POINTS)");
		for (size_t j = 0; j < jr_len(sizes); j++) {
			if (bad_size(jr_at(sizes, j)))
				return fail(err, errlen, "%s%s", "a sweep size is not a whole number of "
					    "bytes from 1 to 1 TiB", "");
			for (size_t k = 0; k < j; k++)
				if (jr_number(jr_at(sizes, k), 0) == jr_number(jr_at(sizes, j), 0))
					return fail(err, errlen, "%s%s", "a sweep size is listed twice", "");
		}
		for (size_t s = 0; s < jr_len(series); s++) {
			const struct jr_value *pts = jr_get(jr_at(series, s), "points");
			for (size_t j = 0; j < jr_len(pts); j++) {
				const struct jr_value *p = jr_at(pts, j), *vs = jr_get(p, "vs_libc");
				const struct jr_value *vb = jr_get(p, "vs_best");
				if (bad_size(jr_get(p, "size")) || bad_positive(jr_get(p, "ns_median")) ||
				    bad_positive(jr_get(vs, "est")) || bad_positive(jr_get(vs, "lo")) ||
				    bad_positive(jr_get(vs, "hi")) || bad_positive(jr_get(vb, "est")) ||
				    bad_positive(jr_get(vb, "lo")) || bad_positive(jr_get(vb, "hi")))
					return fail(err, errlen, "sweep series %s: a point whose size, "
						    "ns_median, vs_libc or vs_best is not a positive "
						    "number%s",
						    jr_string(jr_get(jr_at(series, s), "name")) ?
						    jr_string(jr_get(jr_at(series, s), "name")) : "?", "");
			}
		}
	}
	static const char *const dists[] = { "distributions", "distributions_repeated" };
	for (size_t d = 0; d < 2; d++) {
		const struct jr_value *rows = jr_get(jr_get(r->root, dists[d]), "rows");
		if (jr_len(rows) > CORPUS_MAX_DISTS)
			return fail(err, errlen, "%s: more rows than %s", dists[d], "64");
		for (size_t i = 0; i < jr_len(rows); i++) {
			const struct jr_value *row = jr_at(rows, i), *al = jr_get(row, "alone");
			const struct jr_value *ks = jr_get(al, "kernels");
			const char *name = jr_string(jr_get(row, "name"));
			int bad = !name || (al && (!jr_len(ks) || bad_positive(jr_get(al, "ns_ucopy"))));
			for (size_t j = 0; !bad && j < i; j++)
				bad = !strcmp(name, jr_string(jr_get(jr_at(rows, j), "name")));
			/* Every kernel timed alone is one a policy can run (not
			 * libc), of this build, once. */
			for (size_t k = 0; !bad && k < jr_len(ks); k++) {
				const char *kn = jr_string(jr_get(jr_at(ks, k), "name"));
				const struct ucopy_kernel *kk = kn ? ucopy_kernel_find(kn) : NULL;
				bad = bad_positive(jr_get(jr_at(ks, k), "ns")) || !kk ||
				      !(kk->flags & UCOPY_KERNEL_FAULT_CAPABLE);
				for (size_t j = 0; !bad && j < k; j++)
					bad = !strcmp(kn, jr_string(jr_get(jr_at(ks, j), "name")));
			}
			if (bad)
				return fail(err, errlen, "%s: a row without a name or named twice, or "
					    "whose kernels timed alone are none, not this ucopy's, named "
					    "twice, or have a time that is not a positive number%s",
					    dists[d], "");
		}
	}
	const struct jr_value *pr = jr_get(r->root, "probes"), *ks = jr_get(pr, "kernels");
	for (size_t k = 0; k < jr_len(ks); k++) {
		const struct jr_value *per = jr_get(jr_at(ks, k), "per_size");
		for (size_t s = 0; s < jr_len(per); s++) {
			const struct jr_value *ps = jr_at(per, s), *cells = jr_get(ps, "ns");
			int bad = bad_size(jr_get(ps, "size")) || bad_positive(jr_get(ps, "ns_control")) ||
				  bad_positive(jr_get(ps, "worst_ratio"));
			for (size_t j = 0; j < jr_len(cells); j++)
				bad |= bad_positive(jr_at(cells, j));
			if (bad)
				return fail(err, errlen, "%s%s", "a probe cell whose size or time is not "
					    "a positive number", "");
		}
	}
	return 0;
}

int corpus_open(const char *path, struct corpus_report *r, char *err, size_t errlen)
{
	char *text = NULL, why[192];
	memset(r, 0, sizeof *r);
	snprintf(r->path, sizeof r->path, "%s", path);
	ssize_t n = read_text(path, &text, err, errlen);
	if (n < 0)
		return -1;
	r->root = jr_parse(text, (size_t)n, why, sizeof why);
	free(text);
	if (!r->root)
		return fail(err, errlen, "not JSON (%s): truncated, or not a report", why, "");
	if (r->root->type != JR_OBJECT) {
		corpus_release(r);
		return fail(err, errlen, "%s", "not a JSON object: not a report", "");
	}
	const struct jr_value *s = jr_get(r->root, "schema");
	double schema = s ? jr_number(s, -1) : 1;
	if (schema != floor(schema) || schema < CORPUS_SCHEMA_MIN || schema > CORPUS_SCHEMA_MAX) {
		char v[32];
		int number = s && s->type == JR_NUMBER;   /* s is freed below */
		snprintf(v, sizeof v, "%g", schema);
		corpus_release(r);
		return fail(err, errlen, "schema %s; this ucopy reads schemas "
			    TEXT_OF(CORPUS_SCHEMA_MIN) "-" TEXT_OF(CORPUS_SCHEMA_MAX) " "
			    "(docs/report.md, \"The JSON's schema\")%s", number ? v
			    : "that is not a number", "");
	}
	r->schema = (unsigned)schema;
	if (read_identity(r, err, errlen)) {
		corpus_release(r);
		return -1;
	}
	if (!jr_len(jr_get(r->root, "sweep"))) {
		corpus_release(r);
		return fail(err, errlen, "%s", "no sweep: not a report that measured kernels", "");
	}
	return 0;
}

int corpus_check(struct corpus_report *r, char *err, size_t errlen)
{
	if (read_cpu(r, err, errlen) || check_numbers(r, err, errlen)) {
		corpus_release(r);
		return -1;
	}
	return 0;
}

int corpus_read(const char *path, struct corpus_report *r, char *err, size_t errlen)
{
	return corpus_open(path, r, err, errlen) ? -1 : corpus_check(r, err, errlen);
}

void corpus_release(struct corpus_report *r)
{
	jr_free(r->root);
	r->root = NULL;
}

int corpus_same_run(const struct corpus_report *a, const struct corpus_report *b)
{
	const char *da = jr_string(jr_get(a->root, "date")), *db = jr_string(jr_get(b->root, "date"));
	const struct jr_value *sa = jr_get(a->root, "seed"), *sb = jr_get(b->root, "seed");
	return da && db && !strcmp(da, db) && sa && sb && sa->type == JR_NUMBER &&
	       sb->type == JR_NUMBER && sa->number == sb->number;
}

int corpus_cpu_equal(const struct ucopy_cpu *a, const struct ucopy_cpu *b)
{
	return !strcmp(a->vendor, b->vendor) && a->family == b->family && a->model == b->model;
}

int corpus_same_cpu(const struct corpus_report *a, const struct corpus_report *b)
{
	return corpus_cpu_equal(&a->cpu, &b->cpu);
}

/*=====   Folders   =====*/

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void corpus_free_list(char **l, size_t n)
{
	for (size_t i = 0; l && i < n; i++)
		free(l[i]);
	free(l);
}

static int is_dir(const char *dir, const char *name)
{
	char p[4096];
	DIR *d;
	snprintf(p, sizeof p, "%s/%s", dir, name);
	if (!(d = opendir(p)))
		return 0;
	closedir(d);
	return 1;
}

static int is_report(const char *name)
{
	size_t n = strlen(name);
	return !strncmp(name, "report-", 7) && n > 15 && !strcmp(name + n - 8, ".json.gz");
}

char **corpus_list(const char *dir, enum corpus_entries what, size_t max, size_t *n)
{
	DIR *d = opendir(dir);
	char **out = calloc(max + 1, sizeof *out);
	struct dirent *e;
	*n = 0;
	if (!d || !out) {
		if (d)
			closedir(d);
		free(out);
		return NULL;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' ||
		    !(what == CORPUS_MACHINES ? is_dir(dir, e->d_name) : is_report(e->d_name)))
			continue;
		if (*n == max || !(out[*n] = strdup(e->d_name))) {
			/* Not a table that depends on readdir's order. */
			int saved = *n == max ? EMFILE : ENOMEM;
			closedir(d);
			corpus_free_list(out, *n);
			errno = saved;
			return NULL;
		}
		(*n)++;
	}
	closedir(d);
	qsort(out, *n, sizeof *out, by_name);
	return out;
}

/*=====   Measurements   =====*/

const struct jr_value *corpus_sweep(const struct corpus_report *r, const char *cache)
{
	const struct jr_value *sw = jr_get(r->root, "sweep");
	for (size_t i = 0; i < jr_len(sw); i++) {
		const char *c = jr_string(jr_get(jr_at(sw, i), "cache"));
		if (c && !strcmp(c, cache))
			return jr_at(sw, i);
	}
	return NULL;
}

const struct jr_value *corpus_point(const struct jr_value *series, size_t size)
{
	const struct jr_value *pts = jr_get(series, "points");
	for (size_t i = 0; i < jr_len(pts); i++)
		if ((size_t)jr_number(jr_get(jr_at(pts, i), "size"), -1) == size)
			return jr_at(pts, i);
	return NULL;
}

/* One state of one size over the reports: each kernel's median ns, and
 * the envelope of its ratio to the fastest kernel. */
static void one_size(const struct corpus_report *r, size_t n, const char *cache,
		     enum cal_state st, size_t size, struct calibration *cal)
{
	size_t nk = calibration_kernels();
	double ns[CORPUS_MAX_REPORTS][CAL_MAX_KERNELS], lo[CORPUS_MAX_REPORTS][CAL_MAX_KERNELS],
	       hi[CORPUS_MAX_REPORTS][CAL_MAX_KERNELS];
	int seen = 0;

	for (size_t i = 0; i < n; i++) {
		const struct jr_value *sw = corpus_sweep(&r[i], cache), *series = jr_get(sw, "series");
		for (size_t k = 0; k < nk; k++)
			ns[i][k] = lo[i][k] = hi[i][k] = NAN;
		for (size_t s = 0; s < jr_len(series); s++) {
			const struct jr_value *se = jr_at(series, s);
			const char *name = jr_string(jr_get(se, "name"));
			const struct ucopy_kernel *kk = name ? ucopy_kernel_find(name) : NULL;
			int ki = kk ? calibration_kernel_index(kk) : -1;
			const struct jr_value *p = corpus_point(se, size);
			double t = jr_number(jr_get(p, "ns_median"), NAN);
			if (ki < 0 || !(t > 0))
				continue;
			/* The paired interval against the fastest kernel
			 * (schema 3), else against libc, as a share of the
			 * median: how far this report's ratio may be off.
			 * Against the fastest, that kernel's own spread is
			 * not counted twice in a comparison with it. */
			const struct jr_value *vs = jr_get(p, "vs_best");
			if (!(jr_number(jr_get(vs, "est"), -1) > 0 && jr_number(jr_get(vs, "lo"), -1) > 0 &&
			      jr_number(jr_get(vs, "hi"), -1) > 0))
				vs = jr_get(p, "vs_libc");
			double est = jr_number(jr_get(vs, "est"), NAN);
			ns[i][ki] = t;
			lo[i][ki] = t * jr_number(jr_get(vs, "lo"), NAN) / est;
			hi[i][ki] = t * jr_number(jr_get(vs, "hi"), NAN) / est;
			seen = 1;
		}
	}
	if (!seen)
		return;
	struct cal_point *pt = calibration_point(cal, size);
	if (!pt)
		return;
	for (size_t k = 0; k < nk; k++) {
		double med[CORPUS_MAX_REPORTS], elo = INFINITY, ehi = -INFINITY;
		size_t m = 0;
		for (size_t i = 0; i < n; i++) {
			if (isnan(ns[i][k]))
				continue;
			double best = INFINITY;
			for (size_t j = 0; j < nk; j++)
				if (ns[i][j] > 0)
					best = fmin(best, ns[i][j]);
			med[m++] = ns[i][k];
			/* The envelope of every report's interval: a win
			 * holds when it holds, at its interval, in every run. */
			double l = isfinite(lo[i][k]) ? lo[i][k] : ns[i][k];
			double h = isfinite(hi[i][k]) ? hi[i][k] : ns[i][k];
			elo = fmin(elo, l / best);
			ehi = fmax(ehi, h / best);
		}
		/* Only a kernel every report timed: one that a report left
		 * out has no envelope over them all. */
		if (m != n)
			continue;
		double t = stats_quantile_inplace(med, m, 0.5);
		calibration_set(cal, pt, st, ucopy_kernel_at(k), t, elo, ehi);
	}
}

/* @return : 0, or -1 when the cliff table is full. */
static int probes(const struct corpus_report *r, struct calibration *cal)
{
	const struct jr_value *pr = jr_get(r->root, "probes"), *ks = jr_get(pr, "kernels");
	const struct jr_value *ds = jr_get(pr, "distances");
	for (size_t k = 0; k < jr_len(ks); k++) {
		const struct jr_value *kv = jr_at(ks, k), *per = jr_get(kv, "per_size");
		const char *name = jr_string(jr_get(kv, "name"));
		const struct ucopy_kernel *kk = name ? ucopy_kernel_find(name) : NULL;
		int ki = kk ? calibration_kernel_index(kk) : -1;
		if (ki < 0)
			continue;
		for (size_t s = 0; s < jr_len(per); s++) {
			const struct jr_value *ps = jr_at(per, s), *cells = jr_get(ps, "ns");
			size_t size = (size_t)jr_number(jr_get(ps, "size"), 0);   /* checked */
			double worst = jr_number(jr_get(ps, "worst_ratio"), NAN);
			double ctl = jr_number(jr_get(ps, "ns_control"), NAN);
			if (!size || !(ctl > 0))
				continue;
			struct cal_probe *cp = calibration_probe(cal, size, 0,
								 (uint32_t)jr_number(jr_get(pr, "control_distance"), 0));
			if (cp)
				cp->ns[ki] = ctl;
			size_t wj = 0;
			double w = 0;
			for (size_t j = 0; j < jr_len(cells); j++) {
				double q = jr_number(jr_at(cells, j), NAN) / ctl;
				if (q > w) {
					w = q;
					wj = j;
				}
			}
			if (worst >= CAL_CLIFF && jr_len(cells) &&
			    calibration_add_cliff(cal, kk, size, worst, 0,
						  (uint32_t)jr_number(jr_at(ds, wj), 0)))
				return -1;
		}
	}
	return 0;
}

int corpus_calibration(const struct corpus_report *r, size_t n, struct calibration *cal,
		       char *err, size_t errlen)
{
	if (n > CORPUS_MAX_REPORTS)
		return fail(err, errlen, "%s%s", "more reports than 32 of one machine", "");
	static const struct { const char *cache; enum cal_state st; } states[] = {
		{ "hot", CAL_HOT }, { "cold", CAL_COLD },
	};
	for (size_t s = 0; s < 2; s++)
		for (size_t i = 0; i < n; i++) {
			const struct jr_value *sizes = jr_get(corpus_sweep(&r[i], states[s].cache), "sizes");
			for (size_t j = 0; j < jr_len(sizes); j++) {
				size_t size = (size_t)jr_number(jr_at(sizes, j), 0);   /* checked */
				struct cal_point *pt = calibration_point(cal, size);
				if (!pt)
					return fail(err, errlen, "%s%s", "the reports measured more "
						    "sizes than 96 (CAL_MAX_POINTS) together", "");
				int done = 0;
				for (size_t k = 0; pt && k < calibration_kernels(); k++)
					done |= !isnan(pt->ns[states[s].st][k]);
				if (size && !done)
					one_size(r, n, states[s].cache, states[s].st, size, cal);
			}
		}
	/* A cold-only size is not a point the derivation can judge hot;
	 * drop it rather than keep a point no kernel is usable at. */
	for (size_t i = 0; i < cal->npoints;) {
		int hot = 0;
		for (size_t k = 0; k < calibration_kernels(); k++)
			hot |= !isnan(cal->point[i].ns[CAL_HOT][k]);
		if (hot) {
			i++;
			continue;
		}
		memmove(&cal->point[i], &cal->point[i + 1],
			(cal->npoints - i - 1) * sizeof cal->point[0]);
		cal->npoints--;
	}
	for (size_t i = 0; i < n; i++)
		if (probes(&r[i], cal))
			return fail(err, errlen, "%s%s", "the reports' probes found more cliffs than "
				    "64 (CAL_MAX_CLIFFS)", "");
	cal->l2 = r[0].cpu.l2;
	return 0;
}

int corpus_default_policy(const struct corpus_report *r, struct ucopy_policy *p,
			  char *err, size_t errlen)
{
	struct ucopy_cpu c = r->cpu;
	char text[512];
	/* No row is keyed by family 0 (x86-64) or MIDR part 0 (aarch64):
	 * the CPU's vendor with that key takes the default row. */
	if (!strcmp(c.arch, "aarch64"))
		c.model = 0;
	else
		c.family = 0;
	if (ucopy_auto_for(&c, text, sizeof text, NULL, 0) < 0)
		return fail(err, errlen, "this library cannot describe a %s CPU", c.arch, "");
	if (ucopy_policy_parse(p, text, err, errlen))
		return -1;
	ucopy_policy_fit(p, c.features, NULL, 0);
	return 0;
}

int corpus_auto_policy(const struct corpus_report *r, struct ucopy_policy *p, char *text,
		       size_t textlen, char *row, size_t rowlen)
{
	struct ucopy_cpu c = r->cpu;
	char why[1024], err[256];
	if (ucopy_auto_for(&c, text, textlen, why, sizeof why) < 0 ||
	    ucopy_policy_parse(p, text, err, sizeof err))
		return -1;
	ucopy_policy_fit(p, c.features, NULL, 0);
	ucopy_policy_format(p, text, textlen);
	snprintf(row, rowlen, "%.*s", (int)strcspn(why, ":"), why);
	return 0;
}
