/*
 * linux/linkage.h (ucopy kcompat) - the kernel's function annotations, for
 * a kernel source built into a user-space shared object by `ucopy kbuild`
 * (docs/kbuild.md).
 *
 * A function keeps its name, but hidden: the object exports only the
 * wrapper kbuild adds, since the kernel's entry points have other calling
 * conventions than ucopy's `try` contract, and a hidden symbol is called
 * directly (no PLT) from that wrapper.  Exports are asm/export.h's.
 */
#ifndef UCOPY_KCOMPAT_LINUX_LINKAGE_H
#define UCOPY_KCOMPAT_LINUX_LINKAGE_H

#include <asm/linkage.h>

/* 16 bytes: x86-64's function alignment, and a multiple of aarch64's. */
#define UCOPY_KSYM_ALIGN .balign 16

#define UCOPY_KSYM_GLOBAL(name)	.globl name; .hidden name
#define UCOPY_KSYM_FUNC(name)	.type name, %function; name:

/* 5.5 and later */
#define SYM_FUNC_START(name)		UCOPY_KSYM_GLOBAL(name); UCOPY_KSYM_ALIGN; UCOPY_KSYM_FUNC(name)
#define SYM_FUNC_START_NOALIGN(name)	UCOPY_KSYM_GLOBAL(name); UCOPY_KSYM_FUNC(name)
#define SYM_FUNC_START_WEAK(name)	.weak name; .hidden name; UCOPY_KSYM_ALIGN; UCOPY_KSYM_FUNC(name)
#define SYM_FUNC_START_LOCAL(name)	UCOPY_KSYM_ALIGN; UCOPY_KSYM_FUNC(name)
#define SYM_FUNC_START_LOCAL_NOALIGN(name) UCOPY_KSYM_FUNC(name)
#define SYM_FUNC_END(name)		.size name, . - name
#define SYM_FUNC_ALIAS(alias, name)	.globl alias; .hidden alias; .set alias, name
#define SYM_FUNC_ALIAS_LOCAL(alias, name) .set alias, name
#define SYM_FUNC_ALIAS_WEAK(alias, name) .weak alias; .hidden alias; .set alias, name

/* Code that is no C function: entered by jumps, maybe a .L name. */
#define SYM_CODE_START(name)		UCOPY_KSYM_GLOBAL(name); UCOPY_KSYM_ALIGN; name:
#define SYM_CODE_START_NOALIGN(name)	UCOPY_KSYM_GLOBAL(name); name:
#define SYM_CODE_START_LOCAL(name)	UCOPY_KSYM_ALIGN; name:
#define SYM_CODE_START_LOCAL_NOALIGN(name) name:
#define SYM_CODE_END(name)
#define SYM_INNER_LABEL(name, linkage)	name:
#define SYM_INNER_LABEL_ALIGN(name, linkage) UCOPY_KSYM_ALIGN; name:

/* Before 5.5 */
#define ENTRY(name)	SYM_FUNC_START(name)
#define ENDPROC(name)	SYM_FUNC_END(name)
#define END(name)	.size name, . - name
#define WEAK(name)	SYM_FUNC_START_WEAK(name)
#define GLOBAL(name)	UCOPY_KSYM_GLOBAL(name); name:

#endif
