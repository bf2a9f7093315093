/*
 * ksource.c - the entries `ucopy kbuild` knows, and what a kernel's .S
 * source defines of them (ksource.h).
 */
#include "ksource.h"
#include "ucopy.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SOURCE (4u << 20)

/* Those chosen by feature in the order copy_user_generic() tried them:
 * ksource_entry() takes the first the features allow. */
static const struct ksource_entry known[] = {
	{ "x86_64", "rep_movs_alternative", "rep_movs", NULL },
	{ "x86_64", "copy_user_enhanced_fast_string", "copy_user", "erms" },
	{ "x86_64", "copy_user_generic_string", "copy_user", "rep_good" },
	{ "x86_64", "copy_user_generic_unrolled", "copy_user", "" },
	{ "x86_64", "__copy_user_nocache", "copy_user", NULL },
	{ "aarch64", "__arch_copy_from_user", "c", NULL },
	{ "aarch64", "__arch_copy_to_user", "c", NULL },
};
#define NKNOWN (sizeof known / sizeof known[0])

static const char *const conventions[][2] = {
	{ "x86_64", "rep_movs" }, { "x86_64", "copy_user" }, { "x86_64", "c" },
	{ "aarch64", "c" },
};
#define NCONV (sizeof conventions / sizeof conventions[0])

const struct ksource_entry *ksource_known(const char *arch, const char *name)
{
	for (size_t i = 0; i < NKNOWN; i++)
		if (!strcmp(known[i].arch, arch) && !strcmp(known[i].name, name))
			return &known[i];
	return NULL;
}

int ksource_convention_valid(const char *arch, const char *c)
{
	for (size_t i = 0; i < NCONV; i++)
		if (!strcmp(conventions[i][0], arch) && !strcmp(conventions[i][1], c))
			return 1;
	return 0;
}

void ksource_conventions(const char *arch, char *buf, size_t len)
{
	size_t pos = 0;
	buf[0] = 0;
	for (size_t i = 0; i < NCONV && pos < len; i++)
		if (!strcmp(conventions[i][0], arch))
			pos += (size_t)snprintf(buf + pos, len - pos, "%s%s", pos ? ", " : "",
						conventions[i][1]);
}

/*=====   The source's functions   =====*/

static char *read_source(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "bad file '%s': %s", path, strerror(errno));
		return NULL;
	}
	char *text = malloc(MAX_SOURCE + 1);
	size_t n = text ? fread(text, 1, MAX_SOURCE + 1, f) : 0;
	int bad = !text || ferror(f);
	fclose(f);
	if (bad || n > MAX_SOURCE) {
		snprintf(err, errlen, "bad file '%s': %s", path,
			 !text ? "out of memory" : bad ? "cannot read it"
			 : "larger than 4 MiB (expected an assembly source)");
		free(text);
		return NULL;
	}
	text[n] = 0;
	return text;
}

/* The functions text defines, joined by ", " into buf. */
static void defined_functions(const char *text, char *buf, size_t len)
{
	static const char *const marks[] = { "SYM_FUNC_START(", "SYM_TYPED_FUNC_START(",
					     "SYM_FUNC_START_WEAK(", "ENTRY(" };
	size_t pos = 0;
	buf[0] = 0;
	for (const char *p = text; *p; p++) {
		for (size_t m = 0; m < sizeof marks / sizeof marks[0]; m++) {
			size_t ml = strlen(marks[m]);
			if (strncmp(p, marks[m], ml) || (p > text && (isalnum((unsigned char)p[-1]) ||
								      p[-1] == '_')))
				continue;
			const char *s = p + ml, *e;
			while (*s == ' ' || *s == '\t')
				s++;
			for (e = s; isalnum((unsigned char)*e) || *e == '_' || *e == '.'; e++)
				;
			if (e > s && pos + (size_t)(e - s) + 3 < len)
				pos += (size_t)snprintf(buf + pos, len - pos, "%s%.*s", pos ? ", " : "",
							(int)(e - s), s);
		}
	}
}

int ksource_functions(const char *path, int depth, char *buf, size_t len, char *err,
		      size_t errlen)
{
	char *text = read_source(path, err, errlen);
	if (!text)
		return -1;
	size_t pos = strlen(buf);
	if (pos + 2 < len) {
		if (pos)
			pos += (size_t)snprintf(buf + pos, len - pos, ", ");
		defined_functions(text, buf + pos, len - pos);
		if (!buf[pos] && pos >= 2)
			buf[pos - 2] = 0;
	}
	const char *slash = strrchr(path, '/');
	int dirlen = slash ? (int)(slash - path + 1) : 0;
	for (const char *p = strstr(text, "#include \""); p && depth > 0;
	     p = strstr(p + 1, "#include \"")) {
		const char *name = p + 10, *end = strchr(name, '"');
		char inc[PATH_MAX], ignored[8];
		if (!end || strchr(name, '\n') < end || end - name > 200)
			continue;
		snprintf(inc, sizeof inc, "%.*s%.*s", dirlen, path, (int)(end - name), name);
		ksource_functions(inc, depth - 1, buf, len, ignored, sizeof ignored);
	}
	free(text);
	return 0;
}

/*=====   The entry   =====*/

static int defines(const char *list, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = strstr(list, name); p; p = strstr(p + 1, name))
		if ((p == list || p[-1] == ' ') && (p[n] == ',' || !p[n]))
			return 1;
	return 0;
}

static int has_feature(uint64_t set, const char *name)
{
	for (unsigned b = 0; b < UCOPY_FEAT_COUNT; b++)
		if (ucopy_feature_name(b) && !strcmp(ucopy_feature_name(b), name))
			return (set >> b) & 1;
	return 0;
}

const struct ksource_entry *ksource_entry(const char *arch, uint64_t set, const char *file,
					  const char *funcs, char *err, size_t errlen)
{
	const struct ksource_entry *by_feature = NULL, *plain[2] = { NULL, NULL };
	size_t nplain = 0;
	for (size_t i = 0; i < NKNOWN; i++) {
		const struct ksource_entry *e = &known[i];
		if (strcmp(e->arch, arch) || !defines(funcs, e->name))
			continue;
		if (!e->needs && nplain < 2)
			plain[nplain++] = e;
		else if (e->needs && !by_feature && (!e->needs[0] || has_feature(set, e->needs)))
			by_feature = e;
	}
	const struct ksource_entry *pick = by_feature ? by_feature : nplain == 1 ? plain[0] : NULL;
	if (!pick && nplain > 1) {
		snprintf(err, errlen, "%s defines more than one routine kbuild knows (%s, %s): "
			 "--entry names the one to build", file, plain[0]->name, plain[1]->name);
		return NULL;
	}
	if (!pick)
		snprintf(err, errlen, "%s defines no routine kbuild knows for %s (%s%s): --entry "
			 "SYMBOL and --convention say which to build and how it is called", file,
			 arch, funcs[0] ? "it defines " : "it defines no function", funcs);
	return pick;
}
