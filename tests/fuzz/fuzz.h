/*
 * fuzz.h - what the libFuzzer targets share.
 */
#ifndef UCOPY_FUZZ_H
#define UCOPY_FUZZ_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a C string (the parsers take text); NULL when out of memory.
 * The caller frees it. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (text) {
		memcpy(text, data, size);
		text[size] = '\0';
	}
	return text;
}

#endif
