/*
 * test_routine.c - a routine of the user's own as --routine names it
 * (programs/core/routine.h): every form of LIB.so:SYMBOL[:CONTRACT] and
 * every error, the names that keep rows apart, and loading: the routines of
 * libroutine_simple.so, and files that are no shared object of this
 * architecture, told apart before dlopen.
 */
#include "check.h"
#include "routine.h"

#include <elf.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

static void parses(const char *spec, const char *lib, const char *symbol,
		   enum routine_contract contract, const char *name)
{
	struct routine r;
	char err[256] = "";
	int rc = routine_parse(spec, &r, err, sizeof err);
	CHECK(rc == 0, "'%s': %s", spec, err);
	if (rc)
		return;
	CHECK(!strcmp(r.spec, spec), "'%s': spec '%s'", spec, r.spec);
	CHECK(!strcmp(r.lib, lib), "'%s': lib '%s', want '%s'", spec, r.lib, lib);
	CHECK(!strcmp(r.symbol, symbol), "'%s': symbol '%s', want '%s'", spec, r.symbol, symbol);
	CHECK(r.contract == contract, "'%s': contract %s, want %s", spec,
	      routine_contract_name(r.contract), routine_contract_name(contract));
	CHECK(!strcmp(r.name, name), "'%s': name '%s', want '%s'", spec, r.name, name);
	CHECK(!r.handle && !r.copy && !r.try_fn, "'%s': loaded by parsing", spec);
}

static void refused(const char *spec, const char *msg)
{
	struct routine r;
	char err[256] = "";
	CHECK(routine_parse(spec, &r, err, sizeof err) < 0, "'%s' accepted", spec);
	CHECK(strstr(err, msg) != NULL, "'%s': message '%s' lacks '%s'", spec, err, msg);
}

