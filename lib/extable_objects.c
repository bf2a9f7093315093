/*
 * extable_objects.c - the fault sites of other objects: the exception tables
 * that shared objects and programs carry for copy routines of their own
 * (<ucopy-asm.h>), registered with ucopy_fault_register().
 *
 * A table is a run of ELF notes in a PT_NOTE segment, each naming one
 * instruction and its fixup as offsets from the note itself; registering
 * reads them through the object's program headers, checks every one,
 * and publishes them to the handler as a sorted array of absolute
 * addresses, one array per object in a fixed set of slots.  The handler
 * reads the slots without a lock; unregistering empties a slot and waits
 * for every handler that may still read the old array before freeing it
 * (two counts of readers, in the manner of the Linux kernel's SRCU), so
 * that no handler ever reads freed memory and none uses the object once
 * the call returns.  docs/design.md, "Fault sites of other objects".
 */
#define _GNU_SOURCE
#include "arch.h"
#include "ucopy-asm.h"

#include <errno.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

struct site {
	uintptr_t insn;
	uintptr_t fixup;
	unsigned type;
};

/* What the handler reads: one object's sites, sorted by instruction. */
struct object_table {
	uintptr_t lo, hi;   /* the first and last site's instruction */
	size_t n;
	struct site site[];
};

struct object {
	struct object_table *table;   /* published; NULL: the slot is free */
	uintptr_t start, end;         /* its PT_LOAD segments' span */
};

static struct object objects[UCOPY_OBJECTS_MAX];
/* Registered objects: the handler skips the slots while there are none. */
static unsigned nobjects;
/* Serialises registering and unregistering; the handler never takes it. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/* Handlers reading the slots, counted under the phase they began in:
 * unregister() moves the phase on and waits for the old count to drain,
 * twice, so that every reader it must wait for is counted in one of the
 * two it waits on, while new readers count elsewhere and cannot keep it
 * waiting. */
static unsigned phase;
static unsigned long readers[2];

/*=====   The handler's side   =====*/

void (*ucopy_objects_reading)(void);

