/* rt_debug.h - a debugger playing the scheduler (rt_debug.c): the thread
 * it asked for takes the next decision, every later one the default. */
#ifndef SCHEDFUZZ_RT_DEBUG_H
#define SCHEDFUZZ_RT_DEBUG_H

#include <stdbool.h>
#include <stdint.h>

#include "rt_internal.h"

/* Under `schedfuzz debug` (SCHEDFUZZ_DEBUG_STEP set) or an interactive
 * replay (SCHEDFUZZ_INTERACT): decisions pass through the two functions
 * below. */
extern bool rt_debug_steering RT_HIDDEN;

/* The candidate a pick takes: idx (the input's) until the debugger asks
 * for a thread, that thread at the next pick it is a candidate of, the
 * default dflt from then on. In an interactive replay, the one answered,
 * and once an answer departed from idx, the default is dflt too. */
RT_HIDDEN int rt_debug_steer_pick(const struct strat_candidate *cand, int n, int idx, int dflt);
/* A choice among n options: v (the input's) until the debugger has
 * steered, option 0 (the default) from then on. */
RT_HIDDEN uint32_t rt_debug_steer_choice(uint32_t v);

/* SCHEDFUZZ_INTERACT (rt_interact.c): read it at the start of an
 * execution; true when decisions are to be asked. */
RT_HIDDEN bool rt_interact_load(void);
/* Ask which of the n candidates runs, dflt the one taken without an
 * answer; returns the index of the one taken. */
RT_HIDDEN int rt_interact_ask(const struct strat_candidate *cand, int n, int dflt);

#endif
