/*
 * asm/asm-uaccess.h (ucopy kcompat, aarch64) - the kernel's user-access
 * loads and stores, each a fault site with its fixup.
 *
 * Opening and closing the kernel's access to user memory (PAN, the TTBR0
 * switch) is nothing here: user space reaches its own memory.  The
 * unprivileged ldtr/sttr of user_ldst and friends (5.11 and later) run at
 * EL0 as plain loads and stores do.
 */
#ifndef UCOPY_KCOMPAT_ASM_ASM_UACCESS_H
#define UCOPY_KCOMPAT_ASM_ASM_UACCESS_H

#include <asm/assembler.h>

.macro uaccess_enable_not_uao, tmp1, tmp2, tmp3
.endm
.macro uaccess_disable_not_uao, tmp1, tmp2
.endm
.macro uaccess_ttbr0_enable, tmp1, tmp2, tmp3
.endm
.macro uaccess_ttbr0_disable, tmp1, tmp2
.endm
.macro uaccess_enable_privileged, tmp1, tmp2, tmp3
.endm
.macro uaccess_disable_privileged, tmp1, tmp2
.endm

/* 4.11 to 5.10: the UAO alternative of a load or store (asm/cpucaps.h). */
.macro uao_user_alternative, l, inst, alt_inst, reg, addr, post_inc
	.if ARM64_HAS_UAO
8888:	\alt_inst	\reg, [\addr]
	add	\addr, \addr, \post_inc
	.else
8888:	\inst	\reg, [\addr], \post_inc
	.endif
	_asm_extable	8888b, \l
.endm

.macro uao_ldp, l, reg1, reg2, addr, post_inc
	.if ARM64_HAS_UAO
8888:	ldtr	\reg1, [\addr]
8889:	ldtr	\reg2, [\addr, #8]
	add	\addr, \addr, \post_inc
	_asm_extable	8889b, \l
	.else
8888:	ldp	\reg1, \reg2, [\addr], \post_inc
	.endif
	_asm_extable	8888b, \l
.endm

.macro uao_stp, l, reg1, reg2, addr, post_inc
	.if ARM64_HAS_UAO
8888:	sttr	\reg1, [\addr]
8889:	sttr	\reg2, [\addr, #8]
	add	\addr, \addr, \post_inc
	_asm_extable	8889b, \l
	.else
8888:	stp	\reg1, \reg2, [\addr], \post_inc
	.endif
	_asm_extable	8888b, \l
.endm

/* 5.11 and later: the unprivileged forms always. */
.macro user_ldst, l, inst, reg, addr, post_inc
8888:	\inst	\reg, [\addr]
	add	\addr, \addr, \post_inc
	_asm_extable	8888b, \l
.endm

.macro user_ldp, l, reg1, reg2, addr, post_inc
8888:	ldtr	\reg1, [\addr]
8889:	ldtr	\reg2, [\addr, #8]
	add	\addr, \addr, \post_inc
	_asm_extable	8888b, \l
	_asm_extable	8889b, \l
.endm

.macro user_stp, l, reg1, reg2, addr, post_inc
8888:	sttr	\reg1, [\addr]
8889:	sttr	\reg2, [\addr, #8]
	add	\addr, \addr, \post_inc
	_asm_extable	8888b, \l
	_asm_extable	8889b, \l
.endm

#endif
