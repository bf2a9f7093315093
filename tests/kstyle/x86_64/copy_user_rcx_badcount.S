/*
 * copy_user_rcx_badcount.S - copy_user_rcx.S whose byte fixup returns one
 * byte fewer than were left: every fault's count is wrong.
 */
#define KSTYLE_BAD_COUNT
#include "copy_user_rcx.S"
