/* random_walk.c - the baseline: every decision at random.
 *
 * At each scheduling point any candidate may run: among up to three
 * uniformly, among more the current thread with probability 1/3 and each
 * other alike (STAY_OVER below). So a thread that spins on shared memory
 * is preempted with probability at least 1/2 per step: the walk is fair
 * by itself there and ignores starvation notes (a spin on unshared
 * memory, below, is the runtime's to end). Spurious condition wakeups
 * are allowed but kept rare (1 in 32 waits) so that correct wait loops
 * are not slowed.
 *
 * At a tick (strat_view.tick), a point in the middle of a thread's
 * private work, the current thread goes on, without a draw: no other
 * thread can tell where in that work it stopped, so a switch there
 * reaches no interleaving of shared accesses that a switch at the
 * thread's next shared access does not, and it costs a hand-off. On a
 * block compressor three points in four were ticks, and the walk's
 * switches at them were most of its cost (docs/cost.md). A thread that
 * spins on memory nobody else touched yet still gives way: the runtime
 * makes it after RT_SPIN_LIMIT steps without progress, whatever the
 * strategy (docs/liveness.md). */
#include <stdlib.h>

#include "rng.h"
#include "strategy.h"

/* With more candidates than this, the current thread goes on with
 * probability 1 / STAY_OVER, not 1 / n: among a hundred threads a uniform
 * walk switches at nearly every point, so a thread's compare-and-swap
 * loop almost never runs its load and its swap back to back, and retries
 * make a schedule's cost grow with the square of the threads (a
 * lock-free stack of 100 workers: 5.7 times PCT's steps, each a switch).
 * Up to STAY_OVER candidates the walk is uniform, as it always was. */
#define STAY_OVER 3

struct random_walk {
	struct sf_rng rng;
};

static void *rw_create(void)
{
	return calloc(1, sizeof(struct random_walk));
}

static void rw_destroy(void *state)
{
	free(state);
}

static void rw_begin(void *state, const struct sf_plan *plan)
{
	struct random_walk *rw = state;
	sf_rng_seed(&rw->rng, plan->seed);
}

static int rw_pick(void *state, const struct strat_view *view)
{
	struct random_walk *rw = state;
	uint32_t n = (uint32_t)view->ncand;
	int self = -1;
	for (int i = 0; i < view->ncand; i++)
		if (view->cand[i].tid == view->current && !view->cand[i].timeout)
			self = i;
	if (view->tick && self >= 0)
		return self;
	if (n <= STAY_OVER || self < 0)
		return (int)sf_rng_below(&rw->rng, n);
	/* The current thread goes on as often as among STAY_OVER; a switch
	 * goes to any other uniformly. */
	if (sf_rng_below(&rw->rng, STAY_OVER) == 0)
		return self;
	uint32_t v = sf_rng_below(&rw->rng, n - 1);
	return (int)(v < (uint32_t)self ? v : v + 1);
}

static uint32_t rw_choose(void *state, enum strat_choice what, uint32_t n, uint64_t step)
{
	struct random_walk *rw = state;
	if (what == STRAT_CHOOSE_SPURIOUS)
		return sf_rng_below(&rw->rng, 32) == 0;
	return sf_rng_below(&rw->rng, n);
}

static void rw_note(void *state, enum strat_note what, int tid, uint64_t step)
{
}

const struct strat_methods strat_random_walk = {
	.name = "random",
	.create = rw_create,
	.destroy = rw_destroy,
	.begin = rw_begin,
	.pick = rw_pick,
	.choose = rw_choose,
	.note = rw_note,
};
