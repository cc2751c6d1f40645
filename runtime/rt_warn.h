/* rt_warn.h - undefined behaviour that glibc survives (rt_warn.c): the
 * call does what glibc does, the execution goes on, and the program's
 * author hears of it once per site, and again in a later failure's
 * report. */
#ifndef SCHEDFUZZ_RT_WARN_H
#define SCHEDFUZZ_RT_WARN_H

#include "rt_internal.h"

/* What the program did at site, and what glibc (and so the execution)
 * makes of it. Printed once per site and message in the whole run (an
 * explorer's children share the record), kept for this execution's
 * report. fmt must be a string literal: it is part of the key. */
RT_HIDDEN void rt_warn(const void *site, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A new execution: no warning of its own yet. */
RT_HIDDEN void rt_warn_exec_begin(void);

/* This execution's warnings, oldest first, for a failure report: the
 * i-th one's site, thread and text; false past the last. */
RT_HIDDEN bool rt_warn_get(int i, const void **site, int *tid, const char **text);

#endif
