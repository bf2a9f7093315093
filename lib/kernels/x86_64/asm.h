/*
 * asm.h - macros shared by the x86-64 kernels.
 *
 * Every fault-capable kernel is written once, as a gas macro `NAME_body`
 * with one parameter `try`, and assembled twice by KERNEL(NAME):
 *   ucopy_k_NAME (try = 0)  the plain body, memcpy's contract: returns
 *                           {dst, 0} in rax:rdx, no exception table entries;
 *   ucopy_t_NAME (try = 1)  the try body: returns the bytes not copied in
 *                           rax (0 on success), every access that can fault
 *                           listed in the exception table with its fixup.
 * EX(), KDONE and RET test `\try` and may only be used inside such a body
 * macro (or a shared macro below that takes `try`; memmove.S passes -1:
 * neither body, see KDONE).  Labels in a body carry the suffix `_\try` so
 * that the two expansions do not collide.
 *
 * Register discipline (the kernel's copy_user_64.S keeps the same one): at
 * every load or store that can fault, the fixup it names can derive where the
 * copy stands from registers alone.  See README.md in this directory.
 */
#ifndef UCOPY_X86_64_ASM_H
#define UCOPY_X86_64_ASM_H

/* Control-flow protection, when the compiler is asked for it
 * (-fcf-protection defines __CET__: bit 0 IBT, bit 1 SHSTK): every routine
 * begins with an endbr64 landing pad for the indirect calls and jumps that
 * reach it (the kernel table, the dispatcher's jmp, the IFUNC'd entries),
 * and each object says in its GNU property note that it keeps both, so
 * that the linker, which ANDs the property over every object, does not
 * drop it for a whole program because of this library.  The kernels are
 * leaves that return where they were called from: the shadow stack holds
 * as it is, fault recovery included (the handler moves the program counter
 * within the routine, not the stack). */
#if defined(__CET__) && (__CET__ & 1)
#define ENDBR endbr64
#define ENDBR_LEN 4
#else
#define ENDBR
#define ENDBR_LEN 0
#endif
#ifdef __CET__
#include "../property.h"
/* GNU_PROPERTY_X86_FEATURE_1_AND: IBT 1, SHSTK 2. */
PROPERTY_NOTE(0xc0000002, (__CET__ & 3))
#endif

/* A hidden function: internal to libucopy, reached through the kernel table.
 * Every routine carries unwind information (.cfi_startproc to END), so that
 * a debugger, a profiler or backtrace() steps out of it, as they must when
 * ucopy_memcpy crashes on a bad pointer.  The kernels are leaves that never
 * move the stack pointer: the default rule (the return address at the CFA,
 * the stack pointer before the call) holds at every instruction, fixups
 * included; a routine that pushes says so where it does. */
#define FUNC(name)                      \
	.text;                          \
	.p2align 5;                     \
	FUNC_HERE(name)
/* The same where the code stands: a body right after its fast entry. */
#define FUNC_HERE(name)                 \
	.globl name;                    \
	.hidden name;                   \
	.type name, @function;          \
name:                                   \
	.cfi_startproc;                 \
	ENDBR

#define END(name) .cfi_endproc; .size name, . - name

/* EXTABLE(insn, fixup) and EX(fixup, insn). */
#include "../extable.h"

/* KDONE: the whole copy is done: left = 0 in rdx (plain), or 0 bytes not
 * copied in rax (try); nothing for try = -1, memmove.S's use of the shared
 * macros (it returns dst alone and has no exception table entries). */
#define KDONE .if \try > 0; xor %eax, %eax; .elseif \try == 0; xor %edx, %edx; .endif
#define RET KDONE; ret
/* RET after a path that wrote a ymm or zmm register: dirty upper halves
 * slow down the caller's SSE code. */
#define RET_VZ KDONE; vzeroupper; ret

/* KERNEL(name): the two bodies of the macro name_body.  Both set rax = dst
 * first (the try body overwrites it with its count; movsb_safe's and
 * movsb_coaligned's guards come before it, and their jumps leave it to the
 * avx2 body they enter) and differ on valid memory only in
 * `xor %edx, %edx` against `xor %eax, %eax`, both 2 bytes,
 * their fixup stubs coming after their returns; and both start a 64-byte
 * line.  So the try body runs the plain one's bytes at the same offsets in
 * the same lines: ucopy_try pays what ucopy_memcpy pays, not a different
 * layout's: without the mov it measured faster at some sizes and slower
 * at others (docs/performance.md, "ucopy_try vs ucopy_memcpy"). */
