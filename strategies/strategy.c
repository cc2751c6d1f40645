/* strategy.c - the table of strategies and the shared default decision. */
#include "strategy.h"

const struct strat_methods *strat_for_kind(enum sf_kind kind)
{
	static const struct strat_methods *const table[SF_KIND_COUNT] = {
		[SF_KIND_RANDOM] = &strat_random_walk,
		[SF_KIND_EXPLICIT] = &strat_explicit,
		[SF_KIND_PCT] = &strat_priority,
		[SF_KIND_RPRO] = &strat_priority,
		[SF_KIND_PCTVB] = &strat_priority,
		[SF_KIND_FOCUS] = &strat_priority,
	};
	_Static_assert(SF_KIND_COUNT == 6, "every kind has a strategy");
	return kind < SF_KIND_COUNT ? table[kind] : &strat_random_walk;
}

int strat_default_pick(const struct strat_view *view)
{
	int first_timeout = -1;
	for (int i = 0; i < view->ncand; i++) {
		if (view->cand[i].tid == view->current && !view->cand[i].timeout)
			return i;
	}
	for (int i = 0; i < view->ncand; i++) {
		if (!view->cand[i].timeout)
			return i;
		if (first_timeout < 0)
			first_timeout = i;
	}
	return first_timeout < 0 ? 0 : first_timeout;
}
