/* explicit.c - replays an explicit decision list.
 *
 * The runtime numbers every decision it asks for (picks and choices alike,
 * only where there are two or more options). At decision i this strategy
 * takes the list's entry for i when there is one and it names a valid
 * option; otherwise, and after the list ends, it takes the default
 * decision (strat_default_pick, or option 0). So any list is valid, a list
 * recorded from a run replays that run, and a list of only the decisions
 * that differ from the default is as good as the full one: that is the
 * form the runtime records and the form minimisation shrinks.
 *
 * With SF_FLAG_FAIR the default differs in one case: when the current
 * thread cannot go on or had to give way, the candidate that gave way
 * longest ago (or never) runs, not the lowest. The runtime records against
 * the plain default, so a recording made under either replays. */
#include <stdlib.h>
#include <string.h>

#include "strategy.h"

struct explicit_state {
	const struct sf_plan *plan;
	uint32_t next_decision; /* number of the decision asked next */
	uint32_t cursor;        /* first list entry not yet consumed */
	uint64_t gave_way[STRAT_MAX_THREADS]; /* step + 1 of its last give-way; 0 never */
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
	memset(ex->gave_way, 0, sizeof ex->gave_way);
}

/* The plain default, or under SF_FLAG_FAIR the current thread if it goes
 * on, else the candidate whose last give-way is oldest (lowest first). */
static int default_pick(const struct explicit_state *ex, const struct strat_view *view)
{
	int dflt = strat_default_pick(view);
	if (!(ex->plan->flags & SF_FLAG_FAIR) || view->cand[dflt].tid == view->current)
		return dflt;
	int best = dflt;
	for (int i = 0; i < view->ncand; i++)
		if (!view->cand[i].timeout && ex->gave_way[view->cand[i].tid] <
						      ex->gave_way[view->cand[best].tid])
			best = i;
	return best;
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
	return default_pick(state, view);
}

static uint32_t ex_choose(void *state, enum strat_choice what, uint32_t n, uint64_t step)
{
	int want = ex_take(state);
	return want >= 0 && (uint32_t)want < n ? (uint32_t)want : 0;
}

static void ex_note(void *state, enum strat_note what, int tid, uint64_t step)
{
	struct explicit_state *ex = state;
	if (what == STRAT_NOTE_STARVING && tid >= 0 && tid < STRAT_MAX_THREADS)
		ex->gave_way[tid] = step + 1;
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
