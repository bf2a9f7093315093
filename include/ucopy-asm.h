/*
 * ucopy-asm.h - fault sites for a copy routine of your own, written in
 * assembly (x86-64 or aarch64, GNU as through the C preprocessor: a .S file).
 *
 * A routine with the fault-tolerant contract of ucopy_try() (bytes not
 * copied returned, 0 when all were) lists each instruction that may fault
 * and where to resume when it does, as the Linux kernel's exception table
 * does and as libucopy's own kernels do:
 *
 *	#include <ucopy-asm.h>
 *	1:	movb	(%rsi), %al
 *		UCOPY_EXTABLE(1b, .Lfixup)
 *
 * When such an instruction raises SIGSEGV or SIGBUS, libucopy's handler
 * (ucopy_fault_init()) moves the thread to the fixup with every register as
 * it was at the fault, and the fixup finishes the call: it returns the
 * count of bytes not copied.  The handler finds the table of an object
 * once the object is registered: ucopy_fault_register() with any address
 * inside it (include/ucopy.h).  `ucopy check` and `ucopy bench` register a
 * routine they load themselves.
 *
 * The table is a run of ELF notes, one per site, in the section
 * .note.ucopy.extable, which the linker places in a PT_NOTE segment of the
 * shared object or program: it is found through the program headers
 * (dl_iterate_phdr()), needs no symbol and no relocation at load time, and
 * costs nothing until a fault.  The layout is part of libucopy's ABI
 * (docs/design.md, "Fault sites of other objects"):
 *   namesz 6, descsz 16, type UCOPY_NOTE_EXTABLE, name "ucopy\0" (padded
 *   to 8), then four 32-bit words: the faulting instruction's address and
 *   the fixup's, each as a signed offset from the word's own address, the
 *   entry's type (UCOPY_EX_*), and 0.
 * Registering checks every site and refuses the object's whole table
 * (EINVAL) if one is wrong: an instruction or fixup outside the object's
 * executable segments, a type this architecture lacks, a description
 * that is not four words or whose last is not 0, an instruction listed
 * twice.  Notes named "ucopy" of
 * another type are skipped: a later release's.
 */
#ifndef UCOPY_ASM_H
#define UCOPY_ASM_H

/* The note type of a fault site (with the name "ucopy"). */
#define UCOPY_NOTE_EXTABLE 0x55430001

/* Entry types: what the handler does besides moving the thread to the
 * fixup. */
#define UCOPY_EX_RESUME 0   /* nothing */
#define UCOPY_EX_TRAPNR 1   /* x86-64 only: eax = 14, the page fault's trap
			       number (X86_TRAP_PF), as the kernel's
			       EX_TYPE_COPY hands its fixups (linux 5.16 to
			       6.3); both SIGSEGV and SIGBUS are page faults */

/* Lists the instruction at label insn as one that may fault: the thread
 * resumes at fixup, after what `type` (UCOPY_EX_*) asks. */
#define UCOPY_EXTABLE_TYPE(insn, fixup, type)                          \
	.pushsection .note.ucopy.extable, "a", %note;                  \
	.balign 4;                                                     \
	.long 6, 16, UCOPY_NOTE_EXTABLE;                               \
	.asciz "ucopy";                                                \
	.balign 4;                                                     \
	.long (insn) - .;                                              \
	.long (fixup) - .;                                             \
	.long type, 0;                                                 \
	.popsection

/* The same, of type UCOPY_EX_RESUME: the thread resumes at fixup. */
#define UCOPY_EXTABLE(insn, fixup) UCOPY_EXTABLE_TYPE(insn, fixup, UCOPY_EX_RESUME)

#endif
