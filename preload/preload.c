/*
 * preload.c - libucopy-preload.so: with LD_PRELOAD, a dynamically linked
 * program's memcpy, memmove, mempcpy and their _FORTIFY_SOURCE forms become
 * ucopy's, under the policy the library resolves at first use (UCOPY_POLICY,
 * else the profile, else auto: include/ucopy.h, "Environment").
 *
 * libucopy is linked in statically and only the six entries are exported
 * (preload/preload.map), so a program that also links libucopy.so keeps its
 * own library state.
 *
 * Environment read by the interposer itself (docs/trace.md):
 *   UCOPY_PRELOAD_NO_INHERIT  when "1": this process keeps the interposer,
 *                             but it is taken out of LD_PRELOAD so that the
 *                             programs it executes run without it
 *                             (`ucopy run --no-inherit`).
 *   UCOPY_TRACE_OUT           a path prefix: every copy is recorded, and at
 *                             exit the process writes PREFIX.<pid>.seq, or
 *                             PREFIX.<pid>.<k>.seq when a process of the
 *                             same pid wrote that, each first as NAME.tmp
 *                             (`ucopy trace` merges them).
 *   UCOPY_TRACE_CAP           records kept per thread before sampling
 *                             (at most 16777216).
 *   UCOPY_PRELOAD_NOTIFY      FD:INODE, a pipe the command left open: the
 *                             constructor writes a byte to it, closes it
 *                             and removes the variable, so that the command
 *                             learns that the interposer loaded.
 *
 * Re-entry: the `libc` kernel calls memcpy by name, and that name is this
 * file's; the Makefile links that call to ucopy_libc_memcpy (below), the C
 * library's function found by the constructor, so no policy makes ucopy
 * call itself, and the copy that is not recorded is ucopy's alone.  While
 * recording, a copy that arrives while the same thread is inside the
 * recorder, the constructor or the exit writer goes to the C library's
 * function (or to a byte loop before the constructor found it), so that no
 * record is nested: that covers the recorder's own calls and a loop of this
 * file that the compiler turns into a memcpy call (the byte loops store
 * through volatile pointers, which no compiler turns into a call), and a
 * signal handler that copies while its thread is recording.  The copy
 * itself is outside that guard: ucopy never copies through these entries,
 * and a signal handler that leaves a copy by siglongjmp (a fault in it)
 * must not leave the thread's later copies unrecorded.  One that leaves
 * the recorder so does: its thread's later copies are the C library's,
 * unrecorded.
 *
 * While recording, SIGINT, SIGTERM and SIGHUP that the program left at their
 * default write the record before the process dies by them (a server is
 * traced by stopping it).  sigaction, signal, bsd_signal and sigset are
 * wrapped so that the program sees SIG_DFL there, as it would without
 * ucopy, and a handler it installs replaces the interposer's.  The memcpy
 * entries are overlap-safe, as glibc's is in practice: a program that copies
 * between overlapping buffers gets memmove's result, not a corruption the C
 * library never showed it.
 */
#define _GNU_SOURCE
#include "ucopy.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))
/* Static TLS: no __tls_get_addr, which may allocate, on the copy path. */
#define TLS __thread __attribute__((tls_model("initial-exec")))

/* What tells the command (programs/core/child.c, is_interposer) that a file
 * is this interposer and not just any shared library, which ld.so would
 * preload without a word while the program ran without ucopy: an ELF note,
 * owner "ucopy", type 1, no descriptor.  A .note section is SHT_NOTE, and
 * the linker puts it in a PT_NOTE segment, which the command reads. */
__attribute__((used, section(".note.ucopy"), aligned(4)))
static const struct {
	uint32_t namesz, descsz, type;
	char name[8];
} interposer_note = { 6, 0, 1, "ucopy" };

extern void __chk_fail(void) __attribute__((noreturn));
/* glibc's, which <string.h> declares only under _FORTIFY_SOURCE. */
void *__memcpy_chk(void *restrict dst, const void *restrict src, size_t n,
		   size_t destlen);
void *__memmove_chk(void *dst, const void *src, size_t n, size_t destlen);
void *__mempcpy_chk(void *restrict dst, const void *restrict src, size_t n,
		    size_t destlen);

typedef void *copy_fn(void *, const void *, size_t);

static copy_fn *libc_memcpy, *libc_memmove;
static TLS unsigned depth;

/* Before the constructor found the C library's functions.  The loops are
 * volatile so that the compiler cannot turn them back into memcpy calls. */
static void *bytes_forward(void *dst, const void *src, size_t n)
{
	volatile unsigned char *d = dst;
	const unsigned char *s = src;
	for (size_t i = 0; i < n; i++)
		d[i] = s[i];
	return dst;
}

static void *bytes_move(void *dst, const void *src, size_t n)
{
	volatile unsigned char *d = dst;
	const unsigned char *s = src;
	if ((uintptr_t)d - (uintptr_t)s >= n)
		return bytes_forward(dst, src, n);
	while (n--)
		d[n] = s[n];
	return dst;
}

