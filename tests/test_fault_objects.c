/*
 * test_fault_objects.c - fault sites of other objects: ucopy_fault_register()
 * and ucopy_fault_unregister() (include/ucopy.h, <ucopy-asm.h>).
 *
 * $B/tests/libfault_object.so holds copy routines written with
 * <ucopy-asm.h> (tests/fault_object_<arch>.S): fo_bytes, a byte at a time
 * with both accesses listed; fo_trapnr on x86-64, the same with sites of
 * type UCOPY_EX_TRAPNR, whose fixup hands over eax; fo_missing, whose store
 * is not listed.  $B/tests/libfault_bad_<way>.so each have a table
 * malformed one way (tests/fault_object_bad.S).  What must kill the
 * process (a fault no registered site covers) runs in a child.
 */
#define _GNU_SOURCE
#include "check.h"
#include "arch.h"
#include "ucopy.h"
#include "ucopy-asm.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define GUARD 0xAA

typedef size_t (*try_fn)(void *dst, const void *src, size_t n);

static size_t page;
static char dir[4096];   /* $B/tests */
static try_fn fo_bytes, fo_missing;
static size_t (*fo_trapnr)(void *dst, const void *src, size_t n, unsigned *trapnr);

#ifdef __x86_64__
/* fo_bytes', fo_trapnr's and fo_missing's */
#define OBJECT_SITES 5
#else
#define OBJECT_SITES 3
#endif

static unsigned char pattern(size_t i)
{
	unsigned char c = (unsigned char)((i * 131 + 7) % 251);
	return c == GUARD ? 0x55 : c;
}

static void *open_object(const char *name)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		printf("  dlopen %s: %s\n", path, dlerror());
	return h;
}

/* A copy of the file at from, at to: loaded, a distinct object.
 * @return : 0, or -1. */
static int copy_file(const char *from, const char *to)
{
	int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0700);
	char b[8192];
	ssize_t k = 0;
	while (in >= 0 && out >= 0 && (k = read(in, b, sizeof b)) > 0)
		if (write(out, b, (size_t)k) != k)
			k = -1;
	int rc = in >= 0 && out >= 0 && k == 0 ? 0 : -1;
	if (in >= 0)
		close(in);
	if (out >= 0 && close(out) != 0)
		rc = -1;
	return rc;
}

/* The routine through which a copy is checked: fo_bytes, or fo_trapnr,
 * which must also have handed its fixup 14 exactly when a fault stopped it. */
static size_t copy(int trapnr, void *dst, const void *src, size_t n)
{
	if (!trapnr)
		return fo_bytes(dst, src, n);
	unsigned seen = 7;
	size_t r = fo_trapnr(dst, src, n, &seen);
	CHECK(seen == (r ? 14u : 7u), "fo_trapnr n=%zu returned %zu: the fixup saw eax %u", n, r, seen);
	return r;
}

/* r == expect, dst[0..n-r) copied, every other byte of [lo, hi) GUARD. */
static void check_copy(const char *what, size_t n, size_t off, size_t r, size_t expect,
		       const unsigned char *dst, const unsigned char *src,
		       const unsigned char *lo, const unsigned char *hi)
{
	CHECK(r == expect, "%s n=%zu off=%zu: returned %zu, expected %zu", what, n, off, r, expect);
	if (r > n)
		return;
	if (memcmp(dst, src, n - r) != 0)
		CHECK(0, "%s n=%zu off=%zu: the copied prefix differs", what, n, off);
	for (const unsigned char *p = lo; p < hi; p++)
		if ((p < dst || p >= dst + (n - r)) && *p != GUARD) {
			CHECK(0, "%s n=%zu off=%zu: byte at dst%+td written", what, n, off, p - dst);
			break;
		}
}

/* A source readable up to a page end and a destination writable up to
 * one, PROT_NONE after each: a copy of n bytes starting off bytes before
 * the end faults at offset off, for every off from 0 to n. */
