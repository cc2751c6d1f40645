/* rt_describe.h - the state of an execution in the report's words, at any
 * step (rt_report.c), for a debugger stopped there (rt_debug.c). */
#ifndef SCHEDFUZZ_RT_DESCRIBE_H
#define SCHEDFUZZ_RT_DESCRIBE_H

#include <stdio.h>

#include "rt_internal.h"

/* The current step's line of the interleaving and the threads' lines,
 * symbolized, as a report prints them; the thread about to perform the
 * step is running, though the wait it was picked out of is not yet
 * cleared. */
RT_HIDDEN void rt_report_describe(FILE *out);

#endif
