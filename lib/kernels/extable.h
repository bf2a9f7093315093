/*
 * extable.h - the exception table's entries, the same on every port: the
 * gas syntax below is architecture-neutral (`;` separates statements on
 * x86-64 and aarch64 alike).  Included by each port's asm.h.
 */
#ifndef UCOPY_KERNELS_EXTABLE_H
#define UCOPY_KERNELS_EXTABLE_H

/* Lists the instruction at label `insn` as one that may fault; the signal
 * handler resumes a fault-tolerant copy at `fixup`.  Absolute addresses:
 * fault.c sorts the table in place once. */
#define EXTABLE(insn, fixup)                    \
	.pushsection ucopy_extable, "aw";       \
	.balign 8;                              \
	.quad insn, fixup;                      \
	.popsection

/* EX(fixup, insn): emits insn and, in a try body, lists it in the exception
 * table (a plain body has no fixups at all).  Only inside a gas macro with a
 * parameter `try`.  The numeric label 98 is reserved for it. */
#define EX(fixup, ...)                          \
98:	__VA_ARGS__;                            \
	.if \try > 0; EXTABLE(98b, fixup); .endif

#endif
