/*
 * asm/trapnr.h (ucopy kcompat, x86-64) - the trap numbers a fixup compares
 * eax with (asm/asm.h: _ASM_EXTABLE_CPY hands it 14, the page fault's).
 */
#ifndef UCOPY_KCOMPAT_ASM_TRAPNR_H
#define UCOPY_KCOMPAT_ASM_TRAPNR_H

#define X86_TRAP_DE	0
#define X86_TRAP_UD	6
#define X86_TRAP_GP	13
#define X86_TRAP_PF	14
#define X86_TRAP_AC	17
#define X86_TRAP_MC	18

#endif
