/*
 * copy_from_user_515.S - a copy from user space of ucopy's tests written
 * as Linux 5.15's arch/arm64/lib/copy_from_user.S is (its includes,
 * SYM_FUNC_START, user_ldst/user_ldp loads with their fixups, USER(), the
 * .fixup section, x0 the bytes not copied), around copy_template.S, for
 * `ucopy kbuild` (tests/test_kbuild.c).
 *
 * Only the loads are fault sites, as in the kernel: a copy from user
 * space writes to the kernel's own buffer.  Exact: a load that faults is
 * retried a byte at a time up to the first byte that faults.
 */
#include <linux/linkage.h>

#include <asm/asm-uaccess.h>
#include <asm/assembler.h>
#include <asm/cache.h>

	.macro ldrb1 reg, ptr, val
	user_ldst 9998f, ldtrb, \reg, \ptr, \val
	.endm

	.macro strb1 reg, ptr, val
	strb \reg, [\ptr], \val
	.endm

	.macro ldr1 reg, ptr, val
	user_ldst 9997f, ldtr, \reg, \ptr, \val
	.endm

	.macro str1 reg, ptr, val
	str \reg, [\ptr], \val
	.endm

	.macro ldp1 reg1, reg2, ptr, val
	user_ldp 9997f, \reg1, \reg2, \ptr, \val
	.endm

	.macro stp1 reg1, reg2, ptr, val
	stp \reg1, \reg2, [\ptr], \val
	.endm

end	.req	x5
SYM_FUNC_START(__arch_copy_from_user)
	add	end, x0, x2
#include "copy_template.S"
	mov	x0, #0
	ret
SYM_FUNC_END(__arch_copy_from_user)
EXPORT_SYMBOL(__arch_copy_from_user)

	.section .fixup,"ax"
	.align	2
9997:	cmp	dst, end
	b.eq	9998f
USER(9998f, ldtrb tmp1w, [src])
	add	src, src, #1
	strb	tmp1w, [dst], #1
	b	9997b
9998:	sub	x0, end, dst
	ret
	.previous
