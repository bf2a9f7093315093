/*
 * copy_user_eax.S - copy routines of ucopy's tests written as Linux 6.3's
 * arch/x86/lib/copy_user_64.S is (its includes, ASM_STAC/ASM_CLAC, the
 * copy_user_* convention: rdi dst, rsi src, rdx count in, eax the bytes
 * not copied out; _ASM_EXTABLE_CPY, whose fixups get the trap number in
 * eax), with code of its own, for `ucopy kbuild` (tests/test_kbuild.c).
 *
 * The tail handler gives up at once on a machine check, as the kernel's
 * does, and returns ~0, a count no caller can take, when eax holds
 * anything but a page fault's trap number: a build whose fault sites do not
 * hand the fixup X86_TRAP_PF fails every fault case.
 */
#include <linux/linkage.h>
#include <asm/current.h>
#include <asm/asm-offsets.h>
#include <asm/thread_info.h>
#include <asm/cpufeatures.h>
#include <asm/alternative.h>
#include <asm/asm.h>
#include <asm/smap.h>
#include <asm/export.h>
#include <asm/trapnr.h>

/* Words, then bytes; a fault goes to the tail handler with edx bytes left. */
SYM_FUNC_START(copy_user_generic_unrolled)
	ASM_STAC
	xorl %eax,%eax
.Lunrolled:
	movl %edx,%ecx
	shrl $3,%ecx
	andl $7,%edx
	jmp 3f
1:	movq (%rsi),%r8
2:	movq %r8,(%rdi)
	leaq 8(%rsi),%rsi
	leaq 8(%rdi),%rdi
	decl %ecx
3:	testl %ecx,%ecx
	jnz 1b
	jmp .Lcopy_user_handle_tail

30:	leal (%rdx,%rcx,8),%edx
	jmp .Lcopy_user_handle_tail

	_ASM_EXTABLE_CPY(1b, 30b)
	_ASM_EXTABLE_CPY(2b, 30b)
SYM_FUNC_END(copy_user_generic_unrolled)
EXPORT_SYMBOL(copy_user_generic_unrolled)

/* rep movsb, short copies without FSRM by the word loop. */
SYM_FUNC_START(copy_user_enhanced_fast_string)
	ASM_STAC
	xorl %eax,%eax
	ALTERNATIVE "cmpl $64, %edx; jb .Lunrolled", "", X86_FEATURE_FSRM
	movl %edx,%ecx
1:	rep movsb
	xorl %eax,%eax
	ASM_CLAC
	RET

12:	movl %ecx,%edx
	jmp .Lcopy_user_handle_tail

	_ASM_EXTABLE_CPY(1b, 12b)
SYM_FUNC_END(copy_user_enhanced_fast_string)
EXPORT_SYMBOL(copy_user_enhanced_fast_string)

/*
 * The last edx bytes a byte at a time (the whole copy's tail, or what was
 * left when a word faulted): a fault stops it at the first bad byte.
 * Input: eax 0, or the trap number of the fault that brought it here.
 */
SYM_CODE_START_LOCAL(.Lcopy_user_handle_tail)
	cmpl $X86_TRAP_MC,%eax
	je 3f
	testl %eax,%eax
	jz 0f
	cmpl $X86_TRAP_PF,%eax
	jne 4f
0:	movl %edx,%ecx
1:	rep movsb
2:	movl %ecx,%eax
	ASM_CLAC
	RET

3:	movl %edx,%eax
	ASM_CLAC
	RET

4:	movl $-1,%eax
	ASM_CLAC
	RET

	_ASM_EXTABLE_CPY(1b, 2b)
SYM_CODE_END(.Lcopy_user_handle_tail)