static void *inner_memcpy(void *dst, const void *src, size_t n)
{
	copy_fn *f = __atomic_load_n(&libc_memcpy, __ATOMIC_RELAXED);
	return f ? f(dst, src, n) : bytes_forward(dst, src, n);
}

static void *inner_memmove(void *dst, const void *src, size_t n)
{
	copy_fn *f = __atomic_load_n(&libc_memmove, __ATOMIC_RELAXED);
	return f ? f(dst, src, n) : bytes_move(dst, src, n);
}

/*=====   Recording   =====*/

/* One record: size (saturated at 2^40-1), src mod 64, dst mod 64,
 * (dst - src) mod 4096, packed in 64 bits. */
#define REC_SIZE_MAX ((1ull << 40) - 1)
#define DEFAULT_CAP (1u << 22)
/* A file with more calls is refused by the reader: must match SEQ_MAX_CALLS
 * in programs/core/sequence.h.  It also keeps cap * 8 far from overflow. */
#define MAX_CAP ((uint64_t)1 << 24)
#define HUGE_FROM ((size_t)2 << 20)
/* Records a thread holds in its slot of the shared arena before it needs a
 * mapping of its own: most threads of a program with thousands copy a few
 * times, and a mapping each (two with the huge-page advice) ran into
 * vm.max_map_count (65530) at about 32K threads. */
#define SLOT_RECS 256
#define ARENA_BYTES ((size_t)4 << 20)

/* 64-byte aligned, so that no two threads' counters share a cache line. */
struct thread_rec {
	struct thread_rec *next;
	uint64_t first_ns;     /* CLOCK_MONOTONIC at the thread's first copy */
	uint64_t calls;        /* every copy of the thread */
	uint64_t n;            /* records held */
	uint64_t every;        /* one call in `every` is recorded (a power of 2) */
	uint64_t *rec;         /* slot, or the thread's own mapping of trace_cap */
	uint64_t room;         /* records rec holds */
	long tid;
	unsigned idx;          /* in order of first copy in this process */
	unsigned grow_failed;  /* sampled within the slot: no mapping to be had */
	/* At exit: the records written and the thread's index in the file
	 * (threads still starting then are left out, and the rest numbered
	 * without a gap). */
	uint64_t out_n;
	unsigned out_idx;
	uint64_t slot[SLOT_RECS];
} __attribute__((aligned(64)));

/* Thread records are carved from 4 MiB arenas, each linked to the one it
 * replaced, so that the forked child can unmap them all. */
struct arena {
	struct arena *next;
	size_t used;
} __attribute__((aligned(64)));

enum { TRACE_UNKNOWN, TRACE_OFF, TRACE_ON };
static int trace_state;
static char trace_prefix[4096];
static uint64_t trace_cap = DEFAULT_CAP;
static struct thread_rec *threads;   /* pushed without a lock */
static unsigned nthreads;
static struct arena *arena_cur;
static TLS struct thread_rec *mine;
/* A thread that found no memory for its records does not try again on
 * every call (each an mmap): its calls are counted, for the file to say. */
static TLS unsigned char no_room;
static uint64_t lost_calls;
static unsigned lost_threads;

/* 0 for anything but a number that fits: a value that wrapped would size the
 * record space with it. */
static uint64_t parse_u64(const char *s)
{
	uint64_t v = 0;
	if (!s || !*s)
		return 0;
	for (; *s >= '0' && *s <= '9'; s++) {
		uint64_t d = (uint64_t)(*s - '0');
		if (v > (UINT64_MAX - d) / 10)
			return 0;
		v = v * 10 + d;
	}
	return *s ? 0 : v;
}

