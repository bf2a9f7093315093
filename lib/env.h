/*
 * env.h - how the library reads its environment variables (env.c).
 */
#ifndef UCOPY_ENV_H
#define UCOPY_ENV_H

#include "internal.h"

/* getenv(name), except in a program that runs with more privilege than the
 * user who started it (setuid, setgid, file capabilities): NULL there. */
const char *ucopy_getenv(const char *name) HIDDEN;

#endif
