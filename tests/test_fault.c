/*
 * test_fault.c - the fault-tolerant copy contract (include/ucopy.h, rules 1-7)
 * for every fault-capable kernel, for `libc` (replaced by a fault-capable
 * kernel) and for the active policy through ucopy_try()/ucopy_from().
 *
 * Faults are made with mprotect'ed pages and a truncated file mapping; the
 * chaining rules are checked in child processes, since their failure mode is
 * the death of the process.
 */
#define _GNU_SOURCE
#include "check.h"
#include "internal.h"
#include "ucopy.h"

#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define GUARD 0xAA

static size_t page;

struct variant {
	char name[48];
	struct ucopy_policy policy;
	int active;   /* 1: ucopy_try(), the active policy; 2: ucopy_try_sigsafe() */
};

static struct variant variants[32];
static int nvariants;

static size_t try_copy(const struct variant *v, void *dst, const void *src, size_t n)
{
	if (v->active == 2)
		return ucopy_try_sigsafe(dst, src, n);
	return v->active ? ucopy_try(dst, src, n) : ucopy_policy_try(&v->policy, dst, src, n);
}

static unsigned char pattern(size_t i)
{
	unsigned char c = (unsigned char)((i * 131 + 7) % 251);
	return c == GUARD ? 0x55 : c;
}

static void setup_variants(void)
{
	uint64_t features = ucopy_cpu()->features;
	for (size_t i = 0; i < ucopy_kernel_count(); i++) {
		const struct ucopy_kernel *k = ucopy_kernel_at(i);
		if (!ucopy_kernel_supported(k, features)) {
			char name[64];
			snprintf(name, sizeof name, "fault %s", k->name);
			check_skip(name, "the CPU cannot run this kernel");
			continue;
		}
		struct variant *v = &variants[nvariants++];
		char err[128];
		snprintf(v->name, sizeof v->name, "%s", k->name);
		if (ucopy_policy_resolve(&v->policy, k->name, features, err, sizeof err)) {
			printf("  cannot resolve kernel %s: %s\n", k->name, err);
			nvariants--;
		}
	}
	struct variant *v = &variants[nvariants++];
	snprintf(v->name, sizeof v->name, "ucopy_try (active policy)");
	v->active = 1;
}

/* SIGSEGV and SIGBUS blocked (how = 1) or not (0) in the calling thread. */
static void block_faults(int how)
{
	sigset_t m;
	sigemptyset(&m);
	sigaddset(&m, SIGSEGV);
	sigaddset(&m, SIGBUS);
	pthread_sigmask(how ? SIG_BLOCK : SIG_UNBLOCK, &m, NULL);
}

/* Checks one result against the contract: r == expect, dst[0..n-r) copied,
 * every other byte of [lo, hi) still GUARD. */
static void check_result(const char *what, size_t n, size_t off, size_t r,
			 size_t expect, const unsigned char *dst,
			 const unsigned char *src, const unsigned char *lo,
			 const unsigned char *hi)
{
	CHECK(r == expect, "%s n=%zu off=%zu: returned %zu, expected %zu", what, n, off, r, expect);
	if (r > n)
		return;
	size_t done = n - r;
	for (size_t i = 0; i < done; i++)
		if (dst[i] != src[i]) {
			CHECK(0, "%s n=%zu off=%zu: dst[%zu]=%#x, src has %#x", what, n, off,
			      i, dst[i], src[i]);
			break;
		}
	for (const unsigned char *p = lo; p < hi; p++) {
		if (p >= dst && p < dst + done)
			continue;
		if (*p != GUARD) {
			CHECK(0, "%s n=%zu off=%zu: byte at dst%+td written (%#x)", what, n,
			      off, p - dst, *p);
			break;
		}
	}
}

/* Offsets from the page edge to try for a copy of n bytes: all the small
 * ones, those around n (where the fault moves past the end), and a spread. */
static int next_offset(size_t n, size_t off)
{
	if (off < 40)
		return (int)off + 1;
	if (off + 41 < n)
		return (int)(off + 7 < n - 40 ? off + 7 : n - 40);
	return off < n + 8 ? (int)off + 1 : -1;
}

