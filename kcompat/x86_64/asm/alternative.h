/*
 * asm/alternative.h (ucopy kcompat, x86-64) - ALTERNATIVE chosen once, when
 * the object is built, from the feature list `ucopy kbuild --features`
 * gives (asm/cpufeatures.h), where the kernel patches its code at boot:
 * the routine built is the one a kernel runs on a CPU with those features.
 * The replacement is not padded to the original's length (nothing patches
 * it later).
 */
#ifndef UCOPY_KCOMPAT_ASM_ALTERNATIVE_H
#define UCOPY_KCOMPAT_ASM_ALTERNATIVE_H

#include <asm/cpufeatures.h>

/* A feature test that holds when the feature is absent (6.9 and later). */
#define ALT_NOT(feature)	(1 - (feature))

.macro ALTERNATIVE oldinstr, newinstr, feature
	.if \feature
	\newinstr
	.else
	\oldinstr
	.endif
.endm

/* The last feature present wins, as in the kernel's patching order. */
.macro ALTERNATIVE_2 oldinstr, newinstr1, feature1, newinstr2, feature2
	.if \feature2
	\newinstr2
	.elseif \feature1
	\newinstr1
	.else
	\oldinstr
	.endif
.endm

.macro ALTERNATIVE_3 oldinstr, newinstr1, feature1, newinstr2, feature2, newinstr3, feature3
	.if \feature3
	\newinstr3
	.elseif \feature2
	\newinstr2
	.elseif \feature1
	\newinstr1
	.else
	\oldinstr
	.endif
.endm

#endif