static void test_matrix(int trapnr)
{
	unsigned char *s = check_map(2 * page, PROT_READ | PROT_WRITE);
	unsigned char *d = check_map(2 * page, PROT_READ | PROT_WRITE);
	for (size_t i = 0; i < page; i++)
		s[i] = pattern(i);
	mprotect(s + page, page, PROT_NONE);
	mprotect(s, page, PROT_READ);
	mprotect(d + page, page, PROT_NONE);
	unsigned char src[200], buf[200 + 64];
	for (size_t i = 0; i < sizeof src; i++)
		src[i] = pattern(i + 3);
	for (size_t n = 0; n <= 130; n++)
		for (size_t off = 0; off <= n + 1; off++) {
			size_t expect = n > off ? n - off : 0;
			const unsigned char *from = s + page - off;
			memset(buf, GUARD, sizeof buf);
			size_t r = copy(trapnr, buf + 32, from, n);
			check_copy("source fault", n, off, r, expect, buf + 32, from, buf, buf + sizeof buf);

			unsigned char *to = d + page - off;
			unsigned char *lo = d + page - 140;
			memset(lo, GUARD, 140);
			r = copy(trapnr, to, src, n);
			check_copy("destination fault", n, off, r, expect, to, src, lo, d + page);
		}
	munmap(s, 2 * page);
	munmap(d, 2 * page);
}

/* SIGBUS: a shared file mapping cut short under the reader.  The page
 * holding the new end reads (zeros past it); the next raises SIGBUS. */
static void test_sigbus(void)
{
	char path[] = "/tmp/ucopy-objects-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0) {
		check_skip("fault objects: SIGBUS", "cannot create a temporary file");
		return;
	}
	unlink(path);
	size_t len = 3 * page;
	unsigned char *data = malloc(len), *dst = malloc(len);
	for (size_t i = 0; i < len; i++)
		data[i] = pattern(i);
	CHECK(write(fd, data, len) == (ssize_t)len, "write: %s", strerror(errno));
	unsigned char *m = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	CHECK(m != MAP_FAILED, "mmap: %s", strerror(errno));
	CHECK(ftruncate(fd, page + 100) == 0, "ftruncate: %s", strerror(errno));
	if (m != MAP_FAILED)
		for (size_t off = 0; off <= 70; off += 7) {
			size_t n = off + 1 + off % 5;
			const unsigned char *from = m + 2 * page - off;
			memset(dst, GUARD, len);
			size_t r = fo_bytes(dst, from, n);
			check_copy("truncated file", n, off, r, n - off, dst, from, dst, dst + len);
		}
	if (m != MAP_FAILED)
		munmap(m, len);
	close(fd);
	free(data);
	free(dst);
	check_group("fault objects: SIGBUS from a truncated file mapping, the count exact");
}

/* Runs fn in a child.  @return : its wait status. */
static int in_child(void (*fn)(void))
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		fn();
		_exit(0);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	return st;
}

static unsigned char *unreadable;

/* A fault the handler must not recover: the child dies of SIGSEGV.  Exits
 * 3 when fo_bytes recovered before the call (so the death is the call's). */
static void after_unregister(void)
{
	unsigned char buf[16];
	if (fo_bytes(buf, unreadable, 16) != 16)
		_exit(3);
	if (ucopy_fault_unregister((void *)fo_bytes) != 0)
		_exit(4);
	fo_bytes(buf, unreadable, 16);
	_exit(5);
}

static void missing_store(void)
{
	unsigned char src[16] = { 0 };
	/* The load is listed: a source fault is recovered. */
	if (fo_missing(src, unreadable, 16) != 16)
		_exit(3);
	fo_missing(unreadable, src, 16);
	_exit(5);
}

static void never_registered(void)
{
	unsigned char buf[16];
	fo_bytes(buf, unreadable, 16);
	_exit(5);
}

static void expect_segv(const char *name, int st)
{
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV,
	      "status %#x: want death by SIGSEGV (exit 3: the recovery before failed)", st);
	check_group(name);
}