/* Source readable up to a page end, PROT_NONE after: the copy of n bytes
 * starting `off` bytes before the end faults at offset off. */
static void test_source_end(const struct variant *v)
{
	unsigned char *m = check_map(3 * page, PROT_NONE);
	unsigned char *rd = m + page;
	mprotect(rd, page, PROT_READ | PROT_WRITE);
	for (size_t i = 0; i < page; i++)
		rd[i] = pattern(i);
	mprotect(rd, page, PROT_READ);
	unsigned char buf[300 + 2 * 64];

	for (size_t n = 0; n <= 300; n++)
		for (int o = 0; o >= 0; o = next_offset(n, (size_t)o)) {
			size_t off = (size_t)o;
			const unsigned char *src = rd + page - off;
			unsigned char *dst = buf + 64 - (off & 7);
			memset(buf, GUARD, sizeof buf);
			size_t r = try_copy(v, dst, src, n);
			check_result("source end", n, off, r, n > off ? n - off : 0, dst, src,
				     buf, buf + sizeof buf);
		}
	/* Longer copies whose source runs t bytes into the inaccessible page:
	 * the large classes.  Which load faults first differs by kernel
	 * (avx512 loads its last 256 bytes before its loop; test_large()'s
	 * hole is where avx2's and avx512's loads a block ahead fault); the result may not. */
	static unsigned char big[2100 + 2 * 64];
	for (size_t n = 257; n <= 2100; n += 97)
		for (size_t t = 1; t < n; t += 29) {
			const unsigned char *src = rd + page - (n - t);
			unsigned char *dst = big + 64 - (t & 7);
			memset(big, GUARD, sizeof big);
			size_t r = try_copy(v, dst, src, n);
			check_result("source end, long", n, n - t, r, t, dst, src, big,
				     big + sizeof big);
		}
	/* The source starts inside the inaccessible page before: nothing. */
	for (size_t n = 1; n <= 300; n += 3)
		for (size_t off = 1; off <= 70; off += 3) {
			memset(buf, GUARD, sizeof buf);
			size_t r = try_copy(v, buf + 64, rd - off, n);
			check_result("source start", n, off, r, n, buf + 64, rd - off, buf,
				     buf + sizeof buf);
		}
	unsigned char *copy = malloc(page);
	for (size_t i = 0; i < page; i++)
		copy[i] = pattern(i);
	CHECK(memcmp(copy, rd, page) == 0, "the source was modified");
	free(copy);
	munmap(m, 3 * page);
}

/* Destination writable up to a page end; the next page PROT_NONE or
 * read-only. */
static void test_dest_end(const struct variant *v, int next_prot)
{
	unsigned char *m = check_map(3 * page, PROT_NONE);
	unsigned char *wr = m + page;
	mprotect(wr, page, PROT_READ | PROT_WRITE);
	if (next_prot != PROT_NONE) {
		mprotect(wr + page, page, PROT_READ | PROT_WRITE);
		memset(wr + page, GUARD, page);
		mprotect(wr + page, page, next_prot);
	}
	unsigned char src[400];
	for (size_t i = 0; i < sizeof src; i++)
		src[i] = pattern(i);
	const char *what = next_prot == PROT_NONE ? "dest end (PROT_NONE)" : "dest end (read-only)";

	for (size_t n = 0; n <= 300; n++)
		for (int o = 0; o >= 0; o = next_offset(n, (size_t)o)) {
			size_t off = (size_t)o;
			unsigned char *dst = wr + page - off;
			const unsigned char *s = src + (off & 15);
			unsigned char *lo = dst - 64 > wr ? dst - 64 : wr;
			memset(lo, GUARD, (size_t)(wr + page - lo));
			size_t r = try_copy(v, dst, s, n);
			check_result(what, n, off, r, n > off ? n - off : 0, dst, s, lo, wr + page);
		}
	/* Longer copies that run 1..255 bytes into the next page: the vector
	 * loops' tails (avx512's and avx2's aligned page tails) fault there.
	 * Each from a source inside one page and from one that ends 1..63
	 * bytes into the next page, where avx512's last line is stored from
	 * the end. */
	unsigned char *sb = check_map(2 * page, PROT_READ | PROT_WRITE);
	for (size_t i = 0; i < 2 * page; i++)
		sb[i] = pattern(i);
	for (size_t n = 257; n <= 2100; n += 97)
		for (size_t t = 1; t <= 255; t += 9)
			for (int edge = 0; edge < 2; edge++) {
				size_t off = n - t;
				unsigned char *dst = wr + page - off;
				const unsigned char *s = edge ? sb + page + 1 + t % 63 - n
							      : sb + (t & 15);
				unsigned char *lo = dst - 64 > wr ? dst - 64 : wr;
				memset(lo, GUARD, (size_t)(wr + page - lo));
				size_t r = try_copy(v, dst, s, n);
				check_result(what, n, off, r, t, dst, s, lo, wr + page);
			}
	munmap(sb, 2 * page);
	if (next_prot != PROT_NONE)
		for (size_t i = 0; i < page; i++)
			if (wr[page + i] != GUARD) {
				CHECK(0, "%s: the read-only page changed", what);
				break;
			}
	munmap(m, 3 * page);
}