/* getenv neither allocates nor copies: safe from the first copy on. */
static void trace_init(void)
{
	const char *p = getenv("UCOPY_TRACE_OUT");
	size_t i = 0;
	if (p && *p) {
		for (; p[i] && i < sizeof trace_prefix - 1; i++)
			trace_prefix[i] = p[i];
		trace_prefix[i] = 0;
		uint64_t cap = parse_u64(getenv("UCOPY_TRACE_CAP"));
		if (cap >= 2)
			trace_cap = cap < MAX_CAP ? cap : MAX_CAP;
	}
	__atomic_store_n(&trace_state, p && *p && !p[i] ? TRACE_ON : TRACE_OFF,
			 __ATOMIC_RELEASE);
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* mmap, not malloc: the copy may come from inside malloc, or from a signal
 * handler.  Pages are only touched as records fill them. */
static void *map_anon(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

/* Lock-free: a thread that loses the race for a new arena unmaps its own. */
static struct thread_rec *slot_new(void)
{
	const size_t sz = sizeof(struct thread_rec);
	for (;;) {
		struct arena *a = __atomic_load_n(&arena_cur, __ATOMIC_ACQUIRE);
		if (a) {
			size_t off = __atomic_fetch_add(&a->used, sz, __ATOMIC_RELAXED);
			if (off + sz <= ARENA_BYTES)
				return (struct thread_rec *)((char *)a + off);
		}
		struct arena *b = map_anon(ARENA_BYTES);
		if (!b)
			return NULL;
		b->next = a;
		b->used = sizeof *b;
		if (!__atomic_compare_exchange_n(&arena_cur, &a, b, 0, __ATOMIC_RELEASE,
						 __ATOMIC_RELAXED))
			munmap(b, ARENA_BYTES);
	}
}

static struct thread_rec *thread_rec_new(void)
{
	struct thread_rec *t = slot_new();
	if (!t)
		return NULL;
	t->rec = t->slot;
	t->room = trace_cap < SLOT_RECS ? trace_cap : SLOT_RECS;
	t->first_ns = now_ns();
	t->every = 1;
	t->tid = syscall(SYS_gettid);
	t->idx = __atomic_fetch_add(&nthreads, 1, __ATOMIC_RELAXED);
	t->next = __atomic_load_n(&threads, __ATOMIC_RELAXED);
	while (!__atomic_compare_exchange_n(&threads, &t->next, t, 1,
					    __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		;
	return t;
}

/* Past the slot, the thread's own mapping of trace_cap records; without one,
 * the slot is its cap. */
static void thread_rec_grow(struct thread_rec *t)
{
	size_t len = trace_cap * sizeof(uint64_t);
	uint64_t *r = map_anon(len);
	if (!r) {
		t->grow_failed = 1;
		return;
	}
	/* A page fault every 512 records was most of the recording's cost
	 * (docs/trace.md); huge pages take one per 256K.  Not for the first
	 * 2 MiB: a thread that copies a few thousand times must not hold a
	 * huge page.  The advice splits the mapping in two VMAs: a thread
	 * past its slot takes two of vm.max_map_count, where one within its
	 * slot shares a 4 MiB arena's one with about 1,900 others. */
	if (len > HUGE_FROM)
		madvise((char *)r + HUGE_FROM, len - HUGE_FROM, MADV_HUGEPAGE);
	inner_memcpy(r, t->rec, t->n * sizeof(uint64_t));
	t->rec = r;
	t->room = trace_cap;
}

/* Past the cap, every other record goes and the stride doubles: what is held
 * is always every k-th call of the thread, evenly over its whole life. */
static void thread_rec_halve(struct thread_rec *t)
{
	for (uint64_t i = 0; 2 * i < t->n; i++)
		t->rec[i] = t->rec[2 * i];
	t->n = (t->n + 1) / 2;
	t->every *= 2;
}

static void record(const void *dst, const void *src, size_t n)
{
	struct thread_rec *t = mine;
	if (!t) {
		if (!no_room)
			t = mine = thread_rec_new();
		if (!t) {
			if (!no_room)
				__atomic_fetch_add(&lost_threads, 1, __ATOMIC_RELAXED);
			no_room = 1;
			__atomic_fetch_add(&lost_calls, 1, __ATOMIC_RELAXED);
			return;
		}
	}
	uint64_t call = t->calls++;
	if (call & (t->every - 1))
		return;
	if (t->n == t->room && t->room < trace_cap && !t->grow_failed)
		thread_rec_grow(t);
	if (t->n == t->room)
		thread_rec_halve(t);
	if (call & (t->every - 1))
		return;
	uint64_t size = n > REC_SIZE_MAX ? REC_SIZE_MAX : n;
	uintptr_t s = (uintptr_t)src, d = (uintptr_t)dst;
	t->rec[t->n++] = size << 24 | (uint64_t)(s & 63) << 18 |
			 (uint64_t)(d & 63) << 12 | ((d - s) & 4095);
}

static inline void maybe_record(const void *dst, const void *src, size_t n)
{
	int st = __atomic_load_n(&trace_state, __ATOMIC_ACQUIRE);
	if (__builtin_expect(st == TRACE_OFF, 1))
		return;
	if (st == TRACE_UNKNOWN) {
		trace_init();
		if (__atomic_load_n(&trace_state, __ATOMIC_RELAXED) != TRACE_ON)
			return;
	}
	record(dst, src, n);
}

/*=====   Writing the records at exit   =====*/

/* Appends s at d[at], returns the new end; d is sized by the caller. */
static size_t str_at(char *d, size_t at, const char *s)
{
	while (*s)
		d[at++] = *s++;
	d[at] = 0;
	return at;
}

static size_t u64_at(char *d, size_t at, uint64_t v)
{
	char tmp[24];
	int i = sizeof tmp - 1;
	tmp[i] = 0;
	do
		tmp[--i] = (char)('0' + v % 10);
	while (v /= 10);
	return str_at(d, at, tmp + i);
}

struct out {
	int fd;
	int err;               /* errno of the first failure, or 0 */
	size_t len;
	char buf[1 << 16];
};

static void out_flush(struct out *o)
{
	size_t off = 0;
	while (off < o->len && !o->err) {
		ssize_t w = write(o->fd, o->buf + off, o->len - off);
		if (w > 0)
			off += (size_t)w;
		else if (w == 0)
			o->err = EIO;
		else if (errno != EINTR)
			o->err = errno;
	}
	o->len = 0;
}

static void out_str(struct out *o, const char *s)
{
	for (; *s; s++) {
		if (o->len == sizeof o->buf)
			out_flush(o);
		o->buf[o->len++] = *s;
	}
}

static void out_u64(struct out *o, uint64_t v)
{
	char tmp[24];
	u64_at(tmp, 0, v);
	out_str(o, tmp);
}

/* The error's text without strerror's translation, which may allocate: the
 * record is also written from a signal handler. */
static const char *error_text(int err)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 32))
	const char *e = strerrordesc_np(err);
	return e ? e : "unknown error";
#else
	return strerror(err);
#endif
}

/* One line, one write(2): the program's own stderr may be a pipe that other
 * processes of the trace write to. */
static void report_failure_text(const char *path, const char *e)
{
	static char msg[sizeof trace_prefix + 256];
	size_t at = str_at(msg, 0, "ucopy trace: cannot write ");
	at = str_at(msg, at, path);
	at = str_at(msg, at, ": ");
	for (; *e && at < sizeof msg - 2; e++)
		msg[at++] = *e;
	msg[at++] = '\n';
	while (write(2, msg, at) < 0 && errno == EINTR)
		;
}

static void report_failure(const char *path, int err)
{
	report_failure_text(path, error_text(err));
}

/* The NAME.failed marker, made without a descriptor: a process out of
 * them (EMFILE), or one that could not create its .tmp, still tells the
 * merge that its record is missing for a reason stderr gave.  mkdir, not
 * a file: it needs no descriptor, and the merge counts either by name. */
static void mark_failed(const char *final)
{
	static char failed[sizeof trace_prefix + 96];
	for (unsigned k = 0; k < 100; k++) {
		size_t at = str_at(failed, 0, final);
		if (k) {
			at = str_at(failed, at, ".");
			at = u64_at(failed, at, k);
		}
		str_at(failed, at, ".failed");
		if (mkdir(failed, 0700) == 0 || errno != EEXIST)
			return;
	}
}

/* PREFIX.<pid>.seq, or PREFIX.<pid>.<k>.seq (k = 1, 2, ...) when that is
 * taken: pids repeat (every PID namespace has its pid 1, and long traces
 * wrap), and a later process must not overwrite an earlier one's records.
 * The file is written as its final name + ".tmp" and renamed when
 * complete, so that a merge never reads half of one.  A name is ours once
 * its .tmp is created with O_EXCL and the final name is not there: no
 * other process can then make the final name, which takes holding the
 * .tmp.  Returns the .tmp's descriptor, or -1 with errno. */
#define MAX_SUFFIX 100000
static int claim_file(char *final, char *tmp)
{
	for (unsigned k = 0; k < MAX_SUFFIX; k++) {
		size_t at = str_at(final, 0, trace_prefix);
		at = str_at(final, at, ".");
		at = u64_at(final, at, (uint64_t)getpid());
		if (k) {
			at = str_at(final, at, ".");
			at = u64_at(final, at, k);
		}
		at = str_at(final, at, ".seq");
		str_at(tmp, str_at(tmp, 0, final), ".tmp");
		int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd < 0 && errno != EEXIST)
			return -1;
		if (fd < 0)
			continue;
		if (access(final, F_OK) != 0)
			return fd;
		close(fd);
		unlink(tmp);
	}
	errno = EEXIST;
	return -1;
}

