/* rt_json.h - JSON strings for the runtime's machine-read output (the race
 * report's lines, the interactive replay's questions). */
#ifndef SCHEDFUZZ_RT_JSON_H
#define SCHEDFUZZ_RT_JSON_H

#include <stddef.h>
#include <stdio.h>

#include "rt_internal.h"

/* The len bytes at s as one JSON string: quoted, '"' '\' and control
 * characters escaped. */
RT_HIDDEN void rt_json_string(FILE *f, const char *s, size_t len);

#endif
