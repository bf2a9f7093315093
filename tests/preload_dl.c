/*
 * preload_dl.c - a library that tests/preload_prog.c loads with dlopen
 * after main has started: its memcpy must be the interposer's too.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>

const char *dl_copy(void *dst, const void *src, size_t n);

/* Copies through this library's own binding of memcpy, and says which
 * object that binding is in. */
__attribute__((visibility("default")))
const char *dl_copy(void *dst, const void *src, size_t n)
{
	void *(*volatile cpy)(void *, const void *, size_t) = memcpy;
	Dl_info info;
	cpy(dst, src, n);
	return dladdr((void *)cpy, &info) && info.dli_fname ? info.dli_fname : "?";
}
