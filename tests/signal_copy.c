/*
 * signal_copy.c - a shared object holding a copy of libucopy.a of its own,
 * built twice by tests/cli/signal_prog.sh (-DCOPY=a and -DCOPY=b, linked
 * with -Bsymbolic), so that one process holds two copies of ucopy's
 * handler, as a program does whose two libraries each link libucopy.a.
 */
#include "ucopy.h"

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)

__attribute__((visibility("default"))) int CAT(COPY, _fault_init)(void);
int CAT(COPY, _fault_init)(void)
{
	return ucopy_fault_init();
}
