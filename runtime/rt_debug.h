/* rt_debug.h - a debugger playing the scheduler (rt_debug.c): the thread
 * it asked for takes the next decision, every later one the default. */
#ifndef SCHEDFUZZ_RT_DEBUG_H
#define SCHEDFUZZ_RT_DEBUG_H

#include <stdbool.h>
#include <stdint.h>

#include "rt_internal.h"

/* Under `schedfuzz debug` (SCHEDFUZZ_DEBUG_STEP set): decisions pass
 * through the two functions below. */
extern bool rt_debug_steering RT_HIDDEN;

/* The candidate a pick takes: idx (the input's) until the debugger asks
 * for a thread, that thread at the next pick it is a candidate of, the
 * default dflt from then on. */
RT_HIDDEN int rt_debug_steer_pick(const struct strat_candidate *cand, int n, int idx, int dflt);
/* A choice among n options: v (the input's) until the debugger has
 * steered, option 0 (the default) from then on. */
RT_HIDDEN uint32_t rt_debug_steer_choice(uint32_t v);

#endif
