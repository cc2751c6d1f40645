/* rt_guide.h - guided exploration: `schedfuzz run`'s evolutionary loop over
 * schedule genomes (rt_guide.c). The explorer (rt_driver.c) asks it for
 * each schedule and tells it when the schedule has run. */
#ifndef SCHEDFUZZ_RT_GUIDE_H
#define SCHEDFUZZ_RT_GUIDE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "generate.h"
#include "genome.h"

/* Features an execution published: one bit per feature hash, in memory the
 * explorer shares with its children. */
#define RT_GUIDE_BITS (1u << 19)

/* In a child of the guided explorer: where its coverage sink sets the bits
 * of the features it emits. NULL otherwise (no coverage is computed for
 * the guide then). */
extern uint64_t *rt_guide_map __attribute__((visibility("hidden")));

struct rt_guide;
struct rt_campaign;
struct rt_guide_counts;

/* The guide of job number job of the campaign cp (rt_jobs.h), or NULL when
 * exploration is unguided: SCHEDFUZZ_GUIDE=0, a pinned strategy, coverage
 * off, or no memory. Loads the genomes in SCHEDFUZZ_CORPUS (a directory)
 * if set, and the entries of a resumed campaign. */
struct rt_guide *rt_guide_create(uint64_t seed, struct rt_campaign *cp, int job);
/* Schedule index i (0-based): a corpus entry loaded at the start, a fresh
 * plan of the portfolio, or a mutant of a corpus entry. Valid until the
 * next call. */
const uint8_t *rt_guide_next(struct rt_guide *g, uint64_t i, const struct sf_estimates *est,
			     size_t *size);
/* The schedule has run (and failed or not, with this many threads): keep
 * it if its features were new. Call before any other child runs. True if
 * it was the reversal arm's (rt_reversals.c), whose executions are no
 * estimate for plans. */
bool rt_guide_learn(struct rt_guide *g, bool failed, uint32_t threads);
/* One line on what guidance did, for --keep-going's summary. */
void rt_guide_summary(const struct rt_guide *g);
/* The same, as numbers a parallel run sums over its jobs. */
void rt_guide_counts(const struct rt_guide *g, struct rt_guide_counts *out);

/* The explorer's fresh plan from seed (rt_driver.c): the walk's or the
 * portfolio's next, by what each has cost so far; and the cost of the
 * execution of the plan made last (its hand-offs), once it has run. */
void rt_make_genome(uint8_t out[SF_GENOME_HEADER], uint64_t seed,
		    const struct sf_estimates *est) __attribute__((visibility("hidden")));
void rt_fresh_plan_cost(uint64_t handoffs) __attribute__((visibility("hidden")));

#endif