/* Large copies with one inaccessible page inside the source or the
 * destination: the fault lands in the middle of a rep movsb or a vector loop. */
static void test_large(const struct variant *v)
{
	static const size_t sizes[] = { 4096, 5000, 65536, 1 << 20, 4 << 20 };
	static const size_t aligns[][2] = { { 0, 0 }, { 1, 0 }, { 0, 33 }, { 17, 5 }, { 63, 63 } };
	for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
		for (size_t ai = 0; ai < sizeof aligns / sizeof *aligns; ai++)
			for (int in_dst = 0; in_dst < 2; in_dst++) {
				size_t n = sizes[si];
				size_t len = (n / page + 3) * page;
				unsigned char *s = check_map(len, PROT_READ | PROT_WRITE);
				unsigned char *d = check_map(len, PROT_READ | PROT_WRITE);
				unsigned char *src = s + aligns[ai][0], *dst = d + aligns[ai][1];
				for (size_t i = 0; i < n; i++)
					src[i] = pattern(i);
				memset(d, GUARD, len);
				/* The hole: the page holding byte n/2 (or n-1 for
				 * the smallest sizes, so both ends get tested). */
				unsigned char *base = in_dst ? dst : src;
				size_t at = n <= 5000 ? n - 1 : n / 2;
				unsigned char *hole = (unsigned char *)(((uintptr_t)(base + at)) & ~(page - 1));
				mprotect(hole, page, PROT_NONE);
				size_t k = (size_t)(hole - base);
				size_t r = try_copy(v, dst, src, n);
				char what[64];
				snprintf(what, sizeof what, "large, hole in %s, align %zu/%zu",
					 in_dst ? "dst" : "src", aligns[ai][0], aligns[ai][1]);
				if (in_dst) {
					mprotect(hole, page, PROT_READ | PROT_WRITE);
					/* The hole itself was never written. */
					memset(hole, GUARD, page);
				}
				check_result(what, n, k, r, n - k, dst, src, d, d + len);
				munmap(s, len);
				munmap(d, len);
			}
}

/* SIGBUS: a shared file mapping cut short by ftruncate under the reader,
 * through ucopy_try/ucopy_from or (sigsafe) their signal-free forms with
 * SIGSEGV and SIGBUS blocked. */
