/*
 * routine.c - a copy routine loaded from a shared object (routine.h).
 */
#define _GNU_SOURCE
#include "routine.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json.h"

#if defined(__x86_64__)
#define THIS_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define THIS_MACHINE EM_AARCH64
#else
#define THIS_MACHINE EM_NONE   /* any: the loader's own check decides */
#endif

static const char *const contract_names[] = {
	[ROUTINE_MEMCPY] = "memcpy",
	[ROUTINE_MEMMOVE] = "memmove",
	[ROUTINE_TRY] = "try",
};

const char *routine_contract_name(enum routine_contract c)
{
	return (unsigned)c < sizeof contract_names / sizeof *contract_names ?
	       contract_names[c] : "?";
}

static const char *machine_name(unsigned m)
{
	switch (m) {
	case EM_X86_64: return "x86-64";
	case EM_AARCH64: return "aarch64";
	case EM_386: return "i386";
	case EM_ARM: return "32-bit arm";
	case EM_RISCV: return "riscv";
	case EM_PPC64: return "ppc64";
	case EM_S390: return "s390";
	default: return NULL;
	}
}

int routine_parse(const char *spec, struct routine *r, char *err, size_t errlen)
{
	memset(r, 0, sizeof *r);
	if (strlen(spec) >= sizeof r->spec) {
		snprintf(err, errlen, "too long (at most %zu characters)", sizeof r->spec - 1);
		return -1;
	}
	strcpy(r->spec, spec);
	/* The fields start after the path's last '/': a directory may hold a
	 * ':', a file name given here may not. */
	const char *slash = strrchr(spec, '/');
	const char *c1 = strchr(slash ? slash : spec, ':');
	if (!c1 || c1 == spec) {
		snprintf(err, errlen, "expected LIB.so:SYMBOL[:CONTRACT]");
		return -1;
	}
	const char *sym = c1 + 1;
	const char *c2 = strchr(sym, ':');
	size_t symlen = c2 ? (size_t)(c2 - sym) : strlen(sym);
	if (symlen == 0) {
		snprintf(err, errlen, "no SYMBOL after '%.*s:' (expected LIB.so:SYMBOL[:CONTRACT])",
			 (int)(c1 - spec), spec);
		return -1;
	}
	if ((size_t)(c1 - spec) >= sizeof r->lib || symlen >= sizeof r->symbol) {
		snprintf(err, errlen, "a name too long");
		return -1;
	}
	memcpy(r->lib, spec, (size_t)(c1 - spec));
	memcpy(r->symbol, sym, symlen);
	r->contract = ROUTINE_MEMCPY;
	if (c2) {
		const char *con = c2 + 1;
		size_t i, n = sizeof contract_names / sizeof *contract_names;
		for (i = 0; i < n && strcmp(con, contract_names[i]); i++)
			;
		if (i == n) {
			snprintf(err, errlen, "unknown contract '%s' (expected memcpy, memmove or try)",
				 con);
			return -1;
		}
		r->contract = (enum routine_contract)i;
	}
	if (r->contract == ROUTINE_MEMCPY)
		snprintf(r->name, sizeof r->name, "%s", r->symbol);
	else
		snprintf(r->name, sizeof r->name, "%s:%s", r->symbol,
			 routine_contract_name(r->contract));
	return 0;
}

/* A path's file, before dlopen(): its message for another architecture's
 * object is "wrong ELF class" or "invalid ELF header" at best. */
static int check_file(const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	unsigned char h[64];
	ssize_t got = read(fd, h, sizeof h);
	close(fd);
	if (got < (ssize_t)sizeof(Elf64_Ehdr) || memcmp(h, ELFMAG, SELFMAG) != 0) {
		snprintf(err, errlen, "'%s' is not an ELF file (expected a shared object)", path);
		return -1;
	}
	unsigned machine = h[EI_DATA] == ELFDATA2MSB ? (unsigned)h[18] << 8 | h[19] :
			   (unsigned)h[19] << 8 | h[18];
	unsigned type = h[EI_DATA] == ELFDATA2MSB ? (unsigned)h[16] << 8 | h[17] :
			(unsigned)h[17] << 8 | h[16];
	if (THIS_MACHINE != EM_NONE && machine != THIS_MACHINE) {
		const char *m = machine_name(machine);
		char num[32];
		if (!m) {
			snprintf(num, sizeof num, "machine %u", machine);
			m = num;
		}
		snprintf(err, errlen, "'%s' is built for %s, not %s", path, m,
			 machine_name(THIS_MACHINE));
		return -1;
	}
	if (type != ET_DYN) {
		snprintf(err, errlen, "'%s' is not a shared object (%s; build it with -shared)",
			 path, type == ET_REL ? "an object file" :
			       type == ET_EXEC ? "a program" : "another ELF type");
		return -1;
	}
	return 0;
}

