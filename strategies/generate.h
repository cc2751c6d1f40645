/* generate.h - making plans: what the built-in explorer runs, and seeds.
 *
 * This is the one place where earlier executions may influence a schedule:
 * they shape the plans made next (PCT's k, PCTVB's variables and access
 * counts), which are then written into the genome. Decoding never looks
 * at them, so every plan made here replays in any fresh process. */
#ifndef SCHEDFUZZ_GENERATE_H
#define SCHEDFUZZ_GENERATE_H

#include <stdbool.h>
#include <stdint.h>

#include "genome.h"
#include "spec.h"

#define SF_EST_VARS 64 /* variables an estimate keeps */

/* One variable as seen in executions: its id (genome.h, SF_VAR_*), the
 * most accesses one execution made to it, and whether two threads did. */
struct sf_var_estimate {
	uint32_t id;
	uint32_t accesses;
	uint8_t shared;
};

/* One start routine as seen in executions (FOCUS's roles): the most
 * threads one execution created from it, and the most events one of them
 * had. Index 0 is the thread that starts an execution. */
#define SF_EST_ROUTINES SF_FOCUS_ROUTINES
struct sf_routine_estimate {
	uint32_t threads;
	uint32_t events;
};

/* What executions so far have shown. Zero means "nothing seen yet". */
struct sf_estimates {
	uint64_t events; /* most events one execution had */
	uint64_t locks;  /* most lock acquisitions one execution had */
	uint32_t nvars;
	struct sf_var_estimate vars[SF_EST_VARS];
	uint32_t nroutines; /* routines seen, main included; at most SF_EST_ROUTINES */
	struct sf_routine_estimate routines[SF_EST_ROUTINES];
};

/* The most accesses in one execution of a variable that PCTVB names.
 * Every access to a named variable is a scheduling point (the runtime's
 * rt_vars.c counts them all), so naming a buffer that a loop sweeps makes
 * each of its accesses one: xz's match finder gave one schedule 647
 * million points, 2,600 times a PCT schedule of the same run. And among
 * a million accesses, a change point lands on the one a bug needs with
 * the odds of one in a million per stream, PCTVB's own bound. Such a
 * variable is named only when no other was seen. */
#define SF_VAR_MAX_ACCESSES (1u << 16)

/* The variables PCTVB picks among, as indices into est->vars, into pool;
 * returns how many. Those two threads shared, else (unless shared_only)
 * all; and of them the ones with at most SF_VAR_MAX_ACCESSES when
 * there are any. */
uint32_t sf_var_pool(const struct sf_estimates *est, bool shared_only,
		     uint32_t pool[SF_EST_VARS]);

/* k assumed when nothing has been seen. */
#define SF_DEFAULT_K 1000
#define SF_DEFAULT_LOCK_K 100
#define SF_DEFAULT_ACCESSES 100

/* Fold one execution's counts into the running estimate: maxima, and a
 * variable is shared once any execution shared it. */
void sf_estimates_merge(struct sf_estimates *into, const struct sf_estimates *run);

/* FOCUS's default estimate of one role's events, when nothing was seen. */
#define SF_DEFAULT_ROLE_EVENTS 20

/* A plan of the spec's kind (completed with defaults) drawn at random from
 * seed, following the papers' distributions: distinct change points
 * uniform over [1, k] (PCT), around a uniform first one (RPRO), or over
 * the accesses of v variables chosen among the shared ones (PCTVB). */
void sf_plan_generate(const struct sf_spec *spec, const struct sf_estimates *est, uint64_t seed,
		      struct sf_plan *plan);

#endif
