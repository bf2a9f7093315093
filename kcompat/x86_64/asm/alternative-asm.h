/* asm/alternative-asm.h (ucopy kcompat, x86-64) - the name before 5.10. */
#include <asm/alternative.h>