static void test_errors(void)
{
	int e;
	errno = 0;
	CHECK(ucopy_fault_register(unreadable) == -1 && (e = errno) == ENOENT,
	      "an anonymous page: want -1/ENOENT, errno %d", errno);
	CHECK(ucopy_fault_register(NULL) == -1 && errno == ENOENT, "NULL: want -1/ENOENT");
	CHECK(ucopy_fault_unregister(unreadable) == -1 && errno == ENOENT,
	      "unregister of an anonymous page: want -1/ENOENT");
	/* The test program lists no sites: 0, nothing recorded. */
	int n = ucopy_fault_register((void *)test_errors);
	CHECK(n == 0, "the test program: %d sites, want 0", n);
	CHECK(ucopy_fault_unregister((void *)test_errors) == -1 && errno == ENOENT,
	      "unregister of the program registered with 0 sites: want -1/ENOENT");
	check_group("fault objects: ENOENT for no object, an object never registered, one without sites");

	static const char *const bad[] = { "fixup", "insn", "type", "trapnr", "last", "size", "twice" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		char name[64];
		snprintf(name, sizeof name, "libfault_bad_%s.so", bad[i]);
		void *h = open_object(name);
		void *f = h ? dlsym(h, "fo_bad") : NULL;
		CHECK(f, "%s: no fo_bad", name);
		if (!f)
			continue;
		errno = 0;
		n = ucopy_fault_register(f);
		e = errno;
#ifdef __x86_64__
		if (!strcmp(bad[i], "trapnr")) {
			CHECK(n == 2, "%s on x86-64: %d sites, want 2", name, n);
			CHECK(ucopy_fault_unregister(f) == 0, "%s: unregister failed", name);
			dlclose(h);
			continue;
		}
#endif
		CHECK(n == -1 && e == EINVAL, "%s: returned %d, errno %d; want -1/EINVAL", name, n, e);
		CHECK(ucopy_fault_unregister(f) == -1 && errno == ENOENT,
		      "%s: something was registered", name);
		dlclose(h);
	}
	check_group("fault objects: a table refused whole (fixup outside, instruction not executable, "
		    "unknown type, TRAPNR off x86-64, last word, size, an instruction twice)");
}

/* ENOSPC: copies of the object under names of their own are objects of
 * their own; all slots but the one libfault_object.so holds fill up. */
static void test_full(void)
{
	char tmp[] = "/tmp/ucopy-objects-XXXXXX", src[4200];
	if (!mkdtemp(tmp)) {
		check_skip("fault objects: ENOSPC", "no temporary directory");
		return;
	}
	snprintf(src, sizeof src, "%s/libfault_object.so", dir);
	static void *h[UCOPY_OBJECTS_MAX + 1];
	static char path[UCOPY_OBJECTS_MAX + 1][4200];
	int registered = 0, full = 0;
	for (int i = 0; i <= UCOPY_OBJECTS_MAX; i++) {
		snprintf(path[i], sizeof path[i], "%s/copy%d.so", tmp, i);
		if (copy_file(src, path[i]) != 0 || !(h[i] = dlopen(path[i], RTLD_NOW | RTLD_LOCAL))) {
			CHECK(0, "cannot load %s", path[i]);
			break;
		}
		int n = ucopy_fault_register(dlsym(h[i], "fo_bytes"));
		if (n == OBJECT_SITES)
			registered++;
		else if (n == -1 && errno == ENOSPC)
			full = full ? full : i + 1;
		else
			CHECK(0, "copy %d: %d (errno %d)", i, n, errno);
	}
	CHECK(registered == UCOPY_OBJECTS_MAX - 1 && full == UCOPY_OBJECTS_MAX,
	      "%d registered, ENOSPC at the %dth; want %d, then ENOSPC", registered, full,
	      UCOPY_OBJECTS_MAX - 1);
	/* A slot freed is a slot again. */
	CHECK(h[0] && ucopy_fault_unregister(dlsym(h[0], "fo_bytes")) == 0, "unregister copy 0");
	void *last = h[UCOPY_OBJECTS_MAX] ? dlsym(h[UCOPY_OBJECTS_MAX], "fo_bytes") : NULL;
	CHECK(last && ucopy_fault_register(last) == OBJECT_SITES, "the last copy after one left");
	unsigned char buf[8];
	CHECK(last && ((try_fn)last)(buf, unreadable, 8) == 8, "the last copy's fault");
	for (int i = 0; i <= UCOPY_OBJECTS_MAX; i++) {
		if (!h[i])
			continue;
		if (i > 0)
			ucopy_fault_unregister(dlsym(h[i], "fo_bytes"));
		dlclose(h[i]);
		unlink(path[i]);
	}
	rmdir(tmp);
	check_group("fault objects: ENOSPC past 64 objects, a slot freed taken again");
}