static void test_sigbus(int sigsafe)
{
	size_t (*try_fn)(void *, const void *, size_t) = sigsafe ? ucopy_try_sigsafe : ucopy_try;
	size_t (*from_fn)(void *, const void *, size_t) = sigsafe ? ucopy_from_sigsafe : ucopy_from;
	char path[] = "/tmp/ucopy-test-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0) {
		check_skip("fault sigbus", "cannot create a temporary file");
		return;
	}
	unlink(path);
	size_t len = 4 * page;
	unsigned char *data = malloc(len);
	for (size_t i = 0; i < len; i++)
		data[i] = pattern(i);
	if (write(fd, data, len) != (ssize_t)len) {
		check_skip("fault sigbus", "cannot write the temporary file");
		close(fd);
		free(data);
		return;
	}
	unsigned char *m = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	CHECK(m != MAP_FAILED, "mmap: %s", strerror(errno));
	/* 1.5 pages remain: the page holding the new end still reads (zeros
	 * past it), the pages after it raise SIGBUS. */
	CHECK(ftruncate(fd, page + page / 2) == 0, "ftruncate: %s", strerror(errno));
	unsigned char *dst = malloc(len);
	memset(dst, GUARD, len);
	block_faults(sigsafe);
	size_t r = try_fn(dst, m, len);
	CHECK(r == len - 2 * page, "ucopy_try over a truncated mapping returned %zu, expected %zu",
	      r, len - 2 * page);
	CHECK(memcmp(dst, data, page + page / 2) == 0, "the bytes before the end differ");
	for (size_t i = page + page / 2; i < 2 * page; i++)
		if (dst[i] != 0) {
			CHECK(0, "byte %zu past the file end is %#x, not 0", i, dst[i]);
			break;
		}
	for (size_t i = 2 * page; i < len; i++)
		if (dst[i] != GUARD) {
			CHECK(0, "ucopy_try wrote byte %zu after the fault", i);
			break;
		}
	memset(dst, GUARD, len);
	r = from_fn(dst, m + 100, len - 100);
	block_faults(0);
	CHECK(r == len - 2 * page, "ucopy_from returned %zu, expected %zu", r, len - 2 * page);
	for (size_t i = 2 * page - 100; i < len - 100; i++)
		if (dst[i] != 0) {
			CHECK(0, "ucopy_from did not zero-fill byte %zu", i);
			break;
		}
	CHECK(dst[len - 100] == GUARD, "ucopy_from wrote past n");
	munmap(m, len);
	close(fd);
	free(dst);
	free(data);
	check_group(sigsafe ? "fault sigbus: truncated file mapping (ucopy_try_sigsafe, "
			      "ucopy_from_sigsafe, SIGSEGV and SIGBUS blocked)"
			    : "fault sigbus: truncated file mapping (ucopy_try, ucopy_from)");
}

/* ucopy_from zero-fills exactly the part not copied. */
static void test_from(void)
{
	unsigned char *m = check_map(2 * page, PROT_READ | PROT_WRITE);
	for (size_t i = 0; i < page; i++)
		m[i] = pattern(i);
	mprotect(m + page, page, PROT_NONE);
	unsigned char buf[256];
	for (size_t n = 0; n <= 200; n++)
		for (size_t off = 0; off <= n + 2; off += 5) {
			memset(buf, GUARD, sizeof buf);
			size_t r = ucopy_from(buf, m + page - off, n);
			size_t expect = n > off ? n - off : 0;
			CHECK(r == expect, "ucopy_from n=%zu off=%zu returned %zu", n, off, r);
			for (size_t i = n - r; i < n; i++)
				if (buf[i] != 0) {
					CHECK(0, "ucopy_from n=%zu off=%zu: byte %zu not zeroed", n, off, i);
					break;
				}
			CHECK(memcmp(buf, m + page - off, n - r) == 0, "ucopy_from copied wrong bytes");
			CHECK(buf[n] == GUARD, "ucopy_from wrote past n");
		}
	munmap(m, 2 * page);
	check_group("fault ucopy_from zero-fills the rest");
}

