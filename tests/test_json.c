/*
 * test_json.c - the JSON writer's strings: whatever bytes come in (a file
 * name, policy text), what goes out is valid JSON.
 */
#include "check.h"
#include "json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* json_string(in) written alone, without the quotes. */
static void written(const char *in, char *out, size_t len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	struct json j;
	json_init(&j, f, 0);
	json_string(&j, in);
	fclose(f);
	snprintf(out, len, "%.*s", n >= 2 ? (int)n - 2 : 0, buf + 1);
	free(buf);
}

static void expect(const char *in, const char *want, const char *what)
{
	char got[256];
	written(in, got, sizeof got);
	CHECK(!strcmp(got, want), "%s: got \"%s\", want \"%s\"", what, got, want);
}

static void test_strings(void)
{
	expect("plain", "plain", "ASCII");
	expect("a\"b\\c\n\t\x01", "a\\\"b\\\\c\\n\\t\\u0001", "escapes");
	/* Well-formed UTF-8 passes through: 2, 3 and 4 bytes. */
	expect("caf\xc3\xa9", "caf\xc3\xa9", "U+00E9");
	expect("\xe2\x82\xac", "\xe2\x82\xac", "U+20AC");
	expect("\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80", "U+1F600");
	expect("\xf4\x8f\xbf\xbf", "\xf4\x8f\xbf\xbf", "U+10FFFF");
	/* Anything else: each bad byte as \u00XX, the rest kept. */
	expect("d\xffx", "d\\u00ffx", "a byte that starts nothing");
	expect("\x80", "\\u0080", "a lone continuation byte");
	expect("\xc0\xaf", "\\u00c0\\u00af", "overlong '/'");
	expect("\xe0\x80\xaf", "\\u00e0\\u0080\\u00af", "overlong, 3 bytes");
	expect("\xed\xa0\x80", "\\u00ed\\u00a0\\u0080", "a surrogate");
	expect("\xf4\x90\x80\x80", "\\u00f4\\u0090\\u0080\\u0080", "above U+10FFFF");
	expect("\xe2\x82", "\\u00e2\\u0082", "cut short at the end");
	expect("\xe2\x82x", "\\u00e2\\u0082x", "cut short before ASCII");
	expect("\xc3\xc3\xa9", "\\u00c3\xc3\xa9", "a lead byte, then a whole sequence");
	check_group("json strings");
}

int main(void)
{
	test_strings();
	return check_exit();
}
