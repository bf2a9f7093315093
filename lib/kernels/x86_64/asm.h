/*
 * asm.h - macros shared by the x86-64 kernels.
 *
 * Register discipline (the kernel's copy_user_64.S keeps the same one): at
 * every load or store that can fault, the fixup it names can derive where the
 * copy stands from registers alone.  See README.md in this directory.
 */
#ifndef UCOPY_X86_64_ASM_H
#define UCOPY_X86_64_ASM_H

/* A hidden function: internal to libucopy, reached through the kernel table. */
#define FUNC(name)                      \
	.text;                          \
	.globl name;                    \
	.hidden name;                   \
	.type name, @function;          \
	.p2align 5;                     \
name:

#define END(name) .size name, . - name

/* Lists the instruction at label `insn` as one that may fault; the signal
 * handler resumes a fault-tolerant copy at `fixup`. */
#define EXTABLE(insn, fixup)                    \
	.pushsection ucopy_extable, "aw";       \
	.balign 8;                              \
	.quad insn, fixup;                      \
	.popsection

/* EX(fixup, insn): emits insn and lists it in the exception table.  The
 * numeric label 98 is reserved for it. */
#define EX(fixup, ...)                          \
98:	__VA_ARGS__;                            \
	EXTABLE(98b, fixup)

#endif
