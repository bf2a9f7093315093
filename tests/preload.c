/*
 * preload.c - the smallest LD_PRELOAD interposer over libucopy, for
 * tests/cli/interpose.sh: any dynamically linked program's memcpy and
 * memmove become ucopy_memcpy and ucopy_memmove.  The library is linked in
 * statically, so its own references to memcpy also land here: resolution
 * must never make one (docs/design.md, "First use").
 */
#include "ucopy.h"

#include <string.h>

__attribute__((visibility("default")))
void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	return ucopy_memcpy(dst, src, n);
}

__attribute__((visibility("default")))
void *memmove(void *dst, const void *src, size_t n)
{
	return ucopy_memmove(dst, src, n);
}
