/* splice.h - mutations of explicit decision lists (recorded or minimised
 * schedules), for the guided explorer: sf_plan_mutate leaves their
 * decisions to byte mutation, which knows nothing of their format. */
#ifndef SCHEDFUZZ_SPLICE_H
#define SCHEDFUZZ_SPLICE_H

#include <stddef.h>
#include <stdint.h>

#include "genome.h"

/* Mutate the explicit plan's decisions in one step drawn from seed: a
 * decision's value changed, one inserted or dropped, the list cut short, or
 * spliced with other's (its decisions from some index on replace plan's;
 * other may be NULL or of another kind). events bounds where a new decision
 * may go (0: unknown). Writes the genome (header and decisions, no harness
 * data) at out and returns its size; 0, writing nothing, if it does not fit
 * in cap or memory runs out. */
size_t sf_explicit_mutate(const struct sf_plan *plan, const struct sf_plan *other, uint64_t events,
			  uint64_t seed, uint8_t *out, size_t cap);

#endif
