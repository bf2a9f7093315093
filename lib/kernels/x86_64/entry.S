/*
 * entry.S - the exported entry points ucopy_memcpy and ucopy_try.
 *
 * Assumptions: x86-64 SysV, an ELF toolchain with GNU IFUNC (binutils 2.20+,
 * glibc 2.11+; static, static-pie and shared links alike).
 *
 * ucopy_memcpy and ucopy_try are GNU indirect functions.  Their resolver
 * picks, by raw CPUID/XGETBV, the fast entry of the kernel that auto runs
 * for small copies on this CPU (avx512 where AVX-512F/BW/VL and AVX-VNNI,
 * else avx2, else sse2: ucopy_arch_auto in x86_64/policies.c): a compare
 * of the size with ucopy_entry_limit[k] and a fall-through into the kernel body
 * (KERNEL_ENTRY in asm.h).  dispatch.c sets that word to the active
 * policy's first limit when the policy's first kernel is k, so the default
 * policy (and any other that starts with the same kernel) pays one
 * compare-and-branch and no indirect jump for its small copies.  Sizes at or
 * above the word, and all sizes while it is 0 (before first use, or when
 * the active policy starts with another kernel), take the generic entry
 * below.  The resolver calls nothing: in a static binary IRELATIVE
 * relocations are applied before the C library is initialised, and it runs
 * before ASan's runtime in a sanitized one.
 *
 * The generic entries: dispatch.c compiles the active policy into
 * ucopy_first_limit/ucopy_first_fn (its first rule),
 * ucopy_second_limit/ucopy_second_fn (its second) and ucopy_memcpy_impl
 * (what handles every larger size: the third kernel or the rule scan);
 * before first use the limits are 0 and the impl is the resolver.  So a
 * policy of up to three rules, auto's among them, runs every size with
 * compares and one indirect jump.  ucopy_try has the same five words for
 * the try bodies, set only once ucopy's signal handler is installed; until
 * then its limits are 0 and its impl ucopy_try_cold.
 *
 * A plain body returns {dst, left} in rax:rdx, rax being what memcpy
 * returns, and a try body returns the count not copied in rax, what
 * ucopy_try returns: so neither entry needs a frame or a second call.  The
 * generic entry's compare and indirect jump are a visible share of a small
 * copy's time, which the fast entry saves (docs/performance.md, "The
 * memcpy entry").
 */
#include "asm.h"

.macro DISPATCH limit, first, limit2, second, rest
	cmp	\limit(%rip), %rdx
	jae	1f
	jmp	*\first(%rip)
1:	cmp	\limit2(%rip), %rdx
	jae	2f
	jmp	*\second(%rip)
2:	jmp	*\rest(%rip)
.endm

	.text
	.globl ucopy_memcpy_generic
	.hidden ucopy_memcpy_generic
	.type ucopy_memcpy_generic, @function
	.p2align 5
ucopy_memcpy_generic:
	.cfi_startproc
	ENDBR
	DISPATCH ucopy_first_limit, ucopy_first_fn, ucopy_second_limit, ucopy_second_fn, \
		 ucopy_memcpy_impl
	.cfi_endproc
	.size ucopy_memcpy_generic, . - ucopy_memcpy_generic

	/* The library's own calls use the hidden name: no PLT, no IFUNC. */
	.globl ucopy_try_local
	.hidden ucopy_try_local
	.type ucopy_try_local, @function
	.p2align 5
ucopy_try_local:
	.cfi_startproc
	ENDBR
	DISPATCH ucopy_try_first_limit, ucopy_try_first_fn, ucopy_try_second_limit, \
		 ucopy_try_second_fn, ucopy_try_impl
	.cfi_endproc
	.size ucopy_try_local, . - ucopy_try_local

