/* rt_describe.h - the state of an execution in the report's words, at any
 * step (rt_report.c), for a debugger stopped there (rt_debug.c). */
#ifndef SCHEDFUZZ_RT_DESCRIBE_H
#define SCHEDFUZZ_RT_DESCRIBE_H

#include <stdbool.h>
#include <stdio.h>

#include "rt_internal.h"

/* The current step's line of the interleaving and the threads' lines,
 * symbolized, as a report prints them. At a stop at a step, the thread
 * about to perform it is running, though the wait it was picked out of
 * is not yet cleared; at a decision (deciding), every wait shows. */
RT_HIDDEN void rt_report_describe(FILE *out, bool deciding);

#endif
