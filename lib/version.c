/*
 * version.c - the library's own version, for programs linked to another.
 */
#include "internal.h"

#define STR_(x) #x
#define STR(x) STR_(x)

const char *ucopy_version_string(void)
{
	return STR(UCOPY_VERSION_MAJOR) "." STR(UCOPY_VERSION_MINOR) "." STR(UCOPY_VERSION_PATCH);
}
