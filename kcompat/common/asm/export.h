/* asm/export.h (ucopy kcompat) - the name the kernel used before 6.6. */
#include <linux/export.h>
