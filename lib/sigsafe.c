/*
 * sigsafe.c - the fault-tolerant copy that needs no signal.
 *
 * Assumptions: Linux; protection is per page (mprotect, munmap and a file
 * cut short by ftruncate all act on whole pages).
 *
 * ucopy_try() recovers a fault through its SIGSEGV/SIGBUS handler, so it
 * cannot help a thread in which those signals are blocked: Linux delivers a
 * blocked synchronous fault by killing the process.  This copy lets the
 * kernel touch the memory instead.  process_vm_readv() on the own process
 * copies src into dst and stops at the first page it cannot read or write,
 * returning the count copied; it is one system call for the whole range.
 * Where it is missing (ENOSYS under qemu-user, EPERM under a seccomp
 * filter), a pipe does the same in two calls per chunk: write() from src
 * fails with EFAULT at an unreadable page, read() into dst at an unwritable
 * one.  The pipe also has the last word on a page process_vm_readv cannot
 * pin though loads from it work (VM_IO and VM_PFNMAP mappings).  Either way the kernel's partial counts are not trusted to the byte:
 * from the first short transfer on, the copy goes on in pieces that cross
 * no page boundary of src or dst, each of which moves whole or not at all,
 * so the first byte that fails is found exactly.
 *
 * Async-signal-safe: system calls only, errno preserved, nothing allocated.
 */
#define _GNU_SOURCE
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

/* The movers copy up to n bytes and return how many they copied, 0 when
 * the first byte failed, or -1 when the mechanism itself is unavailable. */
struct mover {
	int fd[2];      /* the pipe, made on first need, or -1 */
	size_t cap;     /* what the pipe holds */
	int no_vm;      /* process_vm_readv refused */
};

/* The smallest page Linux uses: pieces never cross a boundary of it, so
 * they cannot cross one of a larger page either. */
#define PIECE_ALIGN 4096

/* process_vm_readv moves at most about 2 GiB a call. */
#define VM_CHUNK ((size_t)1 << 30)

static size_t piece(uintptr_t d, uintptr_t s, size_t n)
{
	size_t a = PIECE_ALIGN - (d & (PIECE_ALIGN - 1));
	size_t b = PIECE_ALIGN - (s & (PIECE_ALIGN - 1));
	size_t m = a < b ? a : b;
	return m < n ? m : n;
}

static long vm_move(void *dst, const void *src, size_t n)
{
	struct iovec local = { dst, n };
	struct iovec remote = { (void *)src, n };
	long r = syscall(SYS_process_vm_readv, (long)getpid(), &local, 1L,
			 &remote, 1L, 0L);
	if (r >= 0)
		return r;
	return errno == EFAULT ? 0 : -1;
}

/* Through the pipe, at most its capacity at a time.  The pipe is
 * non-blocking: one that holds less than asked (a user past
 * fs.pipe-user-pages-soft gets 8 KiB pipes) takes what it holds, and the
 * rest goes in the next round, instead of a write() that waits for ever. */
static long pipe_move(struct mover *m, void *dst, const void *src, size_t n)
{
	if (m->fd[0] < 0) {
		if (pipe2(m->fd, O_CLOEXEC | O_NONBLOCK) != 0)
			return -1;
		int cap = fcntl(m->fd[0], F_GETPIPE_SZ);
		m->cap = cap > 0 ? (size_t)cap : PIECE_ALIGN;
	}
	if (n > m->cap)
		n = m->cap;
	ssize_t w;
	do
		w = write(m->fd[1], src, n);
	while (w < 0 && errno == EINTR);
	if (w <= 0)
		return w < 0 && errno != EFAULT ? -1 : 0;
	size_t got = 0;
	while (got < (size_t)w) {
		ssize_t r = read(m->fd[0], (char *)dst + got, (size_t)w - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			/* dst failed: drop what is left in the pipe, so the
			 * next piece starts clean. */
			char sink[256];
			for (size_t left = (size_t)w - got; left;) {
				ssize_t k = read(m->fd[0], sink, left < sizeof sink ? left : sizeof sink);
				if (k <= 0)
					break;
				left -= (size_t)k;
			}
			break;
		}
		got += (size_t)r;
	}
	return (long)got;
}

