/*
 * x86_64/entries.h - the fast entries' indices, for the assembly that
 * defines the entries and their words (lib/kernels/x86_64/) and the C that
 * publishes the words (entry.c): definitions only, so both can include it.
 */
#ifndef UCOPY_X86_64_ENTRIES_H
#define UCOPY_X86_64_ENTRIES_H

#define ENTRY_SSE2 0
#define ENTRY_AVX2 1
#define ENTRY_AVX512 2
#define UCOPY_NENTRIES 3

#endif
