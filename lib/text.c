/*
 * text.c - the text forms of sizes and feature sets, one for the library and
 * the command alike: a policy's limits, a profile's sizes and the command's
 * --sizes all read "4K" the same way.
 *
 * Also the library's few message helpers, one of each.  No stdio beyond
 * snprintf and no allocation: the policy and profile readers run at a
 * program's first copy.
 */
#include "internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int ucopy_size_span(const char *s, size_t n, size_t *out)
{
	size_t i = 0, v = 0;
	unsigned shift = 0;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
		unsigned d = (unsigned)(s[i] - '0');
		if (v > (SIZE_MAX - d) / 10)
			return -2;
		v = v * 10 + d;
	}
	if (i == 0)
		return -1;
	if (i < n) {
		switch (s[i]) {
		case 'k': case 'K': shift = 10; break;
		case 'm': case 'M': shift = 20; break;
		case 'g': case 'G': shift = 30; break;
		default: return -1;
		}
		if (i + 1 != n)
			return -1;
		if (v > (SIZE_MAX >> shift))
			return -2;
	}
	*out = v << shift;
	return 0;
}

int ucopy_size_parse(const char *s, size_t *out, char *err, size_t errlen)
{
	size_t n = s ? strlen(s) : 0;
	int rc = s ? ucopy_size_span(s, n, out) : -1;
	if (rc == 0)
		return 0;
	if (err && errlen) {
		struct ucopy_tok t = ucopy_quote(s ? s : "", n);
		if (rc == -2)
			snprintf(err, errlen, "size '%s' is too large", t.s);
		else
			snprintf(err, errlen, "bad size '%s' (expected a number with "
				 "optional K, M or G)", t.s);
	}
	return -1;
}

size_t ucopy_size_format(size_t v, char *buf, size_t len)
{
	static const char unit[] = "GMK";
	int n = -1;
	for (unsigned i = 0; i < 3 && n < 0; i++) {
		unsigned shift = 30 - 10 * i;
		if (v && v % ((size_t)1 << shift) == 0)
			n = snprintf(buf, len, "%zu%c", v >> shift, unit[i]);
	}
	if (n < 0)
		n = snprintf(buf, len, "%zu", v);
	return n < 0 ? 0 : (size_t)n;
}

int ucopy_fail(char *err, size_t errlen, const char *fmt, ...)
{
	if (err && errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* The first cap bytes of s[0..n) into buf, then "..." when that is not
 * all of it (keep bytes of buf are left for the "..." of a cut by the buffer
 * itself): bounded, so that a 10 000-rule policy gives a readable error;
 * control bytes shown as \xNN, so that a message never carries them raw;
 * a backslash doubled, so that "\x1b" in a file reads apart from an ESC. */
static char *show(const char *s, size_t n, size_t cap, char *buf, size_t len, size_t keep)
{
	size_t pos = 0, shown = n > cap ? cap : n;
	if (!len)
		return buf;
	size_t room = len > keep ? len - keep : 1;
	for (size_t i = 0; i < shown; i++) {
		unsigned char c = (unsigned char)s[i];
		size_t w = c < 0x20 || c == 0x7f ? 4 : c == '\\' ? 2 : 1;
		if (pos + w >= room) {
			shown = i;
			break;
		}
		if (w == 4)
			snprintf(buf + pos, len - pos, "\\x%02x", c);
		else if (w == 2)
			buf[pos] = buf[pos + 1] = '\\';
		else
			buf[pos] = (char)c;
		pos += w;
	}
	buf[pos] = 0;
	if (shown < n && pos + 3 < len)
		snprintf(buf + pos, len - pos, "...");
	return buf;
}

char *ucopy_show_token(const char *s, size_t n, char *buf, size_t len)
{
	return show(s, n, 40, buf, len, 0);
}

char *ucopy_show_text(const char *s, char *buf, size_t len)
{
	return show(s, strlen(s), SIZE_MAX, buf, len, 3);
}

struct ucopy_tok ucopy_quote(const char *s, size_t n)
{
	struct ucopy_tok t;
	ucopy_show_token(s, n, t.s, sizeof t.s);
	return t;
}

void ucopy_trim(const char **s, const char **e)
{
	while (*s < *e && isspace((unsigned char)**s))
		(*s)++;
	while (*e > *s && isspace((unsigned char)(*e)[-1]))
		(*e)--;
}

void ucopy_put(char *buf, size_t len, size_t *pos, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf && *pos < len ? buf + *pos : NULL,
			  buf && *pos < len ? len - *pos : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		*pos += (size_t)n;
}
