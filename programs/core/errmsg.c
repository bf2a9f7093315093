/*
 * errmsg.c - errmsg() (errmsg.h).
 */
#include "errmsg.h"
#include "ucopy.h"

#include <stdarg.h>
#include <stdio.h>

int errmsg(char *err, size_t errlen, const char *fmt, ...)
{
	if (err && errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

int verrmsg_at(char *err, size_t errlen, const char *name, unsigned long line,
	       const char *fmt, va_list ap)
{
	if (err && errlen) {
		int k = line ? snprintf(err, errlen, "%s:%lu: ", name, line)
			     : snprintf(err, errlen, "%s: ", name);
		if (k >= 0 && (size_t)k < errlen)
			vsnprintf(err + k, errlen - (size_t)k, fmt, ap);
	}
	return -1;
}

struct shown errmsg_show(const char *s, size_t n)
{
	struct shown t;
	ucopy_show_token(s, n, t.s, sizeof t.s);
	return t;
}
