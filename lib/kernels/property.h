/*
 * property.h - PROPERTY_NOTE(type, bits): the GNU property note an assembly
 * object carries to say which control-flow protections it keeps (x86-64's
 * IBT and SHSTK, aarch64's BTI and PAC), which the linker ANDs over every
 * object of a program or shared object.  One 4-byte property, 8-byte
 * aligned, as the ELF gABI extension and the psABIs lay it out.
 */
#ifndef UCOPY_PROPERTY_H
#define UCOPY_PROPERTY_H

#define PROPERTY_NOTE(type, bits)                                   \
	.pushsection .note.gnu.property, "a";                       \
	.p2align 3;                                                 \
	.long 4;                /* name size */                     \
	.long 16;               /* descriptor size */               \
	.long 5;                /* NT_GNU_PROPERTY_TYPE_0 */        \
	.asciz "GNU";                                               \
	.long type;                                                 \
	.long 4;                                                    \
	.long bits;                                                 \
	.p2align 3;                                                 \
	.popsection

#endif
