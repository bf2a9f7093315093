/*
 * routine.h - a copy routine of the user's own, loaded from a shared object
 * (--routine LIB.so:SYMBOL[:CONTRACT] of `bench`, `compare` and `check`).
 *
 * The contracts:
 *   memcpy   void *f(void *dst, const void *src, size_t n): the n bytes at
 *            src to dst, the two not overlapping (the default)
 *   memmove  the same, the two may overlap
 *   try      size_t f(void *dst, const void *src, size_t n): returns the
 *            bytes not copied, 0 when all were: ucopy_try()'s and the
 *            kernel's copy_from_user contract.  Its fault sites
 *            (<ucopy-asm.h>) are registered by whoever runs it faulting
 *            (ucopy_fault_register()): `check` does, in its child.
 */
#ifndef UCOPY_ROUTINE_H
#define UCOPY_ROUTINE_H

#include <stddef.h>

enum routine_contract { ROUTINE_MEMCPY, ROUTINE_MEMMOVE, ROUTINE_TRY };

struct routine {
	char spec[512];      /* as given: LIB.so:SYMBOL[:CONTRACT] */
	char lib[400];       /* LIB.so: a path when it has a '/', else a name
				the loader searches for (libc.so.6) */
	char symbol[96];
	enum routine_contract contract;
	char name[160];      /* for tables and messages: SYMBOL, or
				SYMBOL:CONTRACT for another contract than
				memcpy (routine_name_unique() may lengthen it) */
	void *handle;        /* dlopen()'s, once loaded */
	void *(*copy)(void *dst, const void *src, size_t n);   /* memcpy, memmove */
	size_t (*try_fn)(void *dst, const void *src, size_t n); /* try */
};

const char *routine_contract_name(enum routine_contract c);

/* Reads LIB.so:SYMBOL[:CONTRACT] into r (nothing loaded yet).
 * @return : 0, or -1 with why in err ("expected LIB.so:SYMBOL[:CONTRACT]",
 *           "unknown contract 'x' (expected memcpy, memmove or try)"). */
int routine_parse(const char *spec, struct routine *r, char *err, size_t errlen);

/* Loads r->lib and finds r->symbol in it: a path must name an ELF shared
 * object of this build's architecture (told apart before dlopen(), whose
 * message for another architecture's object does not say which).
 * @return : 0, or -1 with why in err (no such file, not a shared object,
 *           another architecture, the loader's message, no such symbol). */
int routine_load(struct routine *r, char *err, size_t errlen);

/* routine_parse() then routine_load(): the whole of an option's value.
 * @return : 0, or -1 with why in err. */
int routine_open(const char *spec, struct routine *r, char *err, size_t errlen);

/* r's name one step longer: SYMBOL[:CONTRACT], then LIB's base name
 * before it (libc.so.6:memcpy), then the spec as given (./a/x.so:f), which
 * only the same spec given twice shares.  The step for a name that reads
 * like another routine's, or like a kernel's, policy's or entry's.
 * @return : 0, or -1 when the name is the spec already. */
int routine_name_lengthen(struct routine *r);

/* The names of rs[0..n) made distinct where two would read alike (the
 * same symbol from two libraries): each of them lengthened
 * (routine_name_lengthen()) until none is shared but by the same spec
 * given twice. */
void routine_names_unique(struct routine *rs, size_t n);

void routine_close(struct routine *r);

struct json;
/* r as the commands' JSON gives it: {"spec", "lib", "symbol", "contract"};
 * null when r is NULL (a variant or arm that is no routine). */
void routine_json(struct json *j, const struct routine *r);

#endif