/* The process's own sequence file: thread indices in order of first copy
 * in this process, and for each thread one "# thread" line that
 * `ucopy trace` reads to merge processes (docs/trace.md).  A file that
 * could not be written whole is emptied and left as NAME.failed, for the
 * merge to know that stderr already said why (a full disk must not read as
 * a process that recorded nothing), or removed when even that fails. */
static void trace_write(void)
{
	static struct out o;
	static char final[sizeof trace_prefix + 64], tmp[sizeof final + 8],
		failed[sizeof final + 8];
	struct out *op = &o;
	o.len = 0;
	o.err = 0;
	o.fd = claim_file(final, tmp);
	if (o.fd < 0) {
		int e = errno;
		/* The directory `ucopy trace` made is gone: it merged and
		 * ended before this process did (a daemon, or a child that
		 * outlived the program by more than trace waits). */
		if (e == ENOENT)
			report_failure_text(final, "the trace ended before this process did "
					    "(its directory is gone): record not written");
		else {
			report_failure(final, e);
			mark_failed(final);
		}
		return;
	}
	unsigned n = __atomic_load_n(&nthreads, __ATOMIC_ACQUIRE);
	out_str(op, "# ucopy sequence 1\n# process ");
	out_u64(op, (uint64_t)getpid());
	out_str(op, ", recorded by libucopy-preload.so\n");
	/* The list is in reverse order of arrival, not of idx (threads race to
	 * push): an index built in one pass, not a walk of the list per idx,
	 * which took 6.8 s at 5,000 threads and 436 s at 20,000.  Threads
	 * that arrived after n was read are left out. */
	size_t ilen = ((size_t)n * sizeof(struct thread_rec *) + 4095) & ~(size_t)4095;
	struct thread_rec **by_idx = n ? map_anon(ilen) : NULL;
	if (n && !by_idx)
		o.err = errno;
	for (struct thread_rec *t = __atomic_load_n(&threads, __ATOMIC_ACQUIRE); t; t = t->next)
		if (t->idx < n)
			by_idx[t->idx] = t;
	unsigned written = 0;
	for (unsigned k = 0; k < n && by_idx; k++) {
		struct thread_rec *t = by_idx[k];
		if (!t || !(t->out_n = t->n))
			continue;
		t->out_idx = written++;
		out_str(op, "# thread ");
		out_u64(op, t->out_idx);
		out_str(op, " pid ");
		out_u64(op, (uint64_t)getpid());
		out_str(op, " tid ");
		out_u64(op, (uint64_t)t->tid);
		out_str(op, " first_ns ");
		out_u64(op, t->first_ns);
		out_str(op, " calls ");
		out_u64(op, t->calls);
		out_str(op, " every ");
		out_u64(op, t->every);
		out_str(op, "\n");
		if (t->grow_failed) {
			out_str(op, "# thread ");
			out_u64(op, t->out_idx);
			out_str(op, ": no memory for more than its first ");
			out_u64(op, t->room);
			out_str(op, " records: sampled within them\n");
		}
	}
	uint64_t lost = __atomic_load_n(&lost_calls, __ATOMIC_RELAXED);
	if (lost) {
		out_str(op, "# lost: ");
		out_u64(op, lost);
		out_str(op, " calls of ");
		unsigned lt = __atomic_load_n(&lost_threads, __ATOMIC_RELAXED);
		out_u64(op, lt);
		out_str(op, lt == 1 ? " thread that found no memory for its records\n"
			: " threads that found no memory for their records\n");
	}
	for (unsigned k = 0; k < n && by_idx && !o.err; k++) {
		struct thread_rec *t = by_idx[k];
		if (!t)
			continue;
		for (uint64_t r = 0; r < t->out_n; r++) {
			uint64_t v = t->rec[r];
			out_u64(op, t->out_idx);
			out_str(op, " ");
			out_u64(op, v >> 24);
			out_str(op, " ");
			out_u64(op, v >> 18 & 63);
			out_str(op, " ");
			out_u64(op, v >> 12 & 63);
			out_str(op, " ");
			out_u64(op, v & 4095);
			out_str(op, "\n");
		}
	}
	if (by_idx)
		munmap(by_idx, ilen);
	out_flush(op);
	/* The space a full disk took is given back before the marker's
	 * rename needs any. */
	int trunc = o.err ? ftruncate(o.fd, 0) : 0;
	(void)trunc;   /* the file goes below in any case */
	/* close's error is the write's on NFS; its EINTR leaves the
	 * descriptor closed on Linux, so it is not retried. */
	if (close(o.fd) != 0 && !o.err && errno != EINTR)
		o.err = errno;
	if (!o.err && rename(tmp, final) != 0)
		o.err = errno;
	if (o.err) {
		report_failure(final, o.err);
		str_at(failed, str_at(failed, 0, final), ".failed");
		if (rename(tmp, failed) != 0) {
			unlink(tmp);
			mark_failed(final);
		}
	}
}