#define KERNEL(name)                    \
	.p2align 6;                     \
FUNC(ucopy_k_##name);                   \
	name##_body 0;                  \
END(ucopy_k_##name);                    \
	.p2align 6;                     \
FUNC(ucopy_t_##name);                   \
	name##_body 1;                  \
END(ucopy_t_##name)

/* KERNEL_ENTRY(name, idx, head): KERNEL(name), each body preceded by a fast
 * entry that ucopy_memcpy / ucopy_try resolve to (a GNU IFUNC, entry.S) on a
 * CPU where auto's first kernel is this one.  The entry is one compare and
 * branch: sizes below ucopy_entry_limit[idx] (ucopy_try_entry_limit[idx])
 * fall through into the body, the others jump to the generic entry.
 * dispatch.c sets the word to the active policy's first limit when its first
 * kernel is this one, whatever chose the policy (auto, UCOPY_POLICY, a
 * profile), and leaves it 0 otherwise: then every size takes the generic
 * path.
 *
 * The word's load is most of what the entry costs: the same compare with
 * an immediate measured faster (docs/performance-zen5.md, "What the entry
 * costs").  A policy chosen at run time needs it: it is the whole of
 * ucopy_memcpy's respect for UCOPY_POLICY and profiles below the first
 * limit.  Folded into the body's size dispatch as a word per class, it
 * cost more: each load more than the branch it saved (the same section).
 *
 * The entry is 13 bytes (7 + a rel32 jae: its target is in another object;
 * with IBT an endbr64 before them, and another starts the body, and where
 * the three no longer fit one line with the head, avx2's, the entry starts
 * a line) and ends `head` bytes before a 64-byte line: the body's first `head`
 * bytes (its size dispatch; for avx2 also 32..64) share the entry's line,
 * and the rest of the body starts the next one, as it would after KERNEL's
 * alignment.  With head 0 the body starts a line.  Both bodies get the
 * same layout, so ucopy_try pays what ucopy_memcpy pays.
 * tests/test_entry.c checks that each entry runs straight into its body and
 * that both bodies sit at the same place in a line. */
#define FAST_ENTRY(sym, words, idx, generic, head)      \
	.text;                                          \
	.p2align 6;                                     \
	.if 51 - (head) - 2 * ENDBR_LEN > 0;            \
	.skip 51 - (head) - 2 * ENDBR_LEN, 0xcc;        \
	.endif;                                         \
	.globl sym;                                     \
	.hidden sym;                                    \
	.hidden generic;                                \
	.type sym, @function;                           \
sym:                                                    \
	.cfi_startproc;                                 \
	ENDBR;                                          \
	cmp	words+8*idx(%rip), %rdx;                \
	jae	generic;                                \
	.cfi_endproc;                                   \
	.size sym, . - sym

#define KERNEL_ENTRY(name, idx, head)                                   \
	FAST_ENTRY(ucopy_memcpy_##name, ucopy_entry_limit, idx,         \
		   ucopy_memcpy_generic, head);                         \
FUNC_HERE(ucopy_k_##name);                                              \
	name##_body 0;                                                  \
END(ucopy_k_##name);                                                    \
	FAST_ENTRY(ucopy_try_##name, ucopy_try_entry_limit, idx,        \
		   ucopy_try_local, head);                              \
FUNC_HERE(ucopy_t_##name);                                              \
	name##_body 1;                                                  \
END(ucopy_t_##name)

/* The indices of the fast entries in ucopy_entry_limit[]. */
#include "entries.h"

/* Moves the cursors n bytes on (rsi, rdi forward, rdx back) once the n
 * bytes at them are stored: what a fixup reads stays committed.  128 as
 * -128, which fits a sign-extended 8-bit immediate (a shorter loop). */
.macro ADVANCE n
	.if \n == 128
	sub	$-128, %rsi
	sub	$-128, %rdi
	add	$-128, %rdx
	.else
	add	$\n, %rsi
	add	$\n, %rdi
	sub	$\n, %rdx
	.endif
.endm

/* The rdx bytes at rsi/rdi one at a time; ends with RET.  The cursors
 * advance after each store, so the fixup is the shared tail itself. */
.macro BYTES try
	test	%rdx, %rdx
	jz	.Ldone\@
.Lbyte\@:
	EX(ucopy_fixup_tail, movzbl (%rsi), %ecx)
	EX(ucopy_fixup_tail, movb %cl, (%rdi))
	inc	%rsi
	inc	%rdi
	dec	%rdx
	jnz	.Lbyte\@
.Ldone\@:
	RET
.endm

/* 8-byte words while 8 or more bytes remain, then BYTES. */
.macro WORDS_BYTES try
	cmp	$8, %rdx
	jb	.Lbytes\@
.Lwords\@:
	EX(ucopy_fixup_tail, movq (%rsi), %rcx)
	EX(ucopy_fixup_tail, movq %rcx, (%rdi))
	ADVANCE 8
	cmp	$8, %rdx
	jae	.Lwords\@
.Lbytes\@:
	BYTES \try
.endm

/* A copy of rdx bytes, size <= rdx <= 2 * size, as a head and a tail access
 * of `size` bytes that overlap: both loads before the stores, rdi/rsi/rdx
 * untouched, so a fault restarts the copy from its start.  op both loads
 * and stores (movl, movq, movdqu, vmovdqu, vmovdqu64); a, b its registers. */
.macro HEAD_TAIL try, fix, op, size, a, b
	EX(\fix, \op (%rsi), \a)
	EX(\fix, \op -\size(%rsi,%rdx), \b)
	EX(\fix, \op \a, (%rdi))
	EX(\fix, \op \b, -\size(%rdi,%rdx))
.endm

/* 1..3 bytes (edx) as bytes 0, n/2 and n-1, without a branch on the exact
 * size (stored in that order: each store starts inside or at the end of
 * what is written).  Falls through; the caller returns. */
.macro GPR_1_3 try, fix
	mov	%edx, %r8d
	shr	%r8d
	EX(\fix, movzbl (%rsi), %ecx)
	EX(\fix, movzbl (%rsi,%r8), %r9d)
	EX(\fix, movzbl -1(%rsi,%rdx), %r10d)
	EX(\fix, movb %cl, (%rdi))
	EX(\fix, movb %r9b, (%rdi,%r8))
	EX(\fix, movb %r10b, -1(%rdi,%rdx))
.endm

/* The 64 bytes at rsi/rdi, four xmm loads then four stores with st
 * (movdqu, movdqa, movntdq). */
.macro XMM_BLOCK try, fix, st
	EX(\fix, movdqu (%rsi), %xmm0)
	EX(\fix, movdqu 16(%rsi), %xmm1)
	EX(\fix, movdqu 32(%rsi), %xmm2)
	EX(\fix, movdqu 48(%rsi), %xmm3)
	EX(\fix, \st %xmm0, (%rdi))
	EX(\fix, \st %xmm1, 16(%rdi))
	EX(\fix, \st %xmm2, 32(%rdi))
	EX(\fix, \st %xmm3, 48(%rdi))
.endm

/* Four vectors of w bytes at off(%rsi) into registers a-d, and four
 * registers to the 4 * w bytes at rdi (aligned to w): the halves of avx2's
 * and avx512's block loops, which load one block ahead of the one they
 * store (each kernel says why). */
.macro LOAD_BLOCK try, fix, mov, w, off, a, b, c, d
	EX(\fix, \mov \off(%rsi), \a)
	EX(\fix, \mov \off+\w(%rsi), \b)
	EX(\fix, \mov \off+2*\w(%rsi), \c)
	EX(\fix, \mov \off+3*\w(%rsi), \d)
.endm

.macro STORE_BLOCK try, fix, mov, w, a, b, c, d
	EX(\fix, \mov \a, (%rdi))
	EX(\fix, \mov \b, \w(%rdi))
	EX(\fix, \mov \c, 2*\w(%rdi))
	EX(\fix, \mov \d, 3*\w(%rdi))
.endm

/* avx2's and avx512's block loop, after the caller's label .Lloop_\try
 * and a first block loaded into a0-a3: while a whole block lies past the
 * one in hand, load it into the other set, then store the one in hand, so
 * that the cursors stay at the first byte not stored.  Ends at
 * .Lblocks_done_\try with 1..4*w bytes left and both sets stored. */
.macro BLOCKS_AHEAD try, fix, ld, st, w, a0, a1, a2, a3, b0, b1, b2, b3
	cmp	$8*\w, %rdx
	jbe	.Lstore_a_\try
	LOAD_BLOCK \try, \fix, \ld, \w, 4*\w, \b0, \b1, \b2, \b3
	STORE_BLOCK \try, \fix, \st, \w, \a0, \a1, \a2, \a3
	ADVANCE 4*\w
	cmp	$8*\w, %rdx
	jbe	.Lstore_b_\try
	LOAD_BLOCK \try, \fix, \ld, \w, 4*\w, \a0, \a1, \a2, \a3
	STORE_BLOCK \try, \fix, \st, \w, \b0, \b1, \b2, \b3
	ADVANCE 4*\w
	jmp	.Lloop_\try
.Lstore_b_\try:
	STORE_BLOCK \try, \fix, \st, \w, \b0, \b1, \b2, \b3
	ADVANCE 4*\w
	jmp	.Lblocks_done_\try
.Lstore_a_\try:
	STORE_BLOCK \try, \fix, \st, \w, \a0, \a1, \a2, \a3
	ADVANCE 4*\w
.Lblocks_done_\try:
.endm

/* The last 64 bytes of the copy (rsi + rdx, rdi + rdx), xmm0-3. */
.macro XMM_LAST64 try, fix
	EX(\fix, movdqu -64(%rsi,%rdx), %xmm0)
	EX(\fix, movdqu -48(%rsi,%rdx), %xmm1)
	EX(\fix, movdqu -32(%rsi,%rdx), %xmm2)
	EX(\fix, movdqu -16(%rsi,%rdx), %xmm3)
	EX(\fix, movdqu %xmm0, -64(%rdi,%rdx))
	EX(\fix, movdqu %xmm1, -48(%rdi,%rdx))
	EX(\fix, movdqu %xmm2, -32(%rdi,%rdx))
	EX(\fix, movdqu %xmm3, -16(%rdi,%rdx))
.endm

/* sse2's classes up to 128 bytes (V = 16), also memmove's short copies:
 * every class loads all its bytes before it stores any, so it is correct
 * for overlapping regions too.  Larger sizes jump to gt128. */
.macro SSE2_LE128 try, fix, gt128
	cmp	$16, %rdx
	jbe	.Lle16\@
	cmp	$32, %rdx
	ja	.Lgt32\@
	HEAD_TAIL \try, \fix, movdqu, 16, %xmm0, %xmm1
	RET

.Lle16\@:
	cmp	$8, %edx
	jae	.L8_16\@
	cmp	$4, %edx
	jae	.L4_7\@
	cmp	$1, %edx
	ja	.L2_3\@
	jb	.Lret\@
	EX(\fix, movzbl (%rsi), %ecx)
	EX(\fix, movb %cl, (%rdi))
.Lret\@:
	RET
.L2_3\@:
	EX(\fix, movzwl (%rsi), %ecx)
	EX(\fix, movzwl -2(%rsi,%rdx), %r8d)
	EX(\fix, movw %cx, (%rdi))
	EX(\fix, movw %r8w, -2(%rdi,%rdx))
	RET
.L4_7\@:
	HEAD_TAIL \try, \fix, movl, 4, %ecx, %r8d
	RET
.L8_16\@:
	HEAD_TAIL \try, \fix, movq, 8, %rcx, %r8
	RET

.Lgt32\@:
	cmp	$64, %rdx
	ja	.Lgt64\@
	EX(\fix, movdqu (%rsi), %xmm0)
	EX(\fix, movdqu 16(%rsi), %xmm1)
	EX(\fix, movdqu -32(%rsi,%rdx), %xmm2)
	EX(\fix, movdqu -16(%rsi,%rdx), %xmm3)
	EX(\fix, movdqu %xmm0, (%rdi))
	EX(\fix, movdqu %xmm1, 16(%rdi))
	EX(\fix, movdqu %xmm2, -32(%rdi,%rdx))
	EX(\fix, movdqu %xmm3, -16(%rdi,%rdx))
	RET

.Lgt64\@:
	cmp	$128, %rdx
	ja	\gt128
	EX(\fix, movdqu (%rsi), %xmm0)
	EX(\fix, movdqu 16(%rsi), %xmm1)
	EX(\fix, movdqu 32(%rsi), %xmm2)
	EX(\fix, movdqu 48(%rsi), %xmm3)
	EX(\fix, movdqu -64(%rsi,%rdx), %xmm4)
	EX(\fix, movdqu -48(%rsi,%rdx), %xmm5)
	EX(\fix, movdqu -32(%rsi,%rdx), %xmm6)
	EX(\fix, movdqu -16(%rsi,%rdx), %xmm7)
	EX(\fix, movdqu %xmm0, (%rdi))
	EX(\fix, movdqu %xmm1, 16(%rdi))
	EX(\fix, movdqu %xmm2, 32(%rdi))
	EX(\fix, movdqu %xmm3, 48(%rdi))
	EX(\fix, movdqu %xmm4, -64(%rdi,%rdx))
	EX(\fix, movdqu %xmm5, -48(%rdi,%rdx))
	EX(\fix, movdqu %xmm6, -32(%rdi,%rdx))
	EX(\fix, movdqu %xmm7, -16(%rdi,%rdx))
	RET
.endm

/* A block loop that starts a 64-byte line runs from as few lines of code
 * as its size allows: a loop across two lines took longer than the same
 * loop in one (docs/performance-zen3.md, "The block loop's line").
 * LOOP_LINE_PAD from, n, placed after a ret where no copy runs through
 * it, pads with int3 so that the n bytes after it end a line, and defines
 * the label `from` there: the loop's setup.  LOOP_AT_LINE_START from, at
 * the loop, stops the build if the setup is not those n bytes. */
.macro LOOP_LINE_PAD from, n
	.p2align 6, 0xcc
	.skip 64 - \n, 0xcc
\from:
	.set \from\()_setup, \n
.endm

.macro LOOP_AT_LINE_START from
	.if . - \from - \from\()_setup
	.error "the block loop does not start a 64-byte line: its setup changed size"
	.endif
.endm

/* Moves the cursors (rdi, rsi) forward to the next \width-byte boundary of
 * dst, 1..\width bytes, and rdx back by as much, so the loop after can use
 * aligned stores.  The bytes skipped are a head vector's, which the caller
 * stores itself: the kernels store it first, so the cursors stay committed
 * for a fixup; memmove's forward path stores it last. */
.macro ALIGN_DST width
	mov	%edi, %ecx
	and	$\width - 1, %ecx
	sub	$\width, %rcx
	sub	%rcx, %rdi
	sub	%rcx, %rsi
	add	%rcx, %rdx
.endm

/* NT_PREFETCH: while copying a 16 KiB group, each 256-byte block prefetches
 * one line in each of the next group's four 4 KiB pages, so that the loads
 * stream from up to eight pages at once while the stores stay in order.
 * With a single stream of loads (the hardware prefetcher does not follow it
 * across a page end) nt stayed well behind glibc 2.36's non-temporal
 * loop, which copies two or four pages interleaved; with the prefetches
 * it is ahead (docs/performance-kernels.md, "nt and nt512").  glibc's
 * interleaved stores measured no faster than these interleaved
 * prefetches, and they would write past a fault.  prefetchnta, or
 * prefetches one page ahead in the same stream, measured slower or no
 * faster. */
#define NT_GROUP 16384

.macro NT_PREFETCH
	prefetcht0	(%r9)
	prefetcht0	4096(%r9)
	prefetcht0	8192(%r9)
	prefetcht0	12288(%r9)
	add	$64, %r9
.endm

/* The streaming part of nt and nt512, after the head block has been copied
 * with ordinary stores: the cursors move up to the next cache line of dst
 * (the head committed dst[0..64), so they stay committed), then 16 KiB
 * groups of 256-byte blocks with NT_PREFETCH, then single lines, an sfence,
 * and the last 64 bytes from the end.  The kernel supplies three macros:
 * \block (the 256-byte block at the cursors), \line (the line at offset 0)
 * and \last (the last 64 bytes, ordinary stores).  The fixup .Lfix_\try
 * runs sfence, so the streaming stores are ordered before the tail's. */
.macro NT_STREAM try, block, line, last
	ALIGN_DST 64
	cmp	$NT_GROUP, %rdx
	jbe	.Llines_\try
.Lgroup_\try:
	lea	NT_GROUP(%rsi), %r9
	mov	$NT_GROUP / 256, %ecx
	.p2align 4
.Lblock_\try:
	NT_PREFETCH
	\block \try
	ADVANCE 256
	dec	%ecx
	jnz	.Lblock_\try
	cmp	$NT_GROUP, %rdx
	ja	.Lgroup_\try
.Llines_\try:
	cmp	$64, %rdx
	jbe	.Llast_\try
.Lline_\try:
	\line \try, 0
	ADVANCE 64
	cmp	$64, %rdx
	ja	.Lline_\try
.Llast_\try:
	sfence
	\last \try
	RET

	.if \try
.Lfix_\try:
	sfence
	jmp	ucopy_fixup_tail
	.endif
.endm

#endif
