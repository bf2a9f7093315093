/*
 * template.h - the arm64 kernel's copy template (arch/arm64/lib/
 * copy_template.S, as 4.19 and 5.15 have it), rewritten with this
 * directory's register discipline, for the ldp and ldtr kernels.
 *
 * Size classes, as the kernel's:
 *   0..15    TINY15: 8, 4, 2, 1 bytes as the bits of the count say
 *   16..63   .Ltail63: one to three 16-byte pairs (count & 0x30), then TINY15
 *   64..     the source aligned to 16 bytes first (1, 2, 4, 8 bytes as the
 *            bits of -src & 15 say), then 64-byte blocks of four pairs:
 *            below 128 bytes one block, else software-pipelined (the next
 *            block's loads interleaved with the last block's stores), then
 *            .Ltail63 for the rest
 * The only difference between the two kernels is the access: u blank is
 * ldp/stp (4.19, and every kernel's copy_in_user before set_fs() went),
 * u = t is ldtr/sttr, two 8-byte accesses per pair, as 5.11+ user copies
 * (copy_from_user.S's `user_ldp`, copy_to_user.S's `user_stp`).
 *
 * Fault discipline: the cursors move only after a store completes a piece,
 * and in the pipelined loop they mark the block held in x6-x13, whose
 * stores come before the cursors pass it; the loads of the next block may
 * run ahead, and a fault there only sends the tail back to the cursor.
 * Every fixup is the shared tail.
 */

.macro TEMPLATE try, u
	mov	x3, x0
	cmp	x2, #16
	b.lo	.Ltiny_\try
	cmp	x2, #64
	b.lo	.Ltail63_\try
	/* Align src: the kernel's loads of user memory then never cross a
	 * 16-byte boundary (nor a page). */
	neg	x5, x1
	ands	x5, x5, #15
	b.eq	.Lover64_\try
	tbz	x5, #0, 1f
	LD	\try, \u, b, w4
	ST	\try, \u, b, w4
	ADVANCE 1
1:	tbz	x5, #1, 2f
	LD	\try, \u, h, w4
	ST	\try, \u, h, w4
	ADVANCE 2
2:	tbz	x5, #2, 3f
	LD	\try, \u, , w4
	ST	\try, \u, , w4
	ADVANCE 4
3:	tbz	x5, #3, 4f
	LD	\try, \u, , x4
	ST	\try, \u, , x4
	ADVANCE 8
4:	cmp	x2, #64
	b.lo	.Ltail63_\try
.Lover64_\try:
	cmp	x2, #128
	b.hs	.Llarge_\try
	LDP16	\try, \u, x6, x7, 0
	STP16	\try, \u, x6, x7, 0
	LDP16	\try, \u, x8, x9, 16
	LDP16	\try, \u, x10, x11, 32
	STP16	\try, \u, x8, x9, 16
	STP16	\try, \u, x10, x11, 32
	LDP16	\try, \u, x12, x13, 48
	STP16	\try, \u, x12, x13, 48
	ADVANCE 64
	b	.Ltail63_\try
.Llarge_\try:
	LDP16	\try, \u, x6, x7, 0
	LDP16	\try, \u, x8, x9, 16
	LDP16	\try, \u, x10, x11, 32
	LDP16	\try, \u, x12, x13, 48
.Lloop_\try:
	/* x6-x13 hold the block at the cursors; x2 >= 128, so the next
	 * block is all in the copy. */
	STP16	\try, \u, x6, x7, 0
	LDP16	\try, \u, x6, x7, 64
	STP16	\try, \u, x8, x9, 16
	LDP16	\try, \u, x8, x9, 80
	STP16	\try, \u, x10, x11, 32
	LDP16	\try, \u, x10, x11, 96
	STP16	\try, \u, x12, x13, 48
	LDP16	\try, \u, x12, x13, 112
	ADVANCE 64
	cmp	x2, #128
	b.hs	.Lloop_\try
	STP16	\try, \u, x6, x7, 0
	STP16	\try, \u, x8, x9, 16
	STP16	\try, \u, x10, x11, 32
	STP16	\try, \u, x12, x13, 48
	ADVANCE 64
.Ltail63_\try:
	/* x2 < 64: (x2 & 0x30) / 16 pairs, then the tiny tail. */
	and	x5, x2, #0x30
	cbz	x5, .Ltiny_\try
	cmp	x5, #0x20
	b.eq	1f
	b.lo	2f
	LDP16	\try, \u, x6, x7, 0
	STP16	\try, \u, x6, x7, 0
	ADVANCE 16
1:	LDP16	\try, \u, x6, x7, 0
	STP16	\try, \u, x6, x7, 0
	ADVANCE 16
2:	LDP16	\try, \u, x6, x7, 0
	STP16	\try, \u, x6, x7, 0
	ADVANCE 16
.Ltiny_\try:
	TINY15	\try, \u
.endm