/* The record is written once, by the first of the destructor and a stopping
 * signal's handler; the other waits for it, so that the process does not
 * die, or exit, halfway through the file. */
enum { REC_NONE, REC_WRITING, REC_DONE };
static int rec_state;

static void trace_write_once(void)
{
	int none = REC_NONE;
	if (!__atomic_compare_exchange_n(&rec_state, &none, REC_WRITING, 0, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		const struct timespec ms = { 0, 1000000 };
		while (__atomic_load_n(&rec_state, __ATOMIC_ACQUIRE) != REC_DONE)
			nanosleep(&ms, NULL);
		return;
	}
	depth++;
	trace_write();
	/* Copies after this point are not recorded: the file is written. */
	__atomic_store_n(&trace_state, TRACE_OFF, __ATOMIC_RELEASE);
	depth--;
	__atomic_store_n(&rec_state, REC_DONE, __ATOMIC_RELEASE);
}

/* What ends a server that is being traced: ^C, kill, a closed terminal. */
static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
#define NSTOP (sizeof stop_signals / sizeof stop_signals[0])

static void stop_mask(sigset_t *set)
{
	sigemptyset(set);
	for (size_t i = 0; i < NSTOP; i++)
		sigaddset(set, stop_signals[i]);
}

static int stop_index(int sig)
{
	for (size_t i = 0; i < NSTOP; i++)
		if (stop_signals[i] == sig)
			return (int)i;
	return -1;
}

/* The C library's sigaction: this file exports its own (below), which the
 * interposer must not go through to install or remove its handler.  glibc's
 * __sigaction is public and needs no lookup, so it is safe in a signal
 * handler and before the constructor ran; elsewhere the lookup is made at
 * the first call (the constructor makes it before any handler exists). */
typedef int sigaction_fn(int, const struct sigaction *, struct sigaction *);
#ifdef __GLIBC__
extern int __sigaction(int, const struct sigaction *, struct sigaction *);
static int real_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	return __sigaction(sig, act, old);
}
#else
static sigaction_fn *libc_sigaction;
static int real_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	sigaction_fn *f = __atomic_load_n(&libc_sigaction, __ATOMIC_ACQUIRE);
	if (!f) {
		f = (sigaction_fn *)dlsym(RTLD_NEXT, "sigaction");
		if (!f) {
			errno = ENOSYS;
			return -1;
		}
		__atomic_store_n(&libc_sigaction, f, __ATOMIC_RELEASE);
	}
	return f(sig, act, old);
}
#endif