static void test_parse(void)
{
	parses("libc.so.6:memcpy", "libc.so.6", "memcpy", ROUTINE_MEMCPY, "memcpy");
	parses("./x.so:f:memcpy", "./x.so", "f", ROUTINE_MEMCPY, "f");
	parses("./x.so:f:memmove", "./x.so", "f", ROUTINE_MEMMOVE, "f:memmove");
	parses("/abs/x.so:copy_user:try", "/abs/x.so", "copy_user", ROUTINE_TRY, "copy_user:try");
	/* A directory may hold a ':'; the fields start after the last '/'. */
	parses("/a:b/c:d/x.so:f:try", "/a:b/c:d/x.so", "f", ROUTINE_TRY, "f:try");
	check_group("routine: LIB.so:SYMBOL[:CONTRACT] in each form");

	refused("", "expected LIB.so:SYMBOL[:CONTRACT]");
	refused("x.so", "expected LIB.so:SYMBOL[:CONTRACT]");
	refused("/a:b/x.so", "expected LIB.so:SYMBOL[:CONTRACT]");
	refused(":memcpy", "expected LIB.so:SYMBOL[:CONTRACT]");
	refused("x.so:", "no SYMBOL after 'x.so:'");
	refused("x.so::try", "no SYMBOL after 'x.so:'");
	refused("x.so:f:copy", "unknown contract 'copy' (expected memcpy, memmove or try)");
	refused("x.so:f:", "unknown contract ''");
	refused("x.so:f:try:more", "unknown contract 'try:more'");
	refused("x.so:f:TRY", "unknown contract 'TRY'");
	char big[700];
	memset(big, 'a', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	refused(big, "too long");
	memcpy(big, "x.so:", 5);
	big[5 + 200] = '\0';
	refused(big, "a name too long");
	check_group("routine: each malformed spec refused, saying what was expected");
}

static void step(struct routine *r, const char *want)
{
	char before[sizeof r->name];
	memcpy(before, r->name, sizeof before);
	int rc = routine_name_lengthen(r);
	if (want) {
		CHECK(rc == 0 && !strcmp(r->name, want), "'%s' lengthened: rc %d, '%s', want '%s'",
		      before, rc, r->name, want);
	} else {
		CHECK(rc < 0 && !strcmp(r->name, before), "'%s' lengthened past the spec: rc %d, '%s'",
		      before, rc, r->name);
	}
}

static void test_names(void)
{
	struct routine r;
	char err[256];
	routine_parse("./lib/x.so:f:try", &r, err, sizeof err);
	step(&r, "x.so:f:try");
	step(&r, "./lib/x.so:f:try");
	step(&r, NULL);
	/* libc.so.6:memcpy is its own spec: one step, not two. */
	routine_parse("libc.so.6:memcpy", &r, err, sizeof err);
	step(&r, "libc.so.6:memcpy");
	step(&r, NULL);
	check_group("routine: a name lengthens to LIB:SYMBOL, then to the spec");

	static const char *const specs[] = { "./a/libc.so.6:memcpy", "./b/libc.so.6:memcpy",
					     "libc.so.6:memcpy", "./a/x.so:f", "./a/x.so:g",
					     "./a/x.so:f:try", "./c/y.so:g:memcpy" };
	static const char *const want[] = { "./a/libc.so.6:memcpy", "./b/libc.so.6:memcpy",
					    "libc.so.6:memcpy", "f", "x.so:g", "f:try",
					    "y.so:g" };
	enum { N = sizeof specs / sizeof *specs };
	struct routine rs[N];
	for (size_t i = 0; i < N; i++)
		CHECK(routine_parse(specs[i], &rs[i], err, sizeof err) == 0, "%s: %s", specs[i], err);
	routine_names_unique(rs, N);
	for (size_t i = 0; i < N; i++)
		CHECK(!strcmp(rs[i].name, want[i]), "'%s' named '%s', want '%s'", specs[i],
		      rs[i].name, want[i]);
	/* The same spec twice stays as it is: only the caller can refuse it. */
	routine_parse("x.so:f", &rs[0], err, sizeof err);
	routine_parse("x.so:f", &rs[1], err, sizeof err);
	routine_names_unique(rs, 2);
	CHECK(!strcmp(rs[0].name, "x.so:f") && !strcmp(rs[1].name, "x.so:f"), "'%s', '%s'",
	      rs[0].name, rs[1].name);
	check_group("routine: names made distinct, each only as long as it must be");
}

static const char *build_dir(void)
{
	const char *b = getenv("B");
	return b && *b ? b : "build";
}

static void test_simple(void)
{
	char lib[4096], spec[4200], err[1024] = "";
	snprintf(lib, sizeof lib, "%s/tests/libroutine_simple.so", build_dir());
	if (access(lib, R_OK) != 0) {
		check_skip("routine: the routines of libroutine_simple.so", "not built in $B");
		return;
	}
	unsigned char src[300], dst[300], buf[300];
	for (size_t i = 0; i < sizeof src; i++)
		src[i] = (unsigned char)(i * 7 + 1);

	struct routine r;
	snprintf(spec, sizeof spec, "%s:simple_memcpy", lib);
	int rc = routine_open(spec, &r, err, sizeof err);
	CHECK(rc == 0 && r.handle && r.copy && !r.try_fn, "%s: rc %d: %s", spec, rc, err);
	if (rc == 0) {
		memset(dst, 0, sizeof dst);
		CHECK(r.copy(dst, src, 257) == dst && !memcmp(dst, src, 257) && dst[257] == 0,
		      "simple_memcpy copied wrong");
		routine_close(&r);
		CHECK(!r.handle && !r.copy, "closed, still set");
	}

	snprintf(spec, sizeof spec, "%s:simple_memmove:memmove", lib);
	rc = routine_open(spec, &r, err, sizeof err);
	CHECK(rc == 0 && r.copy && r.contract == ROUTINE_MEMMOVE, "%s: rc %d: %s", spec, rc, err);
	if (rc == 0) {
		memcpy(buf, src, sizeof buf);
		r.copy(buf + 3, buf, 200);
		CHECK(!memcmp(buf + 3, src, 200), "simple_memmove forward overlap");
		memcpy(buf, src, sizeof buf);
		r.copy(buf, buf + 3, 200);
		CHECK(!memcmp(buf, src + 3, 200), "simple_memmove backward overlap");
		routine_close(&r);
	}

	snprintf(spec, sizeof spec, "%s:simple_try:try", lib);
	rc = routine_open(spec, &r, err, sizeof err);
	CHECK(rc == 0 && r.try_fn && !r.copy && r.contract == ROUTINE_TRY, "%s: rc %d: %s",
	      spec, rc, err);
	if (rc == 0) {
		memset(dst, 0, sizeof dst);
		CHECK(r.try_fn(dst, src, 100) == 0 && !memcmp(dst, src, 100), "simple_try");
		routine_close(&r);
	}

	snprintf(spec, sizeof spec, "%s:nosuch", lib);
	CHECK(routine_open(spec, &r, err, sizeof err) < 0 && strstr(err, "no function 'nosuch' in '") &&
	      !r.handle, "missing symbol: '%s'", err);
	check_group("routine: libroutine_simple.so's routines load and copy, each by its contract");
}

/* A file of 64 bytes: an ELF header of class 64, byte order `data`, type
 * `type` and machine `machine`, or `text` when it is not NULL. */
static void write_file(const char *path, const char *text, int data, unsigned type,
		       unsigned machine)
{
	unsigned char h[64] = { 0x7f, 'E', 'L', 'F', ELFCLASS64, (unsigned char)data, EV_CURRENT };
	int msb = data == ELFDATA2MSB;
	h[16 + msb] = (unsigned char)type;
	h[17 - msb] = (unsigned char)(type >> 8);
	h[18 + msb] = (unsigned char)machine;
	h[19 - msb] = (unsigned char)(machine >> 8);
	FILE *f = fopen(path, "wb");
	if (!f) {
		perror(path);
		exit(2);
	}
	if (text)
		fputs(text, f);
	else
		fwrite(h, 1, sizeof h, f);
	fclose(f);
}

static void load_fails(const char *path, const char *msg)
{
	struct routine r;
	char spec[4200], err[1024] = "";
	snprintf(spec, sizeof spec, "%s:f", path);
	CHECK(routine_open(spec, &r, err, sizeof err) < 0, "'%s' loaded", spec);
	CHECK(strstr(err, msg) != NULL, "'%s': message '%s' lacks '%s'", spec, err, msg);
	CHECK(!r.handle, "'%s': a handle kept", spec);
}

static void test_bad_files(void)
{
	char dir[] = "/tmp/ucopy-routine-XXXXXX", path[256], msg[512];
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		exit(2);
	}
	snprintf(path, sizeof path, "%s/missing.so", dir);
	snprintf(msg, sizeof msg, "cannot open '%s': No such file or directory", path);
	load_fails(path, msg);

	snprintf(path, sizeof path, "%s/text.so", dir);
	write_file(path, "not an ELF file, though named .so\n", 0, 0, 0);
	snprintf(msg, sizeof msg, "'%s' is not an ELF file (expected a shared object)", path);
	load_fails(path, msg);
	write_file(path, "", 0, 0, 0);
	load_fails(path, msg);
#if defined(__x86_64__) || defined(__aarch64__)
#if defined(__x86_64__)
	const unsigned here = EM_X86_64, other = EM_AARCH64;
	const char *here_name = "x86-64", *other_name = "aarch64";
#else
	const unsigned here = EM_AARCH64, other = EM_X86_64;
	const char *here_name = "aarch64", *other_name = "x86-64";
#endif
	snprintf(path, sizeof path, "%s/other.so", dir);
	write_file(path, NULL, ELFDATA2LSB, ET_DYN, other);
	snprintf(msg, sizeof msg, "'%s' is built for %s, not %s", path, other_name, here_name);
	load_fails(path, msg);
	write_file(path, NULL, ELFDATA2MSB, ET_DYN, EM_S390);
	snprintf(msg, sizeof msg, "'%s' is built for s390, not %s", path, here_name);
	load_fails(path, msg);
	write_file(path, NULL, ELFDATA2LSB, ET_DYN, 0x1234);
	snprintf(msg, sizeof msg, "'%s' is built for machine %u, not %s", path, 0x1234, here_name);
	load_fails(path, msg);

	snprintf(path, sizeof path, "%s/object.o", dir);
	write_file(path, NULL, ELFDATA2LSB, ET_REL, here);
	snprintf(msg, sizeof msg, "'%s' is not a shared object (an object file; build it with -shared)",
		 path);
	load_fails(path, msg);
	write_file(path, NULL, ELFDATA2LSB, ET_EXEC, here);
	load_fails(path, "is not a shared object (a program;");

	/* Of this machine and a shared object by its header, the rest not:
	 * the loader's own message. */
	snprintf(path, sizeof path, "%s/broken.so", dir);
	write_file(path, NULL, ELFDATA2LSB, ET_DYN, here);
	snprintf(msg, sizeof msg, "cannot load '%s': ", path);
	load_fails(path, msg);
	unlink(path);
	snprintf(path, sizeof path, "%s/object.o", dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/other.so", dir);
	unlink(path);
#endif
	snprintf(path, sizeof path, "%s/text.so", dir);
	unlink(path);
	rmdir(dir);
	check_group("routine: a missing file, a non-ELF, another architecture's, an object or a "
		    "program refused by name before dlopen");
}

int main(void)
{
	test_parse();
	test_names();
	test_simple();
	test_bad_files();
	return check_exit();
}