/* Faults from a non-canonical or unmapped pointer (an untrusted pointer). */
static void test_wild_pointers(void)
{
	unsigned char buf[64];
	static const uintptr_t wild[] = { 0, 8, 0x8000000000000000ull, 0xffff800000000000ull,
					  0x00007ffffffff000ull };
	for (size_t i = 0; i < sizeof wild / sizeof *wild; i++) {
		memset(buf, GUARD, sizeof buf);
		size_t r = ucopy_try(buf, (const void *)wild[i], 48);
		CHECK(r == 48, "ucopy_try from %#lx returned %zu", (unsigned long)wild[i], r);
		CHECK(buf[0] == GUARD, "ucopy_try from %#lx wrote the destination", (unsigned long)wild[i]);
		r = ucopy_try((void *)wild[i], buf, 48);
		CHECK(r == 48, "ucopy_try to %#lx returned %zu", (unsigned long)wild[i], r);
		r = ucopy_try_sigsafe(buf, (const void *)wild[i], 48);
		CHECK(r == 48, "ucopy_try_sigsafe from %#lx returned %zu", (unsigned long)wild[i], r);
		CHECK(buf[0] == GUARD, "ucopy_try_sigsafe from %#lx wrote the destination",
		      (unsigned long)wild[i]);
		r = ucopy_try_sigsafe((void *)wild[i], buf, 48);
		CHECK(r == 48, "ucopy_try_sigsafe to %#lx returned %zu", (unsigned long)wild[i], r);
		/* Zero bytes touch nothing, whatever the pointers (memcpy(d,
		 * NULL, 0) is common); tests/bench_zero.c times them. */
		r = ucopy_try(buf, (const void *)wild[i], 0);
		CHECK(r == 0, "ucopy_try of 0 bytes from %#lx returned %zu", (unsigned long)wild[i], r);
		r = ucopy_try((void *)wild[i], buf, 0);
		CHECK(r == 0, "ucopy_try of 0 bytes to %#lx returned %zu", (unsigned long)wild[i], r);
		void *d = ucopy_memcpy(buf, (const void *)wild[i], 0);
		CHECK(d == buf, "ucopy_memcpy of 0 bytes from %#lx returned %p", (unsigned long)wild[i], d);
		d = ucopy_memcpy((void *)wild[i], buf, 0);
		CHECK(d == (void *)wild[i], "ucopy_memcpy of 0 bytes to %#lx returned %p",
		      (unsigned long)wild[i], d);
		CHECK(buf[0] == GUARD, "a copy of 0 bytes from %#lx wrote the destination",
		      (unsigned long)wild[i]);
	}
	check_group("fault wild pointers (NULL, non-canonical, unmapped; ucopy_try, ucopy_try_sigsafe; 0 bytes)");
}

/* Many threads faulting at once: the flag and the handler are per thread. */
struct thread_arg {
	unsigned char *page_end;   /* readable up to here */
	unsigned seed;
	long iterations;
	long failures;
	int sigsafe;   /* ucopy_try_sigsafe with SIGSEGV and SIGBUS blocked */
};

static void *thread_main(void *p)
{
	struct thread_arg *a = p;
	unsigned char dst[160];
	unsigned s = a->seed;
	block_faults(a->sigsafe);
	for (long i = 0; i < a->iterations; i++) {
		s = s * 1103515245u + 12345u;
		size_t n = (s >> 8) % 128;
		size_t off = (s >> 20) % 192;   /* off >= n: no fault */
		memset(dst, GUARD, sizeof dst);
		size_t r = a->sigsafe ? ucopy_try_sigsafe(dst, a->page_end - off, n)
				      : ucopy_try(dst, a->page_end - off, n);
		size_t expect = n > off ? n - off : 0;
		if (r != expect || memcmp(dst, a->page_end - off, n - r) != 0 ||
		    dst[n - r] != GUARD)
			a->failures++;
	}
	return NULL;
}

static void test_threads(int sigsafe)
{
	long iterations = 100000;
	const char *scale = getenv("UCOPY_TEST_THREAD_ITERATIONS");
	if (scale)
		iterations = atol(scale);
	if (sigsafe)
		iterations /= 10;   /* a system call or more each */
	unsigned char *m = check_map(2 * page, PROT_READ | PROT_WRITE);
	for (size_t i = 0; i < page; i++)
		m[i] = pattern(i);
	mprotect(m + page, page, PROT_NONE);
	pthread_t t[8];
	struct thread_arg args[8];
	for (int i = 0; i < 8; i++) {
		args[i] = (struct thread_arg){ m + page, 1234u + (unsigned)i, iterations, 0, sigsafe };
		pthread_create(&t[i], NULL, thread_main, &args[i]);
	}
	long failures = 0;
	for (int i = 0; i < 8; i++) {
		pthread_join(t[i], NULL);
		failures += args[i].failures;
	}
	CHECK(failures == 0, "%ld of %ld copies wrong", failures, 8 * iterations);
	munmap(m, 2 * page);
	char name[128];
	snprintf(name, sizeof name, "fault 8 threads x %ld faulting and clean copies%s", iterations,
		 sigsafe ? " (ucopy_try_sigsafe, SIGSEGV and SIGBUS blocked)" : "");
	check_group(name);
}

