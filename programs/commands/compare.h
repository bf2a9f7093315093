/*
 * compare.h - the two halves of `ucopy compare`: without '--' the workload
 * compare (compare.c), which hands a command line with one to the program
 * compare (compare_prog.c).  Both reach their verdict through verdict.h.
 */
#ifndef UCOPY_COMPARE_H
#define UCOPY_COMPARE_H

#include <stdio.h>

/* `ucopy compare A B [...] -- CMD ARGS` (compare_prog.c): argv[dd] is
 * the "--". */
int compare_program(int argc, char **argv, int dd);
void help_compare_program(FILE *f);

#endif
