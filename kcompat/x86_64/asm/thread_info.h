/* asm/thread_info.h (ucopy kcompat, x86-64) - included by the kernel's copy_user_64.S
 * up to 6.3 for nothing it still used. */
