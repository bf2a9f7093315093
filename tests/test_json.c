/*
 * test_json.c - the JSON writer's strings: whatever bytes come in (a file
 * name, policy text), what goes out is valid JSON; and the reader
 * (json_read.h) reads back what the writer writes and refuses, with line
 * and column, what is not JSON.
 */
#include "check.h"
#include "json.h"
#include "json_read.h"

#include <math.h>
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

static void test_read_back(void)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	struct json j;
	json_init(&j, f, 1);
	json_begin_object(&j);
	json_key(&j, "s"); json_string(&j, "a\"b\\\n\x01" "caf\xc3\xa9\xff");
	json_key(&j, "n"); json_double(&j, -1.5e-7);
	json_key(&j, "big"); json_uint(&j, 18446744073709551615ull);
	json_key(&j, "nan"); json_double(&j, NAN);
	json_key(&j, "list");
	json_begin_array(&j);
	json_int(&j, 1); json_bool(&j, 1); json_bool(&j, 0);
	json_begin_object(&j); json_end_object(&j);
	json_begin_array(&j); json_end_array(&j);
	json_end_array(&j);
	json_end_object(&j);
	json_finish(&j);
	fclose(f);
	char err[128];
	struct jr_value *v = jr_parse(buf, n, err, sizeof err);
	CHECK(v != NULL, "the writer's output: %s", err);
	if (v) {
		const char *str = jr_string(jr_get(v, "s"));
		CHECK(str && !strcmp(str, "a\"b\\\n\x01" "caf\xc3\xa9\xc3\xbf"), "string '%s'",
		      str ? str : "(none)");
		CHECK(jr_number(jr_get(v, "n"), 0) == -1.5e-7, "number");
		CHECK(jr_number(jr_get(v, "big"), 0) == 18446744073709551615.0, "a 20-digit number");
		CHECK(jr_get(v, "nan") && jr_get(v, "nan")->type == JR_NULL, "NaN as null");
		const struct jr_value *l = jr_get(v, "list");
		CHECK(jr_len(l) == 5 && jr_number(jr_at(l, 0), 0) == 1 &&
		      jr_at(l, 1)->type == JR_BOOL && jr_at(l, 1)->number == 1 &&
		      jr_at(l, 3)->type == JR_OBJECT && jr_len(jr_at(l, 3)) == 0 &&
		      jr_at(l, 4)->type == JR_ARRAY && !jr_at(l, 5), "the list");
		CHECK(!jr_get(v, "absent") && !jr_get(l, "s") && jr_number(NULL, 7) == 7 &&
		      !jr_string(jr_get(v, "n")), "absent keys and wrong types");
		double d = -1;
		CHECK(jr_uint(jr_at(l, 0), 10, &d) == 0 && d == 1 &&
		      jr_uint(jr_get(v, "n"), 10, &d) < 0 &&          /* negative */
		      jr_uint(jr_get(v, "big"), 1e9, &d) < 0 &&       /* above max */
		      jr_uint(jr_get(v, "s"), 10, &d) < 0 &&          /* a string */
		      jr_uint(NULL, 10, &d) < 0, "jr_uint");
	}
	jr_free(v);
	free(buf);

	static const char *const escaped = "[\"\\u00e9\\ud83d\\ude00\\/\\t\"]";
	v = jr_parse(escaped, strlen(escaped), err, sizeof err);
	CHECK(v && jr_string(jr_at(v, 0)) &&
	      !strcmp(jr_string(jr_at(v, 0)), "\xc3\xa9\xf0\x9f\x98\x80/\t"),
	      "\\u escapes and a surrogate pair: %s", v ? "wrong text" : err);
	jr_free(v);
	check_group("json reader: reads back what the writer writes");
}

static void refused(const char *text, const char *want)
{
	char err[128];
	struct jr_value *v = jr_parse(text, strlen(text), err, sizeof err);
	CHECK(!v && strstr(err, want), "'%s': got '%s', want '%s'", text, v ? "accepted" : err,
	      want);
	jr_free(v);
}

static void test_refused(void)
{
	refused("", "line 1, column 1: a value was expected, the text ended");
	refused("{\"a\": 1,\n \"b\"", "line 2, column 5: ':' was expected");
	refused("[1, 2", "line 1, column 6: ',' or ']' was expected");
	refused("[1] x", "text after the value");
	refused("{1: 2}", "a key (a string) was expected");
	refused("[01]", "',' or ']' was expected");
	refused("[1.]", "a value was expected");
	refused("[-]", "a value was expected");
	refused("[1e999]", "a value was expected");
	refused("[-1e400]", "a value was expected");
	refused("[tru]", "a value was expected");
	refused("\"abc", "without its closing quote");
	refused("\"a\tb\"", "a control character");
	refused("\"\\x\"", "a bad escape");
	refused("\"\\u12g4\"", "a bad escape");
	refused("\"\\ud800\"", "a lone surrogate");
	refused("\"\\udc00\"", "a lone surrogate");
	char deep[200];
	memset(deep, '[', sizeof deep - 1);
	deep[sizeof deep - 1] = 0;
	refused(deep, "nested deeper than 64");
	check_group("json reader: refuses what is not JSON, with line and column");
}

int main(void)
{
	test_strings();
	test_read_back();
	test_refused();
	return check_exit();
}
