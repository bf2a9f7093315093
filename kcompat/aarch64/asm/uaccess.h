/* asm/uaccess.h (ucopy kcompat, aarch64) - where 4.9 kept asm-uaccess.h's macros. */
#include <asm/asm-uaccess.h>
