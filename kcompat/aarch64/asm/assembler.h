/*
 * asm/assembler.h (ucopy kcompat, aarch64) - the kernel's exception-table
 * entries as ucopy's fault sites (<ucopy-asm.h>), which libucopy's handler
 * uses once the object is registered (ucopy_fault_register()), and the
 * few other assembler helpers its usercopy files use.
 */
#ifndef UCOPY_KCOMPAT_ASM_ASSEMBLER_H
#define UCOPY_KCOMPAT_ASM_ASSEMBLER_H

#include <ucopy-asm.h>
#include <asm/alternative.h>
/* 5.x files export with EXPORT_SYMBOL and include nothing else for it. */
#include <linux/export.h>

/* Up to 5.15: the fixup of a site is at `to`, x0 free to return the count. */
.macro _asm_extable, from, to
	UCOPY_EXTABLE(\from, \to)
.endm

/* 5.16 and later name the kind of fixup; each resumes at `to` here. */
.macro _asm_extable_uaccess, from, to
	UCOPY_EXTABLE(\from, \to)
.endm

/* An instruction x that may fault, with its fixup at l. */
#define USER(l, x...)				\
9999:	x;					\
	_asm_extable	9999b, l

.macro nops, num
	.rept \num
	nop
	.endr
.endm

#endif