/* The fast entry for this CPU, by ENTRY_* index in eax: the tests of
 * cpu.c (OSXSAVE, XCR0 SSE+AVX state for AVX2, + opmask/ZMM state for
 * AVX-512) and auto's choice in x86_64/policies.c.  Clobbers rcx, rdx, r8-r10
 * (a C function: tests/test_entry.c checks it against auto). */
	.globl ucopy_entry_class
	.hidden ucopy_entry_class
	.type ucopy_entry_class, @function
	.p2align 4
ucopy_entry_class:
	.cfi_startproc
	ENDBR
	push	%rbx
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbx, 0
	mov	$ENTRY_SSE2, %r8d
	xor	%eax, %eax
	cpuid
	cmp	$7, %eax
	jb	9f
	mov	$1, %eax
	cpuid
	bt	$27, %ecx		/* OSXSAVE */
	jnc	9f
	xor	%ecx, %ecx
	xgetbv
	mov	%eax, %r9d		/* XCR0 */
	and	$0x6, %eax
	cmp	$0x6, %eax
	jne	9f
	mov	$7, %eax
	xor	%ecx, %ecx
	cpuid
	mov	%eax, %r10d		/* subleaves of leaf 7 */
	bt	$5, %ebx		/* AVX2 */
	jnc	9f
	mov	$ENTRY_AVX2, %r8d
	and	$0xc0010000, %ebx	/* AVX512F, BW, VL */
	cmp	$0xc0010000, %ebx
	jne	9f
	and	$0xe6, %r9d
	cmp	$0xe6, %r9d
	jne	9f
	test	%r10d, %r10d
	jz	9f
	mov	$7, %eax
	mov	$1, %ecx
	cpuid
	bt	$4, %eax		/* AVX-VNNI */
	jnc	9f
	mov	$ENTRY_AVX512, %r8d
9:	mov	%r8d, %eax
	pop	%rbx
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbx
	ret
	.cfi_endproc
	.size ucopy_entry_class, . - ucopy_entry_class

/* RESOLVER plain|try: rax = the fast entry for ucopy_entry_class's answer. */
.macro RESOLVER kind
	.cfi_startproc
	ENDBR
	call	ucopy_entry_class
	lea	ucopy_\kind\()_sse2(%rip), %rdx
	lea	ucopy_\kind\()_avx2(%rip), %rcx
	cmp	$ENTRY_AVX2, %eax
	cmove	%rcx, %rdx
	lea	ucopy_\kind\()_avx512(%rip), %rcx
	cmp	$ENTRY_AVX512, %eax
	cmove	%rcx, %rdx
	mov	%rdx, %rax
	ret
	.cfi_endproc
.endm

	/* The symbols are the resolvers; the dynamic linker (or, static, the
	 * C library's start-up code) binds them to what these return. */
	.globl ucopy_memcpy
	.type ucopy_memcpy, @gnu_indirect_function
	.p2align 4
ucopy_memcpy:
	RESOLVER memcpy
	.size ucopy_memcpy, . - ucopy_memcpy

	.globl ucopy_try
	.type ucopy_try, @gnu_indirect_function
	.p2align 4
ucopy_try:
	RESOLVER try
	.size ucopy_try, . - ucopy_try

/* The fast entries' words, one per ENTRY_* index, beside the entries that
 * read them; x86_64/entry.c publishes them, so the port's C calls down into
 * its assembly and the assembly reads nothing above it but the generic
 * words (docs/design.md, "Layers"). */
	.bss
	.p2align 6
	.globl	ucopy_entry_limit, ucopy_try_entry_limit
	.hidden	ucopy_entry_limit, ucopy_try_entry_limit
	.type	ucopy_entry_limit, @object
	.type	ucopy_try_entry_limit, @object
ucopy_entry_limit:
	.zero	8 * UCOPY_NENTRIES
	.size	ucopy_entry_limit, 8 * UCOPY_NENTRIES
ucopy_try_entry_limit:
	.zero	8 * UCOPY_NENTRIES
	.size	ucopy_try_entry_limit, 8 * UCOPY_NENTRIES

	.section .note.GNU-stack, "", @progbits
