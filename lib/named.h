/*
 * named.h - every port's named policies, in one place: X(function, "name")
 * per policy, in the order users see them.  A port builds its table from its
 * own list (<port>/policies.c, which defines the functions); policy.c reads
 * both lists, to say which architecture a foreign name is for.
 */
#ifndef UCOPY_NAMED_H
#define UCOPY_NAMED_H

#define UCOPY_NAMED_X86_64(X)                 \
	X(linux_4_19, "linux-4.19")           \
	X(axboe_2018, "axboe-2018")           \
	X(linux_6_3, "linux-6.3")             \
	X(linux_6_4_rc1, "linux-6.4-rc1")     \
	X(linux_6_4, "linux-6.4")             \
	X(linux_6_6, "linux-6.6")

#define UCOPY_NAMED_AARCH64(X)                \
	X(arm64_4_19, "arm64-4.19")           \
	X(arm64_5_15, "arm64-5.15")

/* A port's table row, for its own list. */
#define UCOPY_NAMED_ROW(fn, name) { name, fn },

#endif
