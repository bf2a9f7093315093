/*
 * linux/objtool.h (ucopy kcompat) - annotations for the kernel's object
 * checker, which no user-space build runs.
 */
#ifndef UCOPY_KCOMPAT_LINUX_OBJTOOL_H
#define UCOPY_KCOMPAT_LINUX_OBJTOOL_H

#define ANNOTATE_NOENDBR
#define ANNOTATE_RETPOLINE_SAFE
#define ANNOTATE_UNRET_SAFE
#define ANNOTATE_INTRA_FUNCTION_CALL
#define ANNOTATE_NOINSTR_ALLOWED
#define ANNOTATE_NOCFI_SYM
#define UNWIND_HINT_EMPTY
#define UNWIND_HINT_UNDEFINED
#define UNWIND_HINT_FUNC
#define STACK_FRAME_NON_STANDARD(func)

#endif
