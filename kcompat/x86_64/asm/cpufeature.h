/* asm/cpufeature.h (ucopy kcompat, x86-64) - the older name. */
#include <asm/cpufeatures.h>