/* An object unloaded without unregistering (which the header forbids),
 * and another loaded where it was: registering the new one drops the old
 * one's sites rather than taking them for the new one's.  Only where the
 * loader puts the second object over the first (it usually does: the
 * hole the first left), and on x86-64, where libfault_bad_trapnr.so is a
 * valid object with other sites. */
static void test_stale(void)
{
#ifdef __x86_64__
	char tmp[] = "/tmp/ucopy-objects-XXXXXX", from[4200], path[4300];
	snprintf(from, sizeof from, "%s/libfault_object.so", dir);
	if (!mkdtemp(tmp)) {
		check_skip("fault objects: an object unloaded without unregistering", "no temporary directory");
		return;
	}
	snprintf(path, sizeof path, "%s/gone.so", tmp);
	void *gone = copy_file(from, path) == 0 ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
	unlink(path);
	rmdir(tmp);
	if (!gone) {
		check_skip("fault objects: an object unloaded without unregistering", "cannot load a copy");
		return;
	}
	uintptr_t at = (uintptr_t)dlsym(gone, "fo_bytes");
	CHECK(ucopy_fault_register((void *)at) == OBJECT_SITES, "register the copy");
	dlclose(gone);
	void *h = open_object("libfault_bad_trapnr.so");
	uintptr_t f = h ? (uintptr_t)dlsym(h, "fo_bad") : 0;
	if (!f || (f > at ? f - at : at - f) > 4096) {
		check_skip("fault objects: an object unloaded without unregistering",
			   "the loader put the next object elsewhere");
		ucopy_fault_unregister((void *)at);
		if (h)
			dlclose(h);
		return;
	}
	int n = ucopy_fault_register((void *)f);
	CHECK(n == 2, "the object loaded where the unloaded one was: %d sites, want its 2", n);
	CHECK(ucopy_fault_unregister((void *)f) == 0, "unregister it");
	CHECK(ucopy_fault_unregister((void *)at) == -1 && errno == ENOENT,
	      "the unloaded object's sites are still registered");
	dlclose(h);
	check_group("fault objects: an object loaded where an unregistered one was drops its sites");
#else
	check_skip("fault objects: an object unloaded without unregistering",
		   "needs a second valid object (libfault_bad_trapnr.so is one on x86-64)");
#endif
}

/* Registration racing with faults: faulting threads copy through fo_bytes
 * while another unregisters and registers copies of the object held in
 * the slots before fo_bytes' own, which every lookup of fo_bytes' faults
 * reads: the counts stay exact and no handler reads a table freed under it
 * (which make check-asan would report). */
#define TWINS 16

struct racer {
	const unsigned char *end;   /* readable up to here */
	unsigned seed;
	long iterations, wrong;
};

static int racing;