static const struct site *table_find(const struct object_table *t, uintptr_t pc)
{
	if (pc < t->lo || pc > t->hi)
		return NULL;
	size_t lo = 0, hi = t->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->site[mid].insn == pc)
			return &t->site[mid];
		if (t->site[mid].insn < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Async-signal-safe: no lock, no allocation.  Sequentially consistent
 * where a reader's count and a writer's emptied slot must be seen in one
 * order by both (each stores one and then loads the other). */
int ucopy_objects_fixup(uintptr_t pc, uintptr_t *fixup, unsigned *type)
{
	if (!__atomic_load_n(&nobjects, __ATOMIC_ACQUIRE))
		return 0;
	unsigned p = __atomic_load_n(&phase, __ATOMIC_SEQ_CST) & 1;
	__atomic_add_fetch(&readers[p], 1, __ATOMIC_SEQ_CST);
	const struct site *s = NULL;
	for (size_t i = 0; i < UCOPY_OBJECTS_MAX && !s; i++) {
		const struct object_table *t = __atomic_load_n(&objects[i].table, __ATOMIC_SEQ_CST);
		if (!t)
			continue;
		void (*hook)(void) = __atomic_load_n(&ucopy_objects_reading, __ATOMIC_RELAXED);
		if (unlikely(hook))
			hook();
		s = table_find(t, pc);
	}
	if (s) {
		*fixup = s->fixup;
		*type = s->type;
	}
	__atomic_sub_fetch(&readers[p], 1, __ATOMIC_RELEASE);
	return s != NULL;
}

/* Returns once no handler can still read a table emptied from its slot
 * before the call. */
static void wait_for_readers(void)
{
	for (int k = 0; k < 2; k++) {
		unsigned p = __atomic_fetch_add(&phase, 1, __ATOMIC_SEQ_CST) & 1;
		while (__atomic_load_n(&readers[p], __ATOMIC_SEQ_CST))
			sched_yield();
	}
}

/*=====   Reading an object's notes   =====*/

/* A note's words: 4-aligned in a well-formed object, but nothing here
 * counts on it. */
typedef uint32_t word_t __attribute__((aligned(1), may_alias));

struct scan {
	const void *addr;            /* in: an address inside the object */
	struct object_table *table;  /* out: its sites, sorted (NULL: none) */
	uintptr_t start, end;        /* its PT_LOAD segments' span */
	int error;                   /* 0, ENOENT, EINVAL or ENOMEM */
};

static int segment_has(const struct dl_phdr_info *info, const ElfW(Phdr) *ph,
		       uintptr_t a, size_t len)
{
	uintptr_t s = info->dlpi_addr + ph->p_vaddr;
	return ph->p_type == PT_LOAD && a >= s && len <= ph->p_memsz && a - s <= ph->p_memsz - len;
}

/* Whether [a, a + len) lies in one PT_LOAD segment with all of `flags`. */
static int mapped(const struct dl_phdr_info *info, uintptr_t a, size_t len, unsigned flags)
{
	for (unsigned i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if ((ph->p_flags & flags) == flags && segment_has(info, ph, a, len))
			return 1;
	}
	return 0;
}

static size_t align_up(size_t v, size_t a)
{
	return (v + a - 1) & ~(a - 1);
}

static int is_ucopy_name(const unsigned char *name, uint32_t namesz)
{
	static const char want[] = "ucopy";
	if (namesz != sizeof want)
		return 0;
	for (size_t i = 0; i < sizeof want; i++)
		if (name[i] != (unsigned char)want[i])
			return 0;
	return 1;
}

/* One site from a note's description, checked.
 * @return : 0, or EINVAL. */
static int read_site(const struct dl_phdr_info *info, const unsigned char *desc, struct site *s)
{
	const word_t *w = (const void *)desc;
	s->insn = (uintptr_t)desc + (uintptr_t)(intptr_t)(int32_t)w[0];
	s->fixup = (uintptr_t)(desc + 4) + (uintptr_t)(intptr_t)(int32_t)w[1];
	s->type = w[2];
	if (w[3] != 0 || s->type >= 32 || !(ucopy_arch_ex_types & (1u << s->type)))
		return EINVAL;
	if (!mapped(info, s->insn, 1, PF_X) || !mapped(info, s->fixup, 1, PF_X))
		return EINVAL;
	return 0;
}

/* The sites of one PT_NOTE segment, appended to out (when not NULL) from
 * *n on.  Notes of other names and types are skipped; a note too long for
 * its segment ends it, unless it is one of ours.
 * @return : 0, or EINVAL. */
static int read_notes(const struct dl_phdr_info *info, const ElfW(Phdr) *ph,
		      struct site *out, size_t *n)
{
	uintptr_t a = info->dlpi_addr + ph->p_vaddr;
	size_t len = ph->p_filesz < ph->p_memsz ? ph->p_filesz : ph->p_memsz;
	if (!len || !mapped(info, a, len, PF_R))
		return 0;   /* not in memory: nothing anyone could run */
	size_t align = ph->p_align == 8 ? 8 : 4;
	const unsigned char *p = (const void *)a, *end = p + len;
	while ((size_t)(end - p) >= 12) {
		const word_t *h = (const void *)p;
		uint32_t namesz = h[0], descsz = h[1], type = h[2];
		size_t left = (size_t)(end - p) - 12;
		size_t nlen = align_up(namesz, align);
		int ours = type == UCOPY_NOTE_EXTABLE && namesz <= left && is_ucopy_name(p + 12, namesz);
		if (nlen > left || align_up(descsz, align) > left - nlen)
			return ours ? EINVAL : 0;
		const unsigned char *desc = p + 12 + nlen;
		if (ours) {
			struct site s;
			if (descsz != 16 || read_site(info, desc, &s))
				return EINVAL;
			if (out)
				out[*n] = s;
			++*n;
		}
		p = desc + align_up(descsz, align);
	}
	return 0;
}

/* Every site of the object, in note order.  @return : 0, or EINVAL. */
static int read_object(const struct dl_phdr_info *info, struct site *out, size_t *n)
{
	*n = 0;
	for (unsigned i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_NOTE) {
			int e = read_notes(info, &info->dlpi_phdr[i], out, n);
			if (e)
				return e;
		}
	return 0;
}

static int site_cmp(const void *a, const void *b)
{
	uintptr_t x = ((const struct site *)a)->insn, y = ((const struct site *)b)->insn;
	return x < y ? -1 : x > y;
}

/* The sites sorted, in a table of their own.  An instruction listed twice
 * is refused: the handler could not know which fixup was meant.
 * @return : 0, or EINVAL or ENOMEM. */
static int make_table(const struct dl_phdr_info *info, size_t n, struct object_table **out)
{
	struct object_table *t = malloc(sizeof *t + n * sizeof t->site[0]);
	if (!t)
		return ENOMEM;
	size_t again;
	read_object(info, t->site, &again);
	qsort(t->site, n, sizeof t->site[0], site_cmp);
	for (size_t i = 1; i < n; i++)
		if (t->site[i].insn == t->site[i - 1].insn) {
			free(t);
			return EINVAL;
		}
	t->n = n;
	t->lo = t->site[0].insn;
	t->hi = t->site[n - 1].insn;
	*out = t;
	return 0;
}

/* dl_iterate_phdr's callback: reads the object that holds s->addr, under
 * the loader's lock, so that it cannot be unloaded meanwhile. */
static int scan_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct scan *s = arg;
	(void)size;
	if (!mapped(info, (uintptr_t)s->addr, 1, 0))
		return 0;
	s->start = UINTPTR_MAX;
	s->end = 0;
	for (unsigned i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD)
			continue;
		uintptr_t a = info->dlpi_addr + ph->p_vaddr;
		if (a < s->start)
			s->start = a;
		if (a + ph->p_memsz > s->end)
			s->end = a + ph->p_memsz;
	}
	size_t n;
	s->error = read_object(info, NULL, &n);
	if (!s->error && n)
		s->error = make_table(info, n, &s->table);
	return 1;
}