/* While the stop handler is installed for stop_signals[i], owned[i] is set
 * and shown[i] is the action the program inherited (SIG_DFL), which it is
 * shown in place of the interposer's: a program that installs its handler
 * only over SIG_DFL (Python's KeyboardInterrupt, a shell's traps) must
 * behave as it does without ucopy. */
static int owned[NSTOP];
static struct sigaction shown[NSTOP];

/* Only async-signal-safe calls below trace_write_once (write, open,
 * rename, mmap, nanosleep; the error text untranslated).  The signal,
 * blocked while its handler runs, is raised again with its default action:
 * the process dies by it when the handler returns, and its parent sees the
 * status it would have seen without the interposer. */
static void on_stop_signal(int sig)
{
	int e = errno;
	trace_write_once();
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigemptyset(&dfl.sa_mask);
	int i = stop_index(sig);
	if (i >= 0)
		__atomic_store_n(&owned[i], 0, __ATOMIC_RELEASE);
	real_sigaction(sig, &dfl, NULL);
	raise(sig);
	errno = e;
}

/* Only where the program inherited the default action: an ignored signal
 * stays ignored (nohup, a background job's SIGINT), and a program that
 * installs its own handler replaces this one and ends, if it does, by exit,
 * which writes the record as usual. */
static void catch_stop_signals(void)
{
	struct sigaction sa = { .sa_handler = on_stop_signal, .sa_flags = SA_RESTART };
	stop_mask(&sa.sa_mask);
	for (size_t i = 0; i < NSTOP; i++) {
		struct sigaction cur;
		if (real_sigaction(stop_signals[i], NULL, &cur) == 0 &&
		    !(cur.sa_flags & SA_SIGINFO) && cur.sa_handler == SIG_DFL) {
			shown[i] = cur;
			__atomic_store_n(&owned[i], 1, __ATOMIC_RELEASE);
			if (real_sigaction(stop_signals[i], &sa, NULL) != 0)
				__atomic_store_n(&owned[i], 0, __ATOMIC_RELEASE);
		}
	}
}

/* The program's sigaction: for a stop signal the interposer holds, a query
 * gets the action it replaced, SIG_DFL set again keeps the record written
 * on the way out (it is what SIG_DFL means under trace), and anything else
 * takes the signal over, the interposer letting it go. */
EXPORT int sigaction(int sig, const struct sigaction *restrict act,
		     struct sigaction *restrict old)
{
	int i = stop_index(sig);
	if (i < 0 || !__atomic_load_n(&owned[i], __ATOMIC_ACQUIRE))
		return real_sigaction(sig, act, old);
	struct sigaction prev = shown[i];
	if (act && !(act->sa_flags & SA_SIGINFO) && act->sa_handler == SIG_DFL)
		shown[i] = *act;
	else if (act) {
		__atomic_store_n(&owned[i], 0, __ATOMIC_RELEASE);
		if (real_sigaction(sig, act, NULL) != 0) {
			int e = errno;
			__atomic_store_n(&owned[i], 1, __ATOMIC_RELEASE);
			errno = e;
			return -1;
		}
	}
	if (old)
		*old = prev;
	return 0;
}

typedef void (*handler_t)(int);
typedef handler_t handler_fn(int, handler_t);

static handler_fn *libc_fn(handler_fn **cache, const char *name)
{
	handler_fn *f = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
	if (!f) {
		f = (handler_fn *)dlsym(RTLD_NEXT, name);
		__atomic_store_n(cache, f, __ATOMIC_RELEASE);
	}
	return f;
}

/* signal() with the C library's BSD semantics (SA_RESTART, the signal held
 * while its handler runs), for a stop signal the interposer holds; the C
 * library's own otherwise (it calls its internal sigaction, not ours). */
static handler_t take_over(int sig, handler_t h)
{
	struct sigaction sa = { .sa_handler = h, .sa_flags = SA_RESTART }, old;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, sig);
	return sigaction(sig, &sa, &old) == 0 ? old.sa_handler : SIG_ERR;
}

static handler_fn *libc_signal, *libc_bsd_signal, *libc_sigset;

/* signal() and bsd_signal(): the program's new handler takes over a stop
 * signal the interposer holds, else the C library's function `name`. */
static handler_t installing(int sig, handler_t h, handler_fn **slot, const char *name)
{
	int i = stop_index(sig);
	if (i >= 0 && __atomic_load_n(&owned[i], __ATOMIC_ACQUIRE))
		return take_over(sig, h);
	handler_fn *f = libc_fn(slot, name);
	if (!f) {
		errno = ENOSYS;
		return SIG_ERR;
	}
	return f(sig, h);
}

EXPORT handler_t signal(int sig, handler_t h)
{
	return installing(sig, h, &libc_signal, "signal");
}

