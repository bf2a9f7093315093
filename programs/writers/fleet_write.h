/*
 * fleet_write.h - the two writers of `ucopy fleet`'s page (fleet.h): the
 * HTML page, one column per machine, and the JSON of every number on it.
 */
#ifndef UCOPY_FLEET_WRITE_H
#define UCOPY_FLEET_WRITE_H

#include <stdio.h>

#include "fleet.h"

/* The version of the layout fleet_write_json() writes (docs/fleet.md). */
#define FLEET_JSON_SCHEMA 1

/* Writes the page. */
void fleet_write_html(FILE *f, const struct fleet *fl);
/* Every number on the page as JSON (fleet_json.c). */
void fleet_write_json(FILE *f, const struct fleet *fl);

#endif