int routine_load(struct routine *r, char *err, size_t errlen)
{
	if (strchr(r->lib, '/') && check_file(r->lib, err, errlen) != 0)
		return -1;
	dlerror();
	r->handle = dlopen(r->lib, RTLD_NOW | RTLD_LOCAL);
	if (!r->handle) {
		const char *why = dlerror();
		snprintf(err, errlen, "cannot load '%s': %s", r->lib, why ? why : "unknown error");
		return -1;
	}
	dlerror();
	void *f = dlsym(r->handle, r->symbol);
	if (!f) {
		snprintf(err, errlen, "no function '%s' in '%s'", r->symbol, r->lib);
		routine_close(r);
		return -1;
	}
	if (r->contract == ROUTINE_TRY)
		r->try_fn = (size_t (*)(void *, const void *, size_t))f;
	else
		r->copy = (void *(*)(void *, const void *, size_t))f;
	return 0;
}

int routine_open(const char *spec, struct routine *r, char *err, size_t errlen)
{
	if (routine_parse(spec, r, err, errlen) != 0)
		return -1;
	return routine_load(r, err, errlen);
}

/* r's name at `level`: 0 SYMBOL[:CONTRACT], 1 LIB's base name before it,
 * 2 the spec as given.
 * @return : 0, or -1 when it does not fit in len. */
static int name_at(const struct routine *r, int level, char *buf, size_t len)
{
	const char *base = strrchr(r->lib, '/');
	base = base ? base + 1 : r->lib;
	const char *con = r->contract == ROUTINE_MEMCPY ? "" : routine_contract_name(r->contract);
	int n = level == 2 ? snprintf(buf, len, "%s", r->spec)
			   : snprintf(buf, len, "%s%s%s%s%s", level ? base : "", level ? ":" : "",
				      r->symbol, *con ? ":" : "", con);
	return n >= 0 && (size_t)n < len ? 0 : -1;
}

int routine_name_lengthen(struct routine *r)
{
	char at[sizeof r->name];
	int level = 0;
	while (level < 2 && (name_at(r, level, at, sizeof at) || strcmp(at, r->name)))
		level++;
	/* A level that reads as the one before it (libc.so.6:memcpy is its
	 * own spec), or that is too long for a name, is no step. */
	while (++level <= 2)
		if (!name_at(r, level, at, sizeof at) && strcmp(at, r->name)) {
			memcpy(r->name, at, sizeof at);
			return 0;
		}
	return -1;
}

void routine_names_unique(struct routine *rs, size_t n)
{
	for (int changed = 1; changed;) {
		changed = 0;
		/* Marked first: a name lengthened must not hide its twin. */
		for (size_t i = 0; i < n; i++)
			for (size_t j = 0; j < n; j++)
				if (j != i && !strcmp(rs[i].name, rs[j].name))
					rs[i].spec[sizeof rs[i].spec - 1] = 1;
		for (size_t i = 0; i < n; i++) {
			if (!rs[i].spec[sizeof rs[i].spec - 1])
				continue;
			rs[i].spec[sizeof rs[i].spec - 1] = 0;
			if (routine_name_lengthen(&rs[i]) == 0)
				changed = 1;
		}
	}
}

void routine_close(struct routine *r)
{
	if (r->handle)
		dlclose(r->handle);
	r->handle = NULL;
	r->copy = NULL;
	r->try_fn = NULL;
}

void routine_json(struct json *j, const struct routine *r)
{
	if (!r) {
		json_null(j);
		return;
	}
	json_begin_object(j);
	json_key(j, "spec"); json_string(j, r->spec);
	json_key(j, "lib"); json_string(j, r->lib);
	json_key(j, "symbol"); json_string(j, r->symbol);
	json_key(j, "contract"); json_string(j, routine_contract_name(r->contract));
	json_end_object(j);
}
