/*
 * static_prog.c - built with -static by tests/cli/not_loaded.sh: a program
 * that ignores LD_PRELOAD.  Copies a little and exits with argv[1].
 */
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	static char src[256], dst[256];
	void *(*volatile cpy)(void *, const void *, size_t) = memcpy;
	for (int i = 0; i < 100; i++)
		cpy(dst, src, 1 + i);
	return argc > 1 ? atoi(argv[1]) : 0;
}
