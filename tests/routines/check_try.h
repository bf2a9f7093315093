/*
 * check_try.h - the try routines of tests/cli/check.sh, one right and two
 * deliberately wrong, listed once for every architecture: its
 * check_try_ARCH.S defines BYTES name (a byte loop whose labels are named
 * after the routine: .Lname_load, .Lname_store, .Lname_fixup, which
 * returns the bytes not copied) and ONE_MORE (returns one more than that),
 * then includes this.
 */

.macro END name
	.cfi_endproc
	.size	\name, . - \name
.endm

/* Right: both accesses listed. */
	BYTES	check_try
	UCOPY_EXTABLE(.Lcheck_try_load, .Lcheck_try_fixup)
	UCOPY_EXTABLE(.Lcheck_try_store, .Lcheck_try_fixup)
	END	check_try

/* Bug: after a source fault it says one byte fewer was copied than was. */
	BYTES	check_try_count
.Lcheck_try_count_load_fixup:
	ONE_MORE
	UCOPY_EXTABLE(.Lcheck_try_count_load, .Lcheck_try_count_load_fixup)
	UCOPY_EXTABLE(.Lcheck_try_count_store, .Lcheck_try_count_fixup)
	END	check_try_count

/* Bug: the store is not listed, so a destination fault kills the process. */
	BYTES	check_try_unlisted_store
	UCOPY_EXTABLE(.Lcheck_try_unlisted_store_load, .Lcheck_try_unlisted_store_fixup)
	END	check_try_unlisted_store
