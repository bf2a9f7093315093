/*
 * asm/cpucaps.h (ucopy kcompat, aarch64) - the CPU capabilities the
 * kernel's alternatives test (asm/alternative.h), each 1 or 0 when the
 * object is built: those ucopy detects follow `ucopy kbuild --features`
 * (UCOPY_KFEAT_NAME), the others are absent.  Without ARM64_HAS_UAO the
 * uaccess macros (asm/asm-uaccess.h) assemble plain loads and stores,
 * which at EL0 do what the unprivileged ldtr/sttr forms would.
 */
#ifndef UCOPY_KCOMPAT_ASM_CPUCAPS_H
#define UCOPY_KCOMPAT_ASM_CPUCAPS_H

#ifdef UCOPY_KFEAT_MOPS
#define ARM64_HAS_MOPS		1
#else
#define ARM64_HAS_MOPS		0
#endif
#ifdef UCOPY_KFEAT_SVE
#define ARM64_SVE		1
#else
#define ARM64_SVE		0
#endif

#define ARM64_HAS_UAO		0
#define ARM64_HAS_PAN		0
#define ARM64_ALT_PAN_NOT_UAO	0
#define ARM64_HAS_NO_HW_PREFETCH 0
#define ARM64_MTE		0

#endif
