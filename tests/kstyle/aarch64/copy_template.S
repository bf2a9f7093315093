/*
 * copy_template.S - the copy loop of ucopy's kernel-style arm64 test
 * routines, included by copy_from_user_*.S as the kernel's
 * arch/arm64/lib/copy_template.S is: they define ldp1/stp1, ldr1/str1 and
 * ldrb1/strb1, and the fixups.  Pairs, then words, then bytes, with the
 * kernel's register names.
 *
 * Parameters: x0 dst, x1 src, x2 n.  Leaves dst and src past the copy.
 */
dstin	.req	x0
src	.req	x1
count	.req	x2
tmp1	.req	x3
tmp1w	.req	w3
dst	.req	x6
A_l	.req	x7
A_h	.req	x8

	prfm	pldl1strm, [src, #L1_CACHE_BYTES]
	mov	dst, dstin
.Lpairs:
	cmp	count, #16
	b.lo	.Lwords
	ldp1	A_l, A_h, src, #16
	stp1	A_l, A_h, dst, #16
	sub	count, count, #16
	b	.Lpairs
.Lwords:
	cmp	count, #8
	b.lo	.Lbytes
	ldr1	tmp1, src, #8
	str1	tmp1, dst, #8
	sub	count, count, #8
	b	.Lwords
.Lbytes:
	cbz	count, .Lexitfunc
	ldrb1	tmp1w, src, #1
	strb1	tmp1w, dst, #1
	sub	count, count, #1
	b	.Lbytes
.Lexitfunc:
