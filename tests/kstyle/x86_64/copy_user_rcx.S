/*
 * copy_user_rcx.S - a copy routine of ucopy's tests written as Linux 6.4's
 * arch/x86/lib/copy_user_64.S is (its includes, annotations and exception
 * entries, rep_movs_alternative's convention: rdi dst, rsi src, rcx count
 * in, rcx the bytes not copied out; ALTERNATIVE on ERMS), with code of its
 * own, for `ucopy kbuild` (tests/test_kbuild.c, tests/cli/kbuild.sh).
 *
 * Exact: a word that faults is copied again a byte at a time, which stops
 * at the first byte that faults.  Its wrong variants #define, before
 * including it, KSTYLE_NO_EXTABLE (the word store is not listed) or
 * KSTYLE_BAD_COUNT (the byte fixup returns one byte too few).
 */
#include <linux/linkage.h>
#include <asm/cpufeatures.h>
#include <asm/alternative.h>
#include <asm/asm.h>
#include <asm/export.h>

SYM_FUNC_START(rep_movs_alternative)
	cmpq $64,%rcx
	jae .Llarge

.Lword:
	cmpq $8,%rcx
	jb .Lbyte
10:	movq (%rsi),%rax
11:	movq %rax,(%rdi)
	addq $8,%rsi
	addq $8,%rdi
	subq $8,%rcx
	jmp .Lword

	_ASM_EXTABLE_UA(10b, .Lbyte)
#ifndef KSTYLE_NO_EXTABLE
	_ASM_EXTABLE_UA(11b, .Lbyte)
#endif

.Lbyte:
	testq %rcx,%rcx
	je .Lexit
20:	movb (%rsi),%al
21:	movb %al,(%rdi)
	incq %rsi
	incq %rdi
	decq %rcx
	jmp .Lbyte
.Lexit:
	RET

	_ASM_EXTABLE_UA(20b, .Lfault)
	_ASM_EXTABLE_UA(21b, .Lfault)

.Lfault:
#ifdef KSTYLE_BAD_COUNT
	decq %rcx
#endif
	RET

.Llarge:
0:	ALTERNATIVE "jmp .Lword", "rep movsb", X86_FEATURE_ERMS
1:	RET

	_ASM_EXTABLE_UA(0b, 1b)
SYM_FUNC_END(rep_movs_alternative)
EXPORT_SYMBOL(rep_movs_alternative)