static void *fault_loop(void *p)
{
	struct racer *a = p;
	unsigned char dst[96];
	unsigned s = a->seed;
	for (long i = 0; i < a->iterations; i++) {
		s = s * 1103515245u + 12345u;
		size_t n = (s >> 8) % 64, off = (s >> 20) % 80;
		memset(dst, GUARD, sizeof dst);
		size_t r = fo_bytes(dst, a->end - off, n);
		if (r != (n > off ? n - off : 0) || memcmp(dst, a->end - off, n - r) ||
		    dst[n - r] != GUARD)
			a->wrong++;
	}
	__atomic_sub_fetch(&racing, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static void test_race(void *const twin[TWINS])
{
	long iterations = 4000;
	unsigned char *m = check_map(2 * page, PROT_READ | PROT_WRITE);
	for (size_t i = 0; i < page; i++)
		m[i] = pattern(i);
	mprotect(m + page, page, PROT_NONE);
	/* The twins first, in the lower slots. */
	CHECK(ucopy_fault_unregister((void *)fo_bytes) == 0, "unregister fo_bytes");
	for (int i = 0; i < TWINS; i++)
		CHECK(ucopy_fault_register(twin[i]) == OBJECT_SITES, "register twin %d", i);
	CHECK(ucopy_fault_register((void *)fo_bytes) == OBJECT_SITES, "register fo_bytes");
	pthread_t t[3];
	struct racer r[3];
	racing = 3;
	for (int i = 0; i < 3; i++) {
		r[i] = (struct racer){ m + page, 77u + (unsigned)i, iterations, 0 };
		pthread_create(&t[i], NULL, fault_loop, &r[i]);
	}
	long cycles = 0, failed = 0;
	while (__atomic_load_n(&racing, __ATOMIC_SEQ_CST)) {
		void *tw = twin[cycles % TWINS];
		failed += ucopy_fault_unregister(tw) != 0;
		failed += ucopy_fault_register(tw) != OBJECT_SITES;
		failed += ucopy_fault_register((void *)fo_bytes) != OBJECT_SITES;
		cycles++;
	}
	long wrong = 0;
	for (int i = 0; i < 3; i++) {
		pthread_join(t[i], NULL);
		wrong += r[i].wrong;
	}
	CHECK(wrong == 0, "%ld of %ld copies wrong", wrong, 3 * iterations);
	CHECK(failed == 0, "%ld of %ld registration calls failed", failed, 3 * cycles);
	CHECK(cycles > 0, "no registration ran during the faults");
	for (int i = 0; i < TWINS; i++)
		CHECK(ucopy_fault_unregister(twin[i]) == 0, "unregister twin %d", i);
	munmap(m, 2 * page);
	char name[160];
	snprintf(name, sizeof name, "fault objects: 3 threads x %ld faults while another registers "
		 "and unregisters (%ld times)", iterations, cycles);
	check_group(name);
}

/* A handler held between loading a table and reading it (the library's
 * hook) while the main thread unregisters the table's object: unregister
 * must not return before the handler is done with the table. */
enum { HOLD_ARMED = 1, HOLD_HOLDING, HOLD_LEFT };
static int hold;

static void hold_reader(void)
{
	int armed = HOLD_ARMED;
	if (!__atomic_compare_exchange_n(&hold, &armed, HOLD_HOLDING, 0, __ATOMIC_SEQ_CST,
					 __ATOMIC_SEQ_CST))
		return;
	struct timespec ts = { 0, 200 * 1000 * 1000 };
	nanosleep(&ts, NULL);
	__atomic_store_n(&hold, HOLD_LEFT, __ATOMIC_SEQ_CST);
}

static void *one_fault(void *p)
{
	unsigned char buf[8];
	return (void *)(uintptr_t)fo_bytes(buf, p, sizeof buf);
}

static void test_held_reader(void *twin)
{
	CHECK(ucopy_fault_unregister((void *)fo_bytes) == 0, "unregister fo_bytes");
	CHECK(ucopy_fault_register(twin) == OBJECT_SITES, "register the twin");
	CHECK(ucopy_fault_register((void *)fo_bytes) == OBJECT_SITES, "register fo_bytes");
	__atomic_store_n(&hold, HOLD_ARMED, __ATOMIC_SEQ_CST);
	__atomic_store_n(&ucopy_objects_reading, hold_reader, __ATOMIC_SEQ_CST);
	pthread_t t;
	pthread_create(&t, NULL, one_fault, unreadable);
	while (__atomic_load_n(&hold, __ATOMIC_SEQ_CST) == HOLD_ARMED)
		sched_yield();
	CHECK(ucopy_fault_unregister(twin) == 0, "unregister the twin");
	int state = __atomic_load_n(&hold, __ATOMIC_SEQ_CST);
	void *r;
	pthread_join(t, &r);
	__atomic_store_n(&ucopy_objects_reading, NULL, __ATOMIC_SEQ_CST);
	CHECK(state == HOLD_LEFT, "unregister returned while a handler still read the table");
	CHECK((uintptr_t)r == 8, "the held fault returned %zu, want 8", (size_t)(uintptr_t)r);
	check_group("fault objects: unregister waits for a handler reading the table");
}

int main(void)
{
	page = (size_t)sysconf(_SC_PAGESIZE);
	const char *b = getenv("B");
	snprintf(dir, sizeof dir, "%s/tests", b && *b ? b : "build");
	unreadable = check_map(page, PROT_NONE);

	if (!ucopy_arch_faults) {
		errno = 0;
		int n = ucopy_fault_register((void *)main);
		CHECK(n == -1 && errno == ENOSYS, "register: %d (errno %d), want -1/ENOSYS", n, errno);
		CHECK(ucopy_fault_unregister((void *)main) == -1 && errno == ENOSYS,
		      "unregister: want -1/ENOSYS");
		check_group("fault objects: ENOSYS on a port without fault-capable kernels");
		return check_exit();
	}
	void *h = open_object("libfault_object.so");
	if (!h) {
		check_skip("fault objects", "no libfault_object.so in $B/tests (no "
			   "tests/fault_object_<arch>.S for this architecture)");
		return 0;
	}
	fo_bytes = (try_fn)dlsym(h, "fo_bytes");
	fo_missing = (try_fn)dlsym(h, "fo_missing");
#ifdef __x86_64__
	fo_trapnr = (size_t (*)(void *, const void *, size_t, unsigned *))dlsym(h, "fo_trapnr");
#endif
	CHECK(fo_bytes && fo_missing, "the routines are not in libfault_object.so");
	if (!fo_bytes || !fo_missing)
		return check_exit();

	expect_segv("fault objects: before registering, a fault in the routine kills",
		    in_child(never_registered));

	int n = ucopy_fault_register((void *)fo_bytes);
	CHECK(n == OBJECT_SITES, "register: %d sites (errno %d), want %d", n, errno, OBJECT_SITES);
	CHECK(ucopy_fault_installed(), "the handler is not installed");
	CHECK(ucopy_fault_register((void *)fo_bytes) == OBJECT_SITES, "again: not the same count");
	CHECK(ucopy_fault_register((void *)fo_missing) == OBJECT_SITES,
	      "another address in the object: not the same count");
	check_group("fault objects: register counts the sites, once however often");

	test_matrix(0);
	unsigned char buf[64];
	CHECK(ucopy_try(buf, unreadable, 64) == 64, "ucopy_try's own faults no longer recovered");
	check_group("fault objects: fo_bytes, source and destination faults at every offset "
		    "(n 0..130), the count exact; ucopy_try's own as before");
#ifdef __x86_64__
	test_matrix(1);
	check_group("fault objects: UCOPY_EX_TRAPNR hands the fixup eax = 14, the counts exact");
#else
	check_skip("fault objects: UCOPY_EX_TRAPNR", "x86-64's type (refused here: the EINVAL group)");
#endif
	test_sigbus();

	expect_segv("fault objects: after unregister, a fault in the routine kills (a child)",
		    in_child(after_unregister));
	expect_segv("fault objects: a store left out of the table kills (a child)",
		    in_child(missing_store));

	test_errors();
	test_full();
	test_stale();

	char tmp[] = "/tmp/ucopy-objects-XXXXXX", from[4200], path[TWINS][4200];
	void *twin[TWINS] = { NULL }, *fn[TWINS];
	int loaded = 0;
	snprintf(from, sizeof from, "%s/libfault_object.so", dir);
	if (mkdtemp(tmp))
		for (; loaded < TWINS; loaded++) {
			snprintf(path[loaded], sizeof path[loaded], "%s/twin%d.so", tmp, loaded);
			if (copy_file(from, path[loaded]) != 0 ||
			    !(twin[loaded] = dlopen(path[loaded], RTLD_NOW | RTLD_LOCAL)))
				break;
			fn[loaded] = dlsym(twin[loaded], "fo_bytes");
		}
	if (loaded == TWINS) {
		test_held_reader(fn[0]);
		test_race(fn);
	}
	else
		check_skip("fault objects: registration racing with faults", "cannot load copies");
	for (int i = 0; i < TWINS; i++) {
		if (twin[i])
			dlclose(twin[i]);
		unlink(path[i]);
	}
	rmdir(tmp);
	CHECK(ucopy_fault_unregister((void *)fo_bytes) == 0, "the last unregister failed");
	CHECK(ucopy_fault_unregister((void *)fo_bytes) == -1 && errno == ENOENT,
	      "unregister twice: want -1/ENOENT");
	check_group("fault objects: unregister, then ENOENT");
	dlclose(h);
	return check_exit();
}
