/*
 * test_kbuild.c - routines built by `ucopy kbuild` from kernel-style sources
 * (tests/kstyle/), loaded and run: copies at every size 0..300 and
 * alignment, and a source or destination fault at every offset of every
 * size 1..300 with the exact count; the wrong variants caught.
 *
 * With arguments it is the driver for any object kbuild built, a real
 * kernel's included (docs/kbuild.md):
 *   test_kbuild LIB.so SYMBOL [--source-only] [--bounded]
 * --source-only: no destination faults (arm64's copy_from_user lists only
 * its loads); --bounded: the kernel's own contract instead of the exact
 * one (at least the bytes past the fault reported, the prefix reported
 * copied intact, what lies past it free).  It prints what it found and
 * exits 1 on a failure.
 */
#include "check.h"
#include "ucopy.h"

#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_N 300
#define PAD 64

typedef size_t (*try_fn)(void *dst, const void *src, size_t n);

/* What a matrix found; in shared memory, so that a child that dies in the
 * routine leaves the case it was at. */
struct verdict {
	long cases, failures;
	int side, n, k;                 /* the first failure */
	int run_side, run_n, run_k;     /* the case running */
	size_t got, want;
	char what[160];
	int signal;                     /* the child died of it; 0 when it did not */
};

static size_t page;

static unsigned char pattern(size_t i)
{
	return (unsigned char)(i % 251 + 1);
}

static void fail_case(struct verdict *v, int side, int n, int k, size_t got, size_t want,
		      const char *what)
{
	if (!v->failures++) {
		v->side = side;
		v->n = n;
		v->k = k;
		v->got = got;
		v->want = want;
		snprintf(v->what, sizeof v->what, "%s", what);
	}
}

/* Every size 0..MAX_N from every source and destination offset 0..7:
 * 0 returned, the bytes copied, nothing around them written. */
static void copies(try_fn f, struct verdict *v)
{
	static unsigned char src[MAX_N + 2 * PAD], dst[MAX_N + 2 * PAD];
	for (size_t i = 0; i < sizeof src; i++)
		src[i] = pattern(i);
	for (int n = 0; n <= MAX_N; n++)
		for (int so = 0; so < 8; so++)
			for (int d = 0; d < 8; d++) {
				memset(dst, 0, sizeof dst);
				v->cases++;
				size_t r = f(dst + PAD + d, src + PAD + so, (size_t)n);
				if (r)
					fail_case(v, 0, n, so * 8 + d, r, 0, "copy returned non-zero");
				else if (memcmp(dst + PAD + d, src + PAD + so, (size_t)n))
					fail_case(v, 0, n, so * 8 + d, r, 0, "copy's bytes differ");
				for (size_t i = 0; i < sizeof dst; i++)
					if ((i < PAD + (size_t)d || i >= PAD + (size_t)d + (size_t)n) && dst[i]) {
						fail_case(v, 0, n, so * 8 + d, r, 0, "copy wrote outside dst");
						break;
					}
			}
}

/* One fault case: k bytes of the side before a PROT_NONE page.  Exact:
 * n - k returned, dst[0..k) copied, nothing past it written.  Bounded: the
 * count at least n - k, what it says was copied intact. */
static void fault_case(try_fn f, struct verdict *v, int side, int n, int k, int bounded,
		       unsigned char *edge, unsigned char *buf)
{
	unsigned char *src = side == 1 ? edge - k : buf, *dst = side == 2 ? edge - k : buf + PAD;
	size_t want = (size_t)(n - k);
	if (side == 1)
		for (int i = 0; i < k; i++)
			src[i] = pattern((size_t)i);
	else
		for (int i = 0; i < n; i++)
			src[i] = pattern((size_t)i);
	memset(dst, 0, side == 2 ? (size_t)k : (size_t)n + PAD);
	v->run_side = side;
	v->run_n = n;
	v->run_k = k;
	v->cases++;
	size_t r = f(dst, src, (size_t)n);
	size_t done = r <= (size_t)n ? (size_t)n - r : 0;
	if (r > (size_t)n)
		fail_case(v, side, n, k, r, want, "count above n");
	else if (bounded ? r < want : r != want)
		fail_case(v, side, n, k, r, want, "wrong count");
	else if (memcmp(dst, src, done))
		fail_case(v, side, n, k, r, want, "copied prefix differs");
	else if (!bounded && side == 1)
		for (size_t i = done; i < (size_t)n + PAD; i++)
			if (dst[i]) {
				fail_case(v, side, n, k, r, want, "wrote past the fault");
				break;
			}
}