/* Declared by <signal.h> only for the older X/Open levels. */
handler_t bsd_signal(int sig, handler_t h);
EXPORT handler_t bsd_signal(int sig, handler_t h)
{
	return installing(sig, h, &libc_bsd_signal, "bsd_signal");
}

/* System V's sigset also unblocks the signal, or (SIG_HOLD) blocks it: the
 * C library does that, over the interposer's handler given up first (a
 * SIG_DFL set so ends the record-then-die); what it returns as the old
 * disposition is the program's view. */
EXPORT handler_t sigset(int sig, handler_t h)
{
	handler_fn *f = libc_fn(&libc_sigset, "sigset");
	if (!f) {
		errno = ENOSYS;
		return SIG_ERR;
	}
	int i = stop_index(sig);
	handler_t view = i >= 0 ? shown[i].sa_handler : SIG_DFL;
	if (i >= 0 && h != SIG_HOLD)
		__atomic_store_n(&owned[i], 0, __ATOMIC_RELEASE);
	handler_t r = f(sig, h);
	return r == on_stop_signal ? view : r;
}

/* A forked child starts with no records: the parent's are the parent's to
 * write.  Only the forking thread lives on in the child.  The stop signals
 * are held from before the fork until the records are reset: one that
 * landed in the child before would have its handler write the parent's
 * records under the child's pid, or walk arenas being unmapped. */
static TLS sigset_t fork_mask;

static void fork_prepare(void)
{
	sigset_t stop;
	stop_mask(&stop);
	pthread_sigmask(SIG_BLOCK, &stop, &fork_mask);
}

static void fork_parent(void)
{
	pthread_sigmask(SIG_SETMASK, &fork_mask, NULL);
}

static void trace_after_fork(void)
{
	for (struct thread_rec *t = threads; t; t = t->next)
		if (t->rec != t->slot)
			munmap(t->rec, trace_cap * sizeof(uint64_t));
	for (struct arena *a = arena_cur, *next; a; a = next) {
		next = a->next;
		munmap(a, ARENA_BYTES);
	}
	arena_cur = NULL;
	threads = NULL;
	nthreads = 0;
	mine = NULL;
	no_room = 0;
	lost_calls = 0;
	lost_threads = 0;
	rec_state = REC_NONE;
	pthread_sigmask(SIG_SETMASK, &fork_mask, NULL);
}

/*=====   Setup   =====*/

/* Takes every LD_PRELOAD entry that names this object out of the variable,
 * in place (the string only shrinks). */
static void drop_from_ld_preload(void)
{
	Dl_info info;
	char *v = getenv("LD_PRELOAD");
	if (!v || !dladdr((void *)drop_from_ld_preload, &info) || !info.dli_fname)
		return;
	const char *self = strrchr(info.dli_fname, '/');
	self = self ? self + 1 : info.dli_fname;
	char *w = v;
	for (char *r = v; *r;) {
		while (*r == ' ' || *r == ':')
			r++;
		char *e = r;
		while (*e && *e != ' ' && *e != ':')
			e++;
		const char *base = r;
		for (char *c = r; c < e; c++)
			if (*c == '/')
				base = c + 1;
		size_t blen = (size_t)(e - base);
		int is_self = blen == strlen(self) && !strncmp(base, self, blen);
		if (e > r && !is_self) {
			if (w != v)
				*w++ = ':';
			while (r < e)
				*w++ = *r++;
		}
		r = e;
	}
	*w = 0;
	if (!*v)
		unsetenv("LD_PRELOAD");
}

/* UCOPY_PRELOAD_NOTIFY=FD:INODE: the command waits for a byte on that pipe
 * to know that the program did not run without ucopy (a static or setuid
 * one ignores LD_PRELOAD).  The first process of the program's tree that
 * loads the interposer answers; its descendants do not see the variable.
 * The inode tells the pipe from whatever a program that closed it opened
 * at that number since; the command made it non-blocking, so that a full
 * pipe cannot stop a program. */
static void notify_loaded(void)
{
	const char *v = getenv("UCOPY_PRELOAD_NOTIFY");
	if (!v)
		return;
	char num[24];
	size_t i = 0;
	for (; v[i] && v[i] != ':' && i < sizeof num - 1; i++)
		num[i] = v[i];
	num[i] = 0;
	uint64_t fd = parse_u64(num), ino = v[i] == ':' ? parse_u64(v + i + 1) : 0;
	struct stat st;
	if (ino && fd > 2 && fd < INT32_MAX && fstat((int)fd, &st) == 0 &&
	    S_ISFIFO(st.st_mode) && (uint64_t)st.st_ino == ino) {
		ssize_t w = write((int)fd, "1", 1);
		(void)w;
		close((int)fd);
	}
	unsetenv("UCOPY_PRELOAD_NOTIFY");
}