/* The three matrices for one variant, as one check group each. */
static void run_matrix(const struct variant *v, const char *where)
{
	char name[160];
	test_source_end(v);
	snprintf(name, sizeof name, "fault %.48s%s: source faults (end, start)", v->name, where);
	check_group(name);
	test_dest_end(v, PROT_NONE);
	test_dest_end(v, PROT_READ);
	snprintf(name, sizeof name, "fault %.48s%s: destination faults (PROT_NONE, read-only)",
		 v->name, where);
	check_group(name);
	test_large(v);
	snprintf(name, sizeof name, "fault %.48s%s: large copies with a hole", v->name, where);
	check_group(name);
}

static const struct variant *in_handler_variant;

CHECK_HANDLER static void matrix_handler(int sig)
{
	(void)sig;
	run_matrix(in_handler_variant, ", in a handler that blocks SIGSEGV and SIGBUS");
}

/* ucopy_try_sigsafe over the same matrix: as it is, with SIGSEGV and SIGBUS
 * blocked, and inside a SIGUSR1 handler whose sa_mask blocks them. */
static void test_sigsafe(void)
{
	struct variant v = { "ucopy_try_sigsafe", { 0 }, 2 };
	run_matrix(&v, "");
	block_faults(1);
	run_matrix(&v, ", SIGSEGV and SIGBUS blocked");
	block_faults(0);
	struct sigaction sa, old;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = matrix_handler;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGSEGV);
	sigaddset(&sa.sa_mask, SIGBUS);
	sigaction(SIGUSR1, &sa, &old);
	in_handler_variant = &v;
	raise(SIGUSR1);
	sigaction(SIGUSR1, &old, NULL);
}

/* process_vm_readv refused, as under qemu-user (ENOSYS) or a seccomp
 * filter: a child installs such a filter and runs ucopy_try_sigsafe's
 * matrix, which then goes through the pipe.  Its lines are printed by the
 * child; the parent counts a child that died. */
static int refuse_process_vm_readv(int err)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_process_vm_readv, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ((unsigned)err & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof f / sizeof f[0], f };
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

/* Through the pipe, valid memory moves a pipe's capacity at a time: a
 * transfer short of the whole rest of the copy (the pipe's 64 KiB of 4 MiB)
 * once counted as a fault, and the rest went in 4 KiB pieces, about a
 * thousand transfers.  The bound allows the 8 KiB pipes of a user past
 * fs.pipe-user-pages-soft. */
static void test_pipe_chunks(void)
{
	size_t n = (size_t)4 << 20;
	unsigned char *a = check_map(n, PROT_READ | PROT_WRITE);
	unsigned char *b = check_map(n, PROT_READ | PROT_WRITE);
	for (size_t i = 0; i < n; i++)
		a[i] = (unsigned char)(i * 7 + 1);
	unsigned long before = ucopy_nosignal_moves;
	size_t r = ucopy_try_sigsafe(b, a, n);
	unsigned long moves = ucopy_nosignal_moves - before;
	CHECK(r == 0 && !memcmp(a, b, n), "4 MiB through the pipe: %zu not copied", r);
	CHECK(moves <= n / 8192 + 1, "4 MiB through the pipe took %lu transfers (at most %zu)",
	      moves, n / 8192 + 1);
	munmap(a, n);
	munmap(b, n);
	check_group("fault ucopy_try_sigsafe through a pipe: valid memory in whole pipefuls");
}