/* side 1: the source faults, 2: the destination. */
static void faults(try_fn f, struct verdict *v, int side, int bounded)
{
	unsigned char *map = mmap(NULL, 3 * page, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	static unsigned char buf[MAX_N + 2 * PAD];
	if (map == MAP_FAILED || mprotect(map + 2 * page, page, PROT_NONE)) {
		snprintf(v->what, sizeof v->what, "cannot map the guard page");
		v->failures++;
		return;
	}
	for (int n = 1; n <= MAX_N; n++)
		for (int k = 0; k < n; k++)
			fault_case(f, v, side, n, k, bounded, map + 2 * page, buf);
	munmap(map, 3 * page);
}

/* The copies, then each side's faults, in a child: a fault the routine
 * does not list kills it, and the verdict keeps the case. */
static void run_matrix(try_fn f, int source_only, int bounded, struct verdict *out)
{
	struct verdict *v = mmap(NULL, sizeof *v, PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	memset(out, 0, sizeof *out);
	if (v == MAP_FAILED) {
		snprintf(out->what, sizeof out->what, "cannot map the verdict");
		out->failures = 1;
		return;
	}
	memset(v, 0, sizeof *v);
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		copies(f, v);
		for (int side = 1; side <= (source_only ? 1 : 2) && !v->failures; side++)
			faults(f, v, side, bounded);
		_exit(0);
	}
	int status = 0;
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		v->failures++;
	*out = *v;
	if (WIFSIGNALED(status)) {
		out->signal = WTERMSIG(status);
		out->side = v->run_side;
		out->n = v->run_n;
		out->k = v->run_k;
		out->failures++;
	}
	munmap(v, sizeof *v);
}

static const char *side_name(int side)
{
	return side == 1 ? "source fault" : side == 2 ? "destination fault" : "copy";
}

static void describe(const struct verdict *v, char *buf, size_t len)
{
	if (v->signal)
		snprintf(buf, len, "died of signal %d (%s) at a %s: size %d, offset %d", v->signal,
			 strsignal(v->signal), side_name(v->side), v->n, v->k);
	else if (v->side)
		snprintf(buf, len, "%s at a %s: size %d, offset %d: returned %zu, expected %zu",
			 v->what, side_name(v->side), v->n, v->k, v->got, v->want);
	else
		snprintf(buf, len, "%s: size %d, offsets %d/%d", v->what, v->n, v->k / 8, v->k % 8);
}

/* The routine `symbol` of lib, its fault sites registered: NULL with why
 * in err. */
static try_fn load(const char *lib, const char *symbol, int *sites, char *err, size_t errlen)
{
	char path[4096];
	/* A name without '/' is a file here, not one the loader searches for. */
	snprintf(path, sizeof path, "%s%s", strchr(lib, '/') ? "" : "./", lib);
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	void *f = h ? dlsym(h, symbol) : NULL;
	if (!f) {
		snprintf(err, errlen, "%s", dlerror());
		return NULL;
	}
	*sites = ucopy_fault_register(f);
	if (*sites < 0) {
		snprintf(err, errlen, "ucopy_fault_register: %s", strerror(errno));
		return NULL;
	}
	return (try_fn)f;
}

static int drive(int argc, char **argv)
{
	int source_only = 0, bounded = 0, sites;
	char err[512];
	for (int i = 3; i < argc; i++) {
		if (!strcmp(argv[i], "--source-only"))
			source_only = 1;
		else if (!strcmp(argv[i], "--bounded"))
			bounded = 1;
		else {
			fprintf(stderr, "test_kbuild: unknown option '%s'\n", argv[i]);
			return 2;
		}
	}
	try_fn f = load(argv[1], argv[2], &sites, err, sizeof err);
	if (!f) {
		fprintf(stderr, "test_kbuild: %s\n", err);
		return 2;
	}
	struct verdict v;
	run_matrix(f, source_only, bounded, &v);
	printf("%s:%s: %d fault sites, %ld cases, %s contract, %s\n", argv[1], argv[2], sites,
	       v.cases, bounded ? "bounded" : "exact",
	       source_only ? "source faults only" : "source and destination faults");
	if (!v.failures) {
		printf("ok\n");
		return 0;
	}
	describe(&v, err, sizeof err);
	printf("%ld failed; the first: %s\n", v.failures, err);
	return 1;
}

/*=====   The kernel-style routines of tests/kstyle   =====*/

static char tmpdir[64];

/* `ucopy kbuild SRC -o DIR/OUT ARGS...`: 0 when it built. */
static int kbuild(const char *src, const char *out, const char *const *args)
{
	const char *ucopy = getenv("UCOPY");
	char def[256], path[128];
	const char *b = getenv("B");
	if (!ucopy || !ucopy[0]) {
		snprintf(def, sizeof def, "%s/ucopy", b && b[0] ? b : "build");
		ucopy = def;
	}
	snprintf(path, sizeof path, "%s/%s", tmpdir, out);
	const char *argv[16] = { ucopy, "kbuild", src, "-o", path };
	size_t n = 5;
	while (*args && n < 15)
		argv[n++] = *args++;
	argv[n] = NULL;
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		if (!freopen("/dev/null", "w", stdout))
			_exit(127);
		execv(ucopy, (char *const *)argv);
		_exit(127);
	}
	int status;
	return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	       !WEXITSTATUS(status) ? 0 : -1;
}