__attribute__((constructor)) static void preload_init(void)
{
	depth++;
	copy_fn *f = (copy_fn *)dlsym(RTLD_NEXT, "memcpy");
	copy_fn *m = (copy_fn *)dlsym(RTLD_NEXT, "memmove");
	__atomic_store_n(&libc_memcpy, f, __ATOMIC_RELAXED);
	__atomic_store_n(&libc_memmove, m, __ATOMIC_RELAXED);
	const char *ni = getenv("UCOPY_PRELOAD_NO_INHERIT");
	if (ni && !strcmp(ni, "1")) {
		drop_from_ld_preload();
		unsetenv("UCOPY_PRELOAD_NO_INHERIT");
	}
	notify_loaded();
	if (__atomic_load_n(&trace_state, __ATOMIC_ACQUIRE) == TRACE_UNKNOWN)
		trace_init();
	if (trace_state == TRACE_ON) {
		pthread_atfork(fork_prepare, fork_parent, trace_after_fork);
		catch_stop_signals();
	}
	depth--;
}

/* The stopping signals are held off this thread while it writes: their
 * handler here would wait for the write it interrupted.  One that arrives
 * meanwhile is delivered after, and the process dies by it, as it would
 * have. */
__attribute__((destructor)) static void preload_fini(void)
{
	if (__atomic_load_n(&trace_state, __ATOMIC_ACQUIRE) != TRACE_ON)
		return;
	sigset_t stop, old;
	stop_mask(&stop);
	pthread_sigmask(SIG_BLOCK, &stop, &old);
	trace_write_once();
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/*=====   The entries   =====*/

/* The libc kernel's memcpy (the Makefile links lib/kernel.c's call to
 * memcpy here): the C library's, not this file's, so that UCOPY_POLICY=libc
 * is glibc's copy and no policy can make ucopy call itself. */
__attribute__((visibility("hidden"))) void *ucopy_libc_memcpy(void *dst, const void *src,
							      size_t n);
void *ucopy_libc_memcpy(void *dst, const void *src, size_t n)
{
	return inner_memcpy(dst, src, n);
}

/* Not recording (once the first copy has looked): the copy is ucopy's and
 * nothing else, a tail call.  With the re-entry count around it and a
 * second call, `ucopy run` added 1.45 ns to each of tests/copy_loop.c's
 * 1-64 byte copies (3.30 against glibc's 1.84-2.17 ns; Zen 5 class, AMD
 * family 26 model 2, under KVM).  Nothing on that path copies through
 * these entries: the library never calls memcpy, and its libc kernel calls
 * ucopy_libc_memcpy. */
static inline int plain(void)
{
	return __builtin_expect(__atomic_load_n(&trace_state, __ATOMIC_RELAXED) == TRACE_OFF, 1);
}

static __attribute__((noinline)) void *traced_memcpy(void *dst, const void *src, size_t n)
{
	if (depth)
		return inner_memcpy(dst, src, n);
	depth++;
	maybe_record(dst, src, n);
	depth--;
	return ucopy_memcpy(dst, src, n);
}

static __attribute__((noinline)) void *traced_memmove(void *dst, const void *src, size_t n)
{
	if (depth)
		return inner_memmove(dst, src, n);
	depth++;
	maybe_record(dst, src, n);
	depth--;
	return ucopy_memmove(dst, src, n);
}

static inline void *move(void *dst, const void *src, size_t n)
{
	return plain() ? ucopy_memmove(dst, src, n) : traced_memmove(dst, src, n);
}

/* Overlapping buffers (undefined for memcpy, and common in old code) get
 * memmove's result, as they do from glibc, whose memcpy is its memmove:
 * from 513 bytes on (auto, on docs/trace.md's machine) ucopy's kernels
 * store in an order that overlap in either direction breaks, and a latent
 * bug must not become corruption under `ucopy run` alone (ucopy_memcpy
 * itself keeps memcpy's contract).  Either direction in one
 * compare: dst - src in [-n, n), which also takes dst + n == src, adjacent,
 * that memmove copies as well; 2n cannot wrap for a size that fits in an
 * address space. */
static inline int overlap(const void *dst, const void *src, size_t n)
{
	return (uintptr_t)dst - (uintptr_t)src + n < 2 * n;
}

static inline void *copy(void *dst, const void *src, size_t n)
{
	if (__builtin_expect(overlap(dst, src, n), 0))
		return move(dst, src, n);
	return plain() ? ucopy_memcpy(dst, src, n) : traced_memcpy(dst, src, n);
}

EXPORT void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	return copy(dst, src, n);
}

EXPORT void *memmove(void *dst, const void *src, size_t n)
{
	return move(dst, src, n);
}

EXPORT void *mempcpy(void *restrict dst, const void *restrict src, size_t n)
{
	return (char *)copy(dst, src, n) + n;
}

/* The _FORTIFY_SOURCE forms: destlen is what the compiler knows of the
 * destination's size; a copy past it ends as glibc's does. */
EXPORT void *__memcpy_chk(void *restrict dst, const void *restrict src,
			  size_t n, size_t destlen)
{
	if (n > destlen)
		__chk_fail();
	return copy(dst, src, n);
}

EXPORT void *__memmove_chk(void *dst, const void *src, size_t n, size_t destlen)
{
	if (n > destlen)
		__chk_fail();
	return move(dst, src, n);
}

EXPORT void *__mempcpy_chk(void *restrict dst, const void *restrict src,
			   size_t n, size_t destlen)
{
	if (n > destlen)
		__chk_fail();
	return (char *)copy(dst, src, n) + n;
}