static void test_sigsafe_pipe(void)
{
	static const int errs[] = { ENOSYS, EPERM };
	for (size_t e = 0; e < sizeof errs / sizeof *errs; e++) {
		fflush(stdout);
		pid_t pid = fork();
		if (pid == 0) {
			if (refuse_process_vm_readv(errs[e]) != 0) {
				check_skip("fault ucopy_try_sigsafe through a pipe",
					   "no seccomp filter here");
				_exit(0);
			}
			errno = 0;
			if (syscall(SYS_process_vm_readv, (long)getpid(), NULL, 0L, NULL, 0L, 0L) != -1 ||
			    errno != errs[e]) {
				printf("FAIL fault ucopy_try_sigsafe through a pipe: the filter did not "
				       "refuse process_vm_readv\n");
				_exit(1);
			}
			struct variant v = { "", { 0 }, 2 };
			snprintf(v.name, sizeof v.name, "ucopy_try_sigsafe, process_vm_readv %s",
				 errs[e] == ENOSYS ? "ENOSYS" : "EPERM");
			block_faults(1);
			run_matrix(&v, "");
			block_faults(0);
			test_sigbus(1);
			test_pipe_chunks();
			_exit(check_exit());
		}
		int st = 0;
		waitpid(pid, &st, 0);
		CHECK(WIFEXITED(st), "the child died: status %#x", st);
	}
	check_group("fault ucopy_try_sigsafe through a pipe: the children lived");
}

/* A mapping that get_user_pages refuses though loads from it work ([vvar]):
 * ucopy_try_sigsafe copies it as a load would. */
static void test_sigsafe_vvar(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	unsigned long lo = 0, hi = 0;
	while (f && fgets(line, sizeof line, f))
		if (strstr(line, "[vvar]") && sscanf(line, "%lx-%lx", &lo, &hi) == 2)
			break;
	if (f)
		fclose(f);
	if (!lo || hi - lo < 64) {
		check_skip("fault ucopy_try_sigsafe from [vvar]", "no [vvar] mapping here");
		return;
	}
	unsigned char buf[64], want[64];
	const volatile unsigned char *v = (const volatile unsigned char *)lo;
	/* The first page may hold a clock that moves: compare bytes that do
	 * not, by taking the copy between two reads that agree. */
	size_t r = 0;
	int same = 0;
	for (int tries = 0; tries < 100 && !same; tries++) {
		for (size_t i = 0; i < sizeof want; i++)
			want[i] = v[i];
		r = ucopy_try_sigsafe(buf, (const void *)lo, sizeof buf);
		same = memcmp(buf, want, sizeof buf) == 0;
	}
	CHECK(r == 0, "ucopy_try_sigsafe from [vvar] returned %zu, a load reads it", r);
	CHECK(same, "the bytes differ from a load's");
	check_group("fault ucopy_try_sigsafe from [vvar] (loads work, pinning does not)");
}

int main(void)
{
	page = (size_t)sysconf(_SC_PAGESIZE);
	setvbuf(stdout, NULL, _IOLBF, 0);
	CHECK(!ucopy_fault_installed(), "handler installed before any fault-tolerant call");
	/* Before anything installs ucopy's handler: the signal-free copy
	 * must not need it. */
	test_sigsafe();
	test_sigsafe_pipe();
	test_sigsafe_vvar();
	CHECK(!ucopy_fault_installed(), "ucopy_try_sigsafe installed the handler");
	check_group("fault ucopy_try_sigsafe needs no handler");
	setup_variants();
	for (int i = 0; i < nvariants; i++)
		run_matrix(&variants[i], "");
	/* Where the port has try bodies; without one there is no handler
	 * and ucopy_try copies without signals (the matrix above). */
	if (ucopy_kernel_fault_capable(ucopy_kernel_at(0))->try_fn) {
		CHECK(ucopy_fault_installed(), "first use did not install the handler");
		check_group("fault first use installs the handler");
	} else {
		errno = 0;
		CHECK(!ucopy_fault_installed() && ucopy_fault_init() == -1 && errno == ENOSYS,
		      "without a port: installed %d, errno %d", ucopy_fault_installed(), errno);
		check_group("fault without a port: no handler, ucopy_fault_init fails with ENOSYS");
	}
	test_from();
	test_sigbus(0);
	test_sigbus(1);
	test_wild_pointers();
	test_threads(0);
	test_threads(1);
	return check_exit();
}
