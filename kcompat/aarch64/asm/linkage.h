/*
 * asm/linkage.h (ucopy kcompat, aarch64) - nothing: kbuild's objects carry
 * no BTI landing pads, so the loader maps them without BTI (a kernel built
 * with it puts `bti c` at each SYM_FUNC_START).
 */
