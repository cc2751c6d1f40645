/* explicit.c - replays an explicit decision list.
 *
 * The runtime numbers every decision it asks for (picks and choices alike,
 * only where there are two or more options). At decision i this strategy
 * takes the list's entry for i when there is one and it names a valid
 * option; otherwise, and after the list ends, it takes the default
 * decision (strat_default_pick, or option 0). So any list is valid, a list
 * recorded from a run replays that run, and a list of only the decisions
 * that differ from the default is as good as the full one: that is the
 * form the runtime records and the form minimisation shrinks. */
#include <stdlib.h>

#include "strategy.h"

struct explicit_state {
	const struct sf_plan *plan;
	uint32_t next_decision; /* number of the decision asked next */
	uint32_t cursor;        /* first list entry not yet consumed */
};

static void *ex_create(void)
{
	return calloc(1, sizeof(struct explicit_state));
}

static void ex_destroy(void *state)
{
	free(state);
}

static void ex_begin(void *state, const struct sf_plan *plan)
{
	struct explicit_state *ex = state;
	ex->plan = plan;
	ex->next_decision = 0;
	ex->cursor = 0;
}

/* The list's value for the current decision, or -1. Entries whose index is
 * already past are stale (an unsorted or mutated list) and skipped. */
static int ex_take(struct explicit_state *ex)
{
	uint32_t d = ex->next_decision++;
	while (ex->cursor < ex->plan->ndecisions) {
		struct sf_decision e = sf_plan_decision(ex->plan, ex->cursor);
		if (e.index > d)
			return -1;
		ex->cursor++;
		if (e.index == d)
			return e.value;
	}
	return -1;
}

static int ex_pick(void *state, const struct strat_view *view)
{
	int want = ex_take(state);
	for (int i = 0; want >= 0 && i < view->ncand; i++)
		if (view->cand[i].tid == want)
			return i;
	return strat_default_pick(view);
}

static uint32_t ex_choose(void *state, enum strat_choice what, uint32_t n, uint64_t step)
{
	int want = ex_take(state);
	return want >= 0 && (uint32_t)want < n ? (uint32_t)want : 0;
}

static void ex_note(void *state, enum strat_note what, int tid, uint64_t step)
{
}

const struct strat_methods strat_explicit = {
	.name = "explicit",
	.create = ex_create,
	.destroy = ex_destroy,
	.begin = ex_begin,
	.pick = ex_pick,
	.choose = ex_choose,
	.note = ex_note,
};