/* Transfers made, for tests/test_fault.c (internal.h). */
unsigned long ucopy_nosignal_moves;

/* One transfer of up to n bytes: process_vm_readv while it works, the pipe
 * when it is refused.  A piece it finds unreadable is tried once more
 * through the pipe before it counts as a fault: process_vm_readv pins
 * pages, which a VM_IO or VM_PFNMAP mapping (a device's, [vvar]) refuses
 * though loads from it work, and write() reads it as a load does.  *tried
 * is how much the mechanism that answered took on. */
static long move(struct mover *m, void *dst, const void *src, size_t n, int exact,
		 size_t *tried)
{
	long r = -1;
	__atomic_fetch_add(&ucopy_nosignal_moves, 1, __ATOMIC_RELAXED);
	if (!m->no_vm) {
		*tried = n > VM_CHUNK ? VM_CHUNK : n;
		r = vm_move(dst, src, *tried);
		if (r < 0)
			m->no_vm = 1;
		else if (r > 0 || !exact)
			return r;
	}
	long p = pipe_move(m, dst, src, n);
	if (p >= 0)
		*tried = n > m->cap ? m->cap : n;
	return p < 0 ? r : p;
}

/* Copies what it can from the start; returns the count copied, or -1 when
 * it had no way to.  A transfer short of what the mechanism took on (a
 * call's cap, the pipe's capacity) is a fault: from there, page pieces.
 * (Short of the whole rest, it once sent every copy past 1 GiB, or past
 * the pipe's 64 KiB, on in 4 KiB pieces: 65537 system calls for 1.25 GiB.) */
static long copy_exact(struct mover *m, char *dst, const char *src, size_t n)
{
	size_t done = 0;
	int exact = 0;   /* after the first short transfer: page pieces */
	while (done < n) {
		size_t want = exact ? piece((uintptr_t)(dst + done), (uintptr_t)(src + done), n - done)
				    : n - done;
		size_t tried = want;
		long r = move(m, dst + done, src + done, want, exact, &tried);
		if (r < 0)
			return done ? (long)done : -1;
		done += (size_t)r;
		if ((size_t)r < tried) {
			if (exact && r == 0)
				break;
			exact = 1;
		}
	}
	return (long)done;
}

size_t ucopy_copy_nosignal(void *dst, const void *src, size_t n)
{
	/* process_vm_readv refused once (ENOSYS, EPERM): the pipe from then
	 * on. */
	static int no_vm;
	struct mover m = { { -1, -1 }, 0, __atomic_load_n(&no_vm, __ATOMIC_RELAXED) };

	if (n == 0)
		return 0;
	int saved = errno;
	long done = copy_exact(&m, dst, src, n);
	if (m.no_vm)
		__atomic_store_n(&no_vm, 1, __ATOMIC_RELAXED);
	if (m.fd[0] >= 0) {
		close(m.fd[0]);
		close(m.fd[1]);
	}
	errno = saved;
	/* No mechanism at all (no process_vm_readv, no file descriptor
	 * left): nothing was copied, and the count says so. */
	return done < 0 ? n : n - (size_t)done;
}

size_t ucopy_try_sigsafe(void *dst, const void *src, size_t n)
{
	return ucopy_copy_nosignal(dst, src, n);
}

size_t ucopy_from_sigsafe(void *dst, const void *src, size_t n)
{
	size_t left = ucopy_try_sigsafe(dst, src, n);
	for (char *p = (char *)dst + (n - left), *e = (char *)dst + n; p < e; p++)
		*p = 0;
	return left;
}
