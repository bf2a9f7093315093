/*
 * internal.h - what the pieces of libucopy share and do not export.
 */
#ifndef UCOPY_INTERNAL_H
#define UCOPY_INTERNAL_H

#include "ucopy.h"

#define HIDDEN __attribute__((visibility("hidden")))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

/* The library's own copies (a policy, a message).  Never memcpy: a program
 * may route memcpy into ucopy_memcpy, and the first copy resolves the policy
 * (docs/design.md, "First use").  The empty asm keeps compilers from turning
 * the loop back into a memcpy call.  tests/cli/symbols.sh checks that no
 * object of the library but the `libc` kernel's refers to memcpy, memmove
 * or mempcpy. */
static inline void lib_copy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	while (n--) {
		*d++ = *s++;
		__asm__ volatile("" ::: "memory");
	}
}

/* First use without a lock (once.c): ucopy_once() returns the published
 * slot, filling one of `nslots` slots of `size` bytes with fill() first when
 * none is; *won (when not NULL) says whether this call's slot was published.
 * Define one with UCOPY_ONCE(array). */
struct ucopy_once {
	void *published;
	unsigned taken;
	void *slots;
	size_t size;
	unsigned nslots;
};
#define UCOPY_ONCE(array) \
	{ NULL, 0, (array), sizeof (array)[0], sizeof (array) / sizeof (array)[0] }
void *ucopy_once(struct ucopy_once *o, void (*fill)(void *slot), int *won) HIDDEN;

/* One entry of the exception table: a kernel instruction that may fault and
 * where to resume when it does.  The kernels emit entries (EXTABLE() in
 * kernels/<arch>/asm.h) into the section "ucopy_extable"; the linker brackets
 * it with __start_/__stop_ symbols.  Entries are absolute addresses so the
 * table can be sorted in place once, before the handler is installed. */
struct extable_entry {
	uintptr_t insn;
	uintptr_t fixup;
};
/* Weak: a port without try bodies has no table, and both are NULL. */
extern struct extable_entry __start_ucopy_extable[] __attribute__((weak)) HIDDEN;
extern struct extable_entry __stop_ucopy_extable[] __attribute__((weak)) HIDDEN;

/* The exception tables of other objects (extable_objects.c): copy
 * routines of a program's own whose fault sites <ucopy-asm.h> listed, at
 * most UCOPY_OBJECTS_MAX objects at once.  ucopy_objects_add() reads and
 * publishes the table of the object holding addr (*added: whether it was
 * not registered before); ucopy_objects_remove() unpublishes it and waits
 * until no handler can still read it.  ucopy_objects_fixup() is the
 * handler's lookup: async-signal-safe, no lock.
 * @return : add, the count of sites (0: none, nothing recorded) or -1 with
 *           errno; remove, 0 or -1 with ENOENT; fixup, 1 with the site's
 *           fixup and type (UCOPY_EX_*) when pc is a registered site. */
#define UCOPY_OBJECTS_MAX 64
int ucopy_objects_add(const void *addr, int *added) HIDDEN;
int ucopy_objects_remove(const void *addr) HIDDEN;
int ucopy_objects_fixup(uintptr_t pc, uintptr_t *fixup, unsigned *type) HIDDEN;
/* Called, when set, by ucopy_objects_fixup() between loading a table and
 * reading it: tests/test_fault_objects.c holds a handler there while
 * another thread unregisters the table's object. */
extern void (*ucopy_objects_reading)(void) HIDDEN;

/* The kernels' function types: the plain body, a ucopy_kernel_fn, and the
 * try body. */
typedef size_t (*ucopy_try_fn)(void *dst, const void *src, size_t n);

/* Backward copy for overlapping memmove with dst > src (the port's). */
void *ucopy_copy_backward(void *dst, const void *src, size_t n) HIDDEN;
/* Forward copy safe for overlapping memmove with dst < src. */
void *ucopy_copy_forward_overlap(void *dst, const void *src, size_t n) HIDDEN;

/* A compiled policy rule: sizes below limit go to fn (the last limit is
 * SIZE_MAX).  Assembly reads it as two quadwords. */
struct compiled_rule {
	size_t limit;
	ucopy_kernel_fn fn;
};

/* The compiled active policy (dispatch.c), read by the entry points
 * (kernels/<arch>/entry.S) as up to two compares and one indirect jump:
 * ucopy_memcpy sends sizes below ucopy_first_limit to ucopy_first_fn, the
 * rest below ucopy_second_limit to ucopy_second_fn, all others to
 * ucopy_memcpy_impl; ucopy_try does the same with the try bodies of the
 * same policy (kernels that cannot recover replaced), through
 * ucopy_try_first_limit/_first_fn/_second_limit/_second_fn/_impl.  Those
 * start as 0 and ucopy_try_cold, and are set by ucopy_try_route() once
 * ucopy's handler is installed: a try body must not run before a fault in
 * it can be recovered. */