/*=====   Registering   =====*/

static struct object *object_at(uintptr_t a)
{
	for (size_t i = 0; i < UCOPY_OBJECTS_MAX; i++)
		if (objects[i].table && a >= objects[i].start && a < objects[i].end)
			return &objects[i];
	return NULL;
}

static int same_sites(const struct object_table *a, const struct object_table *b)
{
	if (a->n != b->n)
		return 0;
	for (size_t i = 0; i < a->n; i++)
		if (a->site[i].insn != b->site[i].insn || a->site[i].fixup != b->site[i].fixup ||
		    a->site[i].type != b->site[i].type)
			return 0;
	return 1;
}

/* Empties o's slot and frees its table once no handler can read it; the
 * lock is held. */
static void unpublish(struct object *o)
{
	struct object_table *t = o->table;
	__atomic_store_n(&o->table, NULL, __ATOMIC_SEQ_CST);
	__atomic_sub_fetch(&nobjects, 1, __ATOMIC_RELEASE);
	wait_for_readers();
	free(t);
}

/* Publishes the table scanned; the lock is held.  A slot whose object
 * lay where this one lies, with these sites, is this object registered
 * already: its count, once.  With other sites, its object was unloaded
 * without unregistering (a later dlopen() put this one there): its sites
 * would send this object's faults to fixups that are gone, so it goes.
 * @return : the count of sites, or -1 with errno. */
static int publish(struct scan *s, int *added)
{
	struct object *o = NULL;
	for (size_t i = 0; i < UCOPY_OBJECTS_MAX; i++) {
		struct object *x = &objects[i];
		if (!x->table || x->end <= s->start || x->start >= s->end)
			continue;
		if (same_sites(x->table, s->table)) {
			free(s->table);
			return (int)x->table->n;
		}
		unpublish(x);
	}
	for (size_t i = 0; i < UCOPY_OBJECTS_MAX && !o; i++)
		if (!objects[i].table)
			o = &objects[i];
	if (!o) {
		free(s->table);
		errno = ENOSPC;
		return -1;
	}
	o->start = s->start;
	o->end = s->end;
	__atomic_store_n(&o->table, s->table, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&nobjects, 1, __ATOMIC_RELEASE);
	*added = 1;
	return (int)s->table->n;
}

int ucopy_objects_add(const void *addr, int *added)
{
	struct scan s = { addr, NULL, 0, 0, ENOENT };
	*added = 0;
	/* Read outside the lock: a constructor registering its own object
	 * runs inside dlopen, under the loader's lock, and must not wait for
	 * a thread that holds ours and waits for the loader's. */
	dl_iterate_phdr(scan_object, &s);
	if (s.error) {
		errno = s.error;
		return -1;
	}
	if (!s.table)
		return 0;
	if (s.table->n > INT_MAX) {
		free(s.table);
		errno = EINVAL;
		return -1;
	}
	pthread_mutex_lock(&lock);
	int rc = publish(&s, added);
	pthread_mutex_unlock(&lock);
	return rc;
}

int ucopy_objects_remove(const void *addr)
{
	pthread_mutex_lock(&lock);
	struct object *o = object_at((uintptr_t)addr);
	if (!o) {
		pthread_mutex_unlock(&lock);
		errno = ENOENT;
		return -1;
	}
	unpublish(o);
	pthread_mutex_unlock(&lock);
	return 0;
}

/* A child of fork() has one thread: the readers counted were other
 * threads', and a lock another thread held is nobody's there. */
static void objects_after_fork(void)
{
	pthread_mutex_init(&lock, NULL);
	__atomic_store_n(&readers[0], 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&readers[1], 0, __ATOMIC_SEQ_CST);
}

__attribute__((constructor)) static void objects_init(void)
{
	pthread_atfork(NULL, NULL, objects_after_fork);
}
