/*
 * neon.S - 16-byte vector pairs: ldp/stp of q registers, overlapping head
 * and tail for short sizes.
 *
 * Size classes:
 *   0..15    template.h's TINY15 in general registers
 *   16..32   two q accesses, head and tail, overlapping
 *   33..64   two q pairs, head and tail, overlapping
 *   65..     64-byte blocks of two q pairs while more than 64 bytes remain,
 *            then the last 64 bytes from the end (they overlap the block
 *            before, so no tail of odd sizes)
 *
 * Fault discipline: the short classes load everything before they store
 * and leave the cursors at the start, so a fault restarts the tail from 0;
 * the loop's cursors advance after a block is stored, and the last 64 bytes
 * start at or before the cursor, so every store starts inside what is
 * already written.  Every fixup is the shared tail.
 */
#include "asm.h"
#include "template.h"

.macro neon_body try
	mov	x3, x0
	cmp	x2, #16
	b.lo	.Ltiny_\try
	add	x5, x1, x2	/* src end */
	add	x6, x3, x2	/* dst end */
	cmp	x2, #32
	b.hi	.L33_\try
	EX(ucopy_fixup_tail, ldr q0, [x1])
	EX(ucopy_fixup_tail, ldr q1, [x5, #-16])
	EX(ucopy_fixup_tail, str q0, [x3])
	EX(ucopy_fixup_tail, str q1, [x6, #-16])
	RET
.L33_\try:
	cmp	x2, #64
	b.hi	.Lloop_\try
	EX(ucopy_fixup_tail, ldp q0, q1, [x1])
	EX(ucopy_fixup_tail, ldp q2, q3, [x5, #-32])
	EX(ucopy_fixup_tail, stp q0, q1, [x3])
	EX(ucopy_fixup_tail, stp q2, q3, [x6, #-32])
	RET
.Lloop_\try:
	EX(ucopy_fixup_tail, ldp q0, q1, [x1])
	EX(ucopy_fixup_tail, ldp q2, q3, [x1, #32])
	EX(ucopy_fixup_tail, stp q0, q1, [x3])
	EX(ucopy_fixup_tail, stp q2, q3, [x3, #32])
	ADVANCE 64
	cmp	x2, #64
	b.hi	.Lloop_\try
	EX(ucopy_fixup_tail, ldp q0, q1, [x5, #-64])
	EX(ucopy_fixup_tail, ldp q2, q3, [x5, #-32])
	EX(ucopy_fixup_tail, stp q0, q1, [x6, #-64])
	EX(ucopy_fixup_tail, stp q2, q3, [x6, #-32])
	RET
.Ltiny_\try:
	TINY15	\try
.endm

KERNEL(neon)

	.section .note.GNU-stack, "", %progbits
