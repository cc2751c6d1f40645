/* mutate.h - mutations that know what a genome means, for the fuzzers'
 * custom mutators (runtime/rt_mutate.c for libFuzzer, fuzz/afl_mutator.c
 * for AFL++).
 *
 * A byte-level mutator rarely lands a change point inside the execution:
 * with k = 1000 in the genome and 50 events in the program, a uniform word
 * modulo k misses the run 19 times in 20, and rescaling k takes a lucky
 * rewrite of a 4-byte field. These mutations move what the genome means
 * instead: a change point redrawn within the events the program has shown,
 * k set to that count, a depth one up or down, two priorities swapped, or a
 * fresh plan as the explorer would draw it. What executions showed (the
 * estimates) only shapes the bytes written; decoding never reads them, so
 * every mutated input replays in a fresh process. */
#ifndef SCHEDFUZZ_MUTATE_H
#define SCHEDFUZZ_MUTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "generate.h"
#include "genome.h"
#include "spec.h"

/* Mutate a decoded plan in place: one to three steps drawn from seed, each
 * kept inside the plan's own ranges. pinned (or NULL) is the strategy the
 * user pinned: fresh plans are of that strategy and the parameters it gives
 * are not touched. Returns false, changing nothing, when the plan is an
 * explicit decision list that the caller should mutate as bytes instead. */
bool sf_plan_mutate(struct sf_plan *plan, const struct sf_spec *pinned,
		    const struct sf_estimates *est, uint64_t seed);

/* The mutation a custom mutator writes: plan (decoded from the input)
 * mutated as above, encoded at out, and the harness's data (data_size
 * bytes) moved up behind it, cut so that everything fits in max_size
 * (>= SF_GENOME_HEADER). An explicit genome's list may be longer than the
 * header and a short input shorter, so the data moves; data may lie in out.
 * Returns the size written, or 0, writing nothing, when sf_plan_mutate
 * leaves the plan to byte mutation. */
size_t sf_genome_mutate(struct sf_plan *plan, const uint8_t *data, size_t data_size, uint8_t *out,
			size_t max_size, const struct sf_spec *pinned,
			const struct sf_estimates *est, uint64_t seed);

#endif
