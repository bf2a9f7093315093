/*
 * env.c - the library's environment variables, read as glibc reads its
 * tunables.
 *
 * A program that runs with more privilege than the user who started it
 * (setuid, setgid, file capabilities: the kernel's AT_SECURE) has that
 * user's environment.  UCOPY_PROFILE=/etc/shadow would have the library open
 * a file the user cannot, and ucopy_active()'s reason say whether it exists;
 * HOME and XDG_CACHE_HOME choose the default profile's path as well.  There
 * the library reads none of them, as glibc ignores GLIBC_TUNABLES.
 */
#define _GNU_SOURCE
#include "env.h"

#include <stdlib.h>
#include <sys/auxv.h>

const char *ucopy_getenv(const char *name)
{
#ifdef __GLIBC__
	return secure_getenv(name);
#else
	/* Another C library, which may lack secure_getenv: the test glibc
	 * makes, on the flag the kernel passes. */
	return getauxval(AT_SECURE) ? NULL : getenv(name);
#endif
}
