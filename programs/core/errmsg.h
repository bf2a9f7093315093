/*
 * errmsg.h - the command's one helper for "return -1 with a message in err",
 * the convention of every parser and setup function in programs/.
 */
#ifndef UCOPY_ERRMSG_H
#define UCOPY_ERRMSG_H

#include <stdarg.h>
#include <stddef.h>

/* Writes the message into err (when errlen > 0; err may then be NULL).
 * @return : -1 */
int errmsg(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* errmsg() for a file's reader: "NAME:LINE: " and the message ("NAME: "
 * for line 0: the whole file's fault).
 * @return : -1 */
int verrmsg_at(char *err, size_t errlen, const char *name, unsigned long line,
	       const char *fmt, va_list ap) __attribute__((format(printf, 5, 0)));

/* A token from a file, as a message shows it: ucopy_show_token()
 * (include/ucopy.h), the library's own form. */
struct shown {
	char s[176];
};
struct shown errmsg_show(const char *s, size_t n);

#endif
