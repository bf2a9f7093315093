/*
 * asm/cpufeatures.h (ucopy kcompat, x86-64) - each X86_FEATURE_ is 1 when
 * `ucopy kbuild` builds for a CPU with it (it defines UCOPY_KFEAT_NAME for
 * every ucopy feature of its list), else 0: ALTERNATIVE tests these
 * (asm/alternative.h).  Features ucopy does not detect are absent; a name
 * not listed here does not assemble.
 */
#ifndef UCOPY_KCOMPAT_ASM_CPUFEATURES_H
#define UCOPY_KCOMPAT_ASM_CPUFEATURES_H

#ifdef UCOPY_KFEAT_SSE2
#define X86_FEATURE_XMM2	1
#else
#define X86_FEATURE_XMM2	0
#endif
#ifdef UCOPY_KFEAT_AVX
#define X86_FEATURE_AVX		1
#else
#define X86_FEATURE_AVX		0
#endif
#ifdef UCOPY_KFEAT_AVX2
#define X86_FEATURE_AVX2	1
#else
#define X86_FEATURE_AVX2	0
#endif
#ifdef UCOPY_KFEAT_AVX512F
#define X86_FEATURE_AVX512F	1
#else
#define X86_FEATURE_AVX512F	0
#endif
#ifdef UCOPY_KFEAT_AVX512BW
#define X86_FEATURE_AVX512BW	1
#else
#define X86_FEATURE_AVX512BW	0
#endif
#ifdef UCOPY_KFEAT_AVX512VL
#define X86_FEATURE_AVX512VL	1
#else
#define X86_FEATURE_AVX512VL	0
#endif
#ifdef UCOPY_KFEAT_ERMS
#define X86_FEATURE_ERMS	1
#else
#define X86_FEATURE_ERMS	0
#endif
#ifdef UCOPY_KFEAT_FSRM
#define X86_FEATURE_FSRM	1
#else
#define X86_FEATURE_FSRM	0
#endif
#ifdef UCOPY_KFEAT_FZRM
#define X86_FEATURE_FZRM	1
#else
#define X86_FEATURE_FZRM	0
#endif
#ifdef UCOPY_KFEAT_FSRS
#define X86_FEATURE_FSRS	1
#else
#define X86_FEATURE_FSRS	0
#endif
#ifdef UCOPY_KFEAT_FSRC
#define X86_FEATURE_FSRC	1
#else
#define X86_FEATURE_FSRC	0
#endif
#ifdef UCOPY_KFEAT_REP_GOOD
#define X86_FEATURE_REP_GOOD	1
#else
#define X86_FEATURE_REP_GOOD	0
#endif

/* What every x86-64 CPU has, and what no user-space build is. */
#define X86_FEATURE_ALWAYS	1
#define X86_FEATURE_XMM		1
#define X86_FEATURE_SMAP	0
#define X86_FEATURE_XENPV	0
#define X86_FEATURE_RETPOLINE	0
#define X86_FEATURE_RETHUNK	0
#define X86_FEATURE_CLEAR_CPU_BUF 0

#endif
