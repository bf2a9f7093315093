/*
 * asm.h - macros shared by the aarch64 kernels.
 *
 * As on x86-64 (lib/kernels/x86_64/asm.h), every fault-capable kernel is a
 * gas macro `NAME_body try` assembled twice by KERNEL(NAME):
 *   ucopy_k_NAME (try = 0)  the plain body: returns {dst, 0} in x0:x1, as
 *                           memcpy returns dst in x0; no table entries;
 *   ucopy_t_NAME (try = 1)  the try body: returns the bytes not copied in x0,
 *                           every access that can fault listed in the
 *                           exception table with its fixup.
 * README.md in this directory gives the register discipline.
 */
#ifndef UCOPY_AARCH64_ASM_H
#define UCOPY_AARCH64_ASM_H

/* Branch protection, when the compiler is asked for it
 * (-mbranch-protection=standard defines __ARM_FEATURE_BTI_DEFAULT and
 * __ARM_FEATURE_PAC_DEFAULT): every routine begins with a `bti c` landing
 * pad for the indirect calls that reach it (the kernel table's blr, the
 * dispatcher's br through x16, which `bti c` accepts), and each object says
 * in its GNU property note that it keeps BTI and PAC, so that the linker,
 * which ANDs the property over every object, does not drop it because of
 * this library.  The routines are leaves that never save x30, so there is
 * no return address to sign. */
#ifdef __ARM_FEATURE_BTI_DEFAULT
#define BTI_C bti c
#define PROP_BTI 1
#else
#define BTI_C
#define PROP_BTI 0
#endif
#ifdef __ARM_FEATURE_PAC_DEFAULT
#define PROP_PAC 2
#else
#define PROP_PAC 0
#endif
#if PROP_BTI || PROP_PAC
#include "../property.h"
/* GNU_PROPERTY_AARCH64_FEATURE_1_AND: BTI 1, PAC 2. */
PROPERTY_NOTE(0xc0000000, (PROP_BTI | PROP_PAC))
#endif

/* Every routine carries unwind information (.cfi_startproc to END), so that
 * a debugger, a profiler or backtrace() steps out of it.  The kernels are
 * leaves that never touch sp or x30: the default rule (the return address
 * in x30, the CFA at sp) holds at every instruction, fixups included. */
#define FUNC(name)                      \
	.text;                          \
	.globl name;                    \
	.hidden name;                   \
	.type name, %function;          \
	.p2align 6;                     \
name:                                   \
	.cfi_startproc;                 \
	BTI_C

#define END(name) .cfi_endproc; .size name, . - name

/* EXTABLE(insn, fixup) and EX(fixup, insn). */
#include "../extable.h"

/* The whole copy is done: left = 0 in x1 (plain; x0 is still dst), or 0
 * bytes not copied in x0 (try). */
#define KDONE .if \try > 0; mov x0, xzr; .else; mov x1, xzr; .endif
#define RET KDONE; ret

#define KERNEL(name)                    \
FUNC(ucopy_k_##name);                   \
	name##_body 0;                  \
END(ucopy_k_##name);                    \
FUNC(ucopy_t_##name);                   \
	name##_body 1;                  \
END(ucopy_t_##name)

/* Register discipline, at every access that can fault:
 *   x0  the original dst, never written before the return
 *   x3  dst cursor: dst[0 .. x3 - x0) is committed (equals src)
 *   x1  src cursor, at the same offset
 *   x2  bytes from the cursor to the end
 * so ucopy_fixup_tail can finish from registers alone.  x30 and sp are
 * never touched (no kernel calls or spills): a fixup returns with `ret`.
 * Scratch: x4-x15, v0-v7. */

/* The cursors move n bytes on once the bytes at them are stored. */
.macro ADVANCE n
	add	x1, x1, #\n
	add	x3, x3, #\n
	sub	x2, x2, #\n
.endm

/* The x2 bytes at the cursors one at a time; ends with RET. */
.macro BYTES try
	cbz	x2, .Ldone\@
.Lbyte\@:
	EX(ucopy_fixup_tail, ldrb w4, [x1])
	EX(ucopy_fixup_tail, strb w4, [x3])
	ADVANCE 1
	cbnz	x2, .Lbyte\@
.Ldone\@:
	RET
.endm

/* 8-byte words while 8 or more bytes remain, then BYTES. */
.macro WORDS_BYTES try
	cmp	x2, #8
	b.lo	.Lbytes\@
.Lwords\@:
	EX(ucopy_fixup_tail, ldr x4, [x1])
	EX(ucopy_fixup_tail, str x4, [x3])
	ADVANCE 8
	cmp	x2, #8
	b.hs	.Lwords\@
.Lbytes\@:
	BYTES \try
.endm

/* One access of the template kernels: the plain load/store (u blank) or
 * the unprivileged one (u = t: ldtr, sttr, which have no pair or register
 * offset form).  sz: b, h, or blank; reg: w4 or x4. */
.macro LD try, u, sz, reg, off=0
	EX(ucopy_fixup_tail, ld\u\()r\sz \reg, [x1, #\off])
.endm
.macro ST try, u, sz, reg, off=0
	EX(ucopy_fixup_tail, st\u\()r\sz \reg, [x3, #\off])
.endm

/* Up to 15 bytes, as the bits of x2 say: 8, 4, 2, 1 (the tail of
 * arch/arm64/lib/copy_template.S, .Ltiny15).  Each store starts where the
 * last ended.  Ends with RET. */
.macro TINY15 try, u
	tbz	x2, #3, 1f
	LD	\try, \u, , x4
	ST	\try, \u, , x4
	ADVANCE 8
1:	tbz	x2, #2, 2f
	LD	\try, \u, , w4
	ST	\try, \u, , w4
	ADVANCE 4
2:	tbz	x2, #1, 3f
	LD	\try, \u, h, w4
	ST	\try, \u, h, w4
	ADVANCE 2
3:	tbz	x2, #0, 4f
	LD	\try, \u, b, w4
	ST	\try, \u, b, w4
	ADVANCE 1
4:	RET
.endm

/* 16 bytes at offset off from the cursors into a, b: one ldp (u blank) or
 * two ldtr (u = t); and the matching store. */
.macro LDP16 try, u, a, b, off
	.ifb \u
	EX(ucopy_fixup_tail, ldp \a, \b, [x1, #\off])
	.else
	EX(ucopy_fixup_tail, ldtr \a, [x1, #\off])
	EX(ucopy_fixup_tail, ldtr \b, [x1, #\off + 8])
	.endif
.endm
.macro STP16 try, u, a, b, off
	.ifb \u
	EX(ucopy_fixup_tail, stp \a, \b, [x3, #\off])
	.else
	EX(ucopy_fixup_tail, sttr \a, [x3, #\off])
	EX(ucopy_fixup_tail, sttr \b, [x3, #\off + 8])
	.endif
.endm

#endif