extern size_t ucopy_first_limit HIDDEN;
extern ucopy_kernel_fn ucopy_first_fn HIDDEN;
extern size_t ucopy_second_limit HIDDEN;
extern ucopy_kernel_fn ucopy_second_fn HIDDEN;
extern ucopy_kernel_fn ucopy_memcpy_impl HIDDEN;
extern size_t ucopy_try_first_limit HIDDEN;
extern ucopy_try_fn ucopy_try_first_fn HIDDEN;
extern size_t ucopy_try_second_limit HIDDEN;
extern ucopy_try_fn ucopy_try_second_fn HIDDEN;
extern ucopy_try_fn ucopy_try_impl HIDDEN;
/* Sets ucopy_try's words (the policy is resolved): to the try bodies when
 * `only` is NULL, else every size to `only` (fault.c's checked entry, or the
 * signal-free copy under valgrind). */
void ucopy_try_route(ucopy_try_fn only) HIDDEN;
/* The active policy's try body for n bytes, past the words. */
size_t ucopy_try_dispatch(void *dst, const void *src, size_t n) HIDDEN;

/* Fault-tolerant copies (fault.c).  ucopy_try_ready is set once the policy
 * is compiled and the handler installed.  ucopy_try_cold installs them
 * (ucopy_try before that point); ucopy_try_local is ucopy_try's hidden
 * name, for the library's own calls. */
extern unsigned char ucopy_try_ready HIDDEN;
size_t ucopy_try_cold(void *dst, const void *src, size_t n) HIDDEN;
size_t ucopy_try_local(void *dst, const void *src, size_t n) HIDDEN;
/* The library's message helpers (text.c): ucopy_fail() writes the message
 * into err (when errlen > 0) and returns -1; ucopy_quote() bounds a token for
 * a message (40 bytes, then "...") and escapes control bytes; ucopy_trim()
 * drops spaces around [*s, *e); ucopy_put() appends like snprintf at *pos,
 * counting what did not fit. */
int ucopy_fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4))) HIDDEN;
struct ucopy_tok {
	char s[176];
};
struct ucopy_tok ucopy_quote(const char *s, size_t n) HIDDEN;
/* ucopy_show_token()'s escapes over the whole of s (a path, a CPU's
 * brand), cut only by len, with "..." when it is. */
char *ucopy_show_text(const char *s, char *buf, size_t len) HIDDEN;
void ucopy_trim(const char **s, const char **e) HIDDEN;
void ucopy_put(char *buf, size_t len, size_t *pos, const char *fmt, ...)
	__attribute__((format(printf, 4, 5))) HIDDEN;

/* ucopy_size_parse() on s[0..n) (text.c): 0 with *out, -1 when it is not
 * a size, -2 when it is too large. */
int ucopy_size_span(const char *s, size_t n, size_t *out) HIDDEN;

/* The signal-free copy (sigsafe.c): ucopy_try_sigsafe's body, errno kept.
 * ucopy_nosignal_moves counts its transfers (one system call each, two
 * through the pipe), for tests/test_fault.c. */
size_t ucopy_copy_nosignal(void *dst, const void *src, size_t n) HIDDEN;
extern unsigned long ucopy_nosignal_moves HIDDEN;

/* Whether the process runs under valgrind (fault.c): valgrind's client
 * request where its header was there to build with, else whether its core
 * (vgpreload_core-*.so) is among the loaded objects, which
 * ucopy_valgrind_core_loaded() answers alone (tests/test_valgrind.c). */
int ucopy_under_valgrind(void) HIDDEN;
int ucopy_valgrind_core_loaded(void) HIDDEN;

/* Calibration profiles (profile.c).  ucopy_profile_find() puts in buf the
 * profile to use: UCOPY_PROFILE when set and not empty, else the default path
 * when a file exists there.
 * @return : 1 with the path, 0 when there is none (buf ""), -1 when the path
 *           does not fit. */
#define PATH_MAX_PROFILE 4096
int ucopy_profile_find(char *buf, size_t len) HIDDEN;
/* The named policy "calibrated": the profile ucopy_profile_find() names.
 * @return : 0, or -1 with the reason in err. */
int ucopy_profile_policy(struct ucopy_policy *p, char *err, size_t errlen) HIDDEN;

#endif
