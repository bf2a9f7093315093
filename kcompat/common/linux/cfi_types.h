/*
 * linux/cfi_types.h (ucopy kcompat) - a function with a kCFI type hash is
 * a plain function here: nothing calls it through a checked pointer.
 */
#ifndef UCOPY_KCOMPAT_LINUX_CFI_TYPES_H
#define UCOPY_KCOMPAT_LINUX_CFI_TYPES_H

#include <linux/linkage.h>

#define SYM_TYPED_FUNC_START(name)	SYM_FUNC_START(name)

#endif
