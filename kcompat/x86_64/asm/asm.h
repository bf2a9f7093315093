/*
 * asm/asm.h (ucopy kcompat, x86-64) - the kernel's exception-table entries
 * as ucopy's fault sites (<ucopy-asm.h>), which libucopy's handler uses
 * once the object is registered (ucopy_fault_register()).
 *
 * _ASM_EXTABLE_CPY is EX_TYPE_COPY (5.16 to 6.3): its fixup finds the trap
 * number in eax, 14 (X86_TRAP_PF) for every SIGSEGV and SIGBUS here, so a
 * 6.3 tail handler's test for a machine check (X86_TRAP_MC) never takes
 * that branch.
 */
#ifndef UCOPY_KCOMPAT_ASM_ASM_H
#define UCOPY_KCOMPAT_ASM_ASM_H

#include <ucopy-asm.h>

/* The fixup types the kernel's entries name; one not here fails to
 * assemble, which is better than a guess at what its fixup expects. */
#define EX_TYPE_DEFAULT		UCOPY_EX_RESUME
#define EX_TYPE_UACCESS		UCOPY_EX_RESUME
#define EX_TYPE_COPY		UCOPY_EX_TRAPNR
#define EX_TYPE_FAULT		UCOPY_EX_TRAPNR

#define _ASM_EXTABLE(from, to)		UCOPY_EXTABLE(from, to)
#define _ASM_EXTABLE_UA(from, to)	UCOPY_EXTABLE(from, to)
#define _ASM_EXTABLE_CPY(from, to)	UCOPY_EXTABLE_TYPE(from, to, UCOPY_EX_TRAPNR)
#define _ASM_EXTABLE_TYPE(from, to, type) UCOPY_EXTABLE_TYPE(from, to, type)

#define _ASM_PTR	.quad
#define _ASM_ALIGN	.balign 8

#endif
