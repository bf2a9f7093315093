/*
 * copy_user_rcx_noentry.S - copy_user_rcx.S with its word store left out
 * of the exception table: a destination fault there kills the process.
 */
#define KSTYLE_NO_EXTABLE
#include "copy_user_rcx.S"
