/*
 * copy_from_user_419.S - the routine of copy_from_user_515.S written as
 * Linux 4.19's arch/arm64/lib/copy_from_user.S is: ENTRY/ENDPROC,
 * uaccess_enable_not_uao, the loads by uao_user_alternative and uao_ldp,
 * around the same copy_template.S.
 */
#include <linux/linkage.h>

#include <asm/cache.h>
#include <asm/asm-uaccess.h>

	.macro ldrb1 ptr, regB, val
	uao_user_alternative 9998f, ldrb, ldtrb, \ptr, \regB, \val
	.endm

	.macro strb1 ptr, regB, val
	strb \ptr, [\regB], \val
	.endm

	.macro ldr1 ptr, regB, val
	uao_user_alternative 9997f, ldr, ldtr, \ptr, \regB, \val
	.endm

	.macro str1 ptr, regB, val
	str \ptr, [\regB], \val
	.endm

	.macro ldp1 ptr, regB, regC, val
	uao_ldp 9997f, \ptr, \regB, \regC, \val
	.endm

	.macro stp1 ptr, regB, regC, val
	stp \ptr, \regB, [\regC], \val
	.endm

end	.req	x5
ENTRY(__arch_copy_from_user)
	uaccess_enable_not_uao x3, x4, x9
	add	end, x0, x2
#include "copy_template.S"
	uaccess_disable_not_uao x3, x4
	mov	x0, #0
	ret
ENDPROC(__arch_copy_from_user)

	.section .fixup,"ax"
	.align	2
9997:	cmp	dst, end
	b.eq	9998f
USER(9998f, ldrb tmp1w, [src], #1)
	strb	tmp1w, [dst], #1
	b	9997b
9998:	sub	x0, end, dst
	uaccess_disable_not_uao x3, x4
	ret
	.previous