struct kcase {
	const char *name, *src, *out;
	const char *args[4];
	int source_only;
	int expect;          /* 0 passes; 'c' a wrong count; SIGSEGV dies of it */
};

static void one(const struct kcase *c)
{
	char lib[128], err[512];
	int sites;
	if (kbuild(c->src, c->out, c->args)) {
		CHECK(0, "ucopy kbuild %s failed (its message is above)", c->src);
		check_group(c->name);
		return;
	}
	snprintf(lib, sizeof lib, "%s/%s", tmpdir, c->out);
	try_fn f = load(lib, "ucopy_kroutine", &sites, err, sizeof err);
	CHECK(f, "%s", err);
	if (f) {
		struct verdict v;
		run_matrix(f, c->source_only, 0, &v);
		describe(&v, err, sizeof err);
		CHECK(sites > 0, "no fault sites registered");
		if (!c->expect)
			CHECK(!v.failures, "%s", err);
		else if (c->expect == 'c')
			CHECK(v.failures && !v.signal && !strcmp(v.what, "wrong count"),
			      "expected a wrong count, got: %s", v.failures ? err : "no failure");
		else
			CHECK(v.signal == c->expect && v.side == 2,
			      "expected to die of signal %d at a destination fault, got: %s",
			      c->expect, v.failures ? err : "no failure");
	}
	check_group(c->name);
}

static const struct kcase cases[] = {
#if defined(__x86_64__)
	{ "kbuild: 6.4-style rep_movs_alternative with erms (rep movsb), exact", 
	  "tests/kstyle/x86_64/copy_user_rcx.S", "rcx_erms.so", { "--features", "none,erms" }, 0, 0 },
	{ "kbuild: 6.4-style rep_movs_alternative without erms (word loop), exact",
	  "tests/kstyle/x86_64/copy_user_rcx.S", "rcx.so", { "--features", "none" }, 0, 0 },
	{ "kbuild: 6.3-style copy_user_enhanced_fast_string, _ASM_EXTABLE_CPY's eax 14, exact",
	  "tests/kstyle/x86_64/copy_user_eax.S", "eax_erms.so", { "--features", "none,erms" }, 0, 0 },
	{ "kbuild: 6.3-style copy_user_generic_unrolled, _ASM_EXTABLE_CPY's eax 14, exact",
	  "tests/kstyle/x86_64/copy_user_eax.S", "eax.so", { "--features", "none" }, 0, 0 },
	{ "kbuild: a store without its _ASM_EXTABLE_UA dies of SIGSEGV at a destination fault",
	  "tests/kstyle/x86_64/copy_user_rcx_noentry.S", "noentry.so", { "--features", "none" },
	  0, SIGSEGV },
	{ "kbuild: a fixup returning one byte too few is a wrong count",
	  "tests/kstyle/x86_64/copy_user_rcx_badcount.S", "badcount.so", { "--features", "none" },
	  0, 'c' },
#elif defined(__aarch64__)
	{ "kbuild: 5.15-style __arch_copy_from_user (user_ldst, USER()), exact source faults",
	  "tests/kstyle/aarch64/copy_from_user_515.S", "cfu515.so", { NULL }, 1, 0 },
	{ "kbuild: 4.19-style __arch_copy_from_user (ENTRY, uao_user_alternative), exact source faults",
	  "tests/kstyle/aarch64/copy_from_user_419.S", "cfu419.so", { NULL }, 1, 0 },
#endif
	{ NULL, NULL, NULL, { NULL }, 0, 0 }
};

int main(int argc, char **argv)
{
	page = (size_t)sysconf(_SC_PAGESIZE);
	if (argc >= 3)
		return drive(argc, argv);
	if (argc == 2) {
		fprintf(stderr, "usage: test_kbuild [LIB.so SYMBOL [--source-only] [--bounded]]\n");
		return 2;
	}
	if (!cases[0].name) {
		check_skip("kbuild", "no kernel-style routines for this architecture");
		return 0;
	}
	snprintf(tmpdir, sizeof tmpdir, "/tmp/ucopy-kbuild-XXXXXX");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	/* Without a compiler for this architecture there is nothing to run. */
	const char *dry[] = { "--dry-run", NULL };
	if (kbuild(cases[0].src, cases[0].out, dry)) {
		check_skip("kbuild", "`ucopy kbuild --dry-run` failed: no C compiler for this "
			   "architecture? (its message is above)");
		rmdir(tmpdir);
		return 0;
	}
	for (const struct kcase *c = cases; c->name; c++)
		one(c);
	for (const struct kcase *c = cases; c->name; c++) {
		char path[128];
		snprintf(path, sizeof path, "%s/%s", tmpdir, c->out);
		unlink(path);
	}
	rmdir(tmpdir);
	return check_exit();
}
