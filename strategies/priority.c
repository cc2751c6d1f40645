/* priority.c - priority scheduling, the engine of PCT, RPRO and PCTVB
 * (docs/design/algorithms.md: PCT, thread bounding).
 *
 * At every scheduling point the enabled thread with the highest priority
 * runs. Initial priorities come from one random permutation (changes.c);
 * when a change point fires, the thread that executed the event takes the
 * change point's priority: PCT's value i, below every initial priority, or
 * with thread bounding the next element of the permutation. Under FOCUS
 * only the threads that take a role have initial priorities (focus.c);
 * the others wait at SF_PRIO_DEFAULT, below every change point. The runtime
 * counts events and calls fire(); where change points fall is the kind's
 * business (pct.c, rpro.c, pctvb.c, focus.c).
 *
 * Departures, and why:
 * - Starvation guard (001 section 4; CHESS's fair scheduling): a thread
 *   the runtime reports as starving (100 steps without progress, a whole
 *   time slice of 20,000 steps, or a spin the watchdog had to preempt:
 *   docs/liveness.md) drops below every thread, including those lowered by
 *   change points, so no priority keeps a runnable thread from running
 *   forever.
 * - A thread whose wait could only end by timing out runs only when no
 *   other thread can, whatever its priority: virtual time passes only
 *   when nothing else can happen.
 * - Which waiter a signal wakes is drawn from the seed; condition waits
 *   never wake spuriously under these strategies (the random walk covers
 *   that), so a plan's priorities alone decide the interleaving. */
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "strategy.h"

struct priority_state {
	const struct sf_plan *plan;
	struct sf_rng rng;
	struct sf_change cp[SF_MAX_CP];
	int ncp;
	int cursor[SF_MAX_VARS]; /* per stream: its first change point not yet fired */
	sf_prio prio[STRAT_MAX_THREADS];
	int role_tid[SF_MAX_VARS]; /* FOCUS: the thread each role bound to, -1 for none yet */
	sf_prio floor; /* the priority given to the last starving thread (< 0) */
};

static void *pr_create(void)
{
	return calloc(1, sizeof(struct priority_state));
}

static void pr_destroy(void *state)
{
	free(state);
}

static void pr_begin(void *state, const struct sf_plan *plan)
{
	struct priority_state *ps = state;
	ps->plan = plan;
	sf_rng_seed(&ps->rng, plan->seed ^ 0x5eedull);
	ps->ncp = sf_plan_changes(plan, ps->cp);
	for (int s = 0; s < SF_MAX_VARS; s++) {
		int i = 0;
		while (i < ps->ncp && ps->cp[i].stream < s)
			i++;
		ps->cursor[s] = i;
	}
	for (int r = 0; r < SF_MAX_VARS; r++)
		ps->role_tid[r] = -1;
	ps->prio[0] = plan->kind == SF_KIND_FOCUS ? SF_PRIO_DEFAULT : sf_prio_initial(plan, 0);
	ps->floor = 0;
}

static int pr_pick(void *state, const struct strat_view *view)
{
	struct priority_state *ps = state;
	int best = -1;
	for (int i = 0; i < view->ncand; i++) {
		const struct strat_candidate *c = &view->cand[i];
		if (best < 0) {
			best = i;
			continue;
		}
		const struct strat_candidate *b = &view->cand[best];
		if (b->timeout != c->timeout) {
			if (b->timeout)
				best = i;
			continue;
		}
		/* Candidates come sorted by tid: on a tie the lower tid stays. */
		if (ps->prio[c->tid] > ps->prio[b->tid])
			best = i;
	}
	return best;
}

static uint32_t pr_choose(void *state, enum strat_choice what, uint32_t n, uint64_t step)
{
	struct priority_state *ps = state;
	if (what == STRAT_CHOOSE_SPURIOUS)
		return 0;
	return sf_rng_below(&ps->rng, n);
}

static void pr_note(void *state, enum strat_note what, int tid, uint64_t step)
{
	struct priority_state *ps = state;
	if (tid < 0 || tid >= STRAT_MAX_THREADS)
		return;
	switch (what) {
	case STRAT_NOTE_THREAD_CREATED:
		ps->prio[tid] = ps->plan->kind == SF_KIND_FOCUS ? SF_PRIO_DEFAULT
							       : sf_prio_initial(ps->plan, tid);
		break;
	case STRAT_NOTE_STARVING:
		ps->prio[tid] = --ps->floor;
		break;
	case STRAT_NOTE_COUNT:
		break;
	}
}

static uint64_t next_of(const struct priority_state *ps, int stream)
{
	int i = ps->cursor[stream];
	return i < ps->ncp && ps->cp[i].stream == stream ? ps->cp[i].at : 0;
}

static void pr_counting(void *state, struct strat_counting *c)
{
	struct priority_state *ps = state;
	const struct sf_plan *plan = ps->plan;
	memset(c, 0, sizeof *c);
	c->what = sf_plan_counts(plan);
	if (c->what == SF_COUNT_NONE)
		return;
	c->nstreams = c->what == SF_COUNT_VARS || c->what == SF_COUNT_ROLES ? plan->nvars : 1;
	for (int s = 0; s < c->nstreams; s++) {
		c->var[s] = plan->var[s];
		c->next[s] = next_of(ps, s);
	}
}

static uint64_t pr_fire(void *state, int stream, uint64_t count, int tid)
{
	struct priority_state *ps = state;
	if (stream < 0 || stream >= SF_MAX_VARS || tid < 0 || tid >= STRAT_MAX_THREADS)
		return 0;
	int *i = &ps->cursor[stream];
	while (*i < ps->ncp && ps->cp[*i].stream == stream && ps->cp[*i].at <= count) {
		if (ps->cp[*i].at == count && ps->prio[tid] > 0)
			ps->prio[tid] = sf_prio_change(ps->plan, &ps->cp[*i]);
		(*i)++;
	}
	return next_of(ps, stream);
}

static int pr_spawned(void *state, int tid, uint32_t routine, uint32_t instance)
{
	struct priority_state *ps = state;
	const struct sf_plan *plan = ps->plan;
	if (plan->kind != SF_KIND_FOCUS || tid < 0 || tid >= STRAT_MAX_THREADS)
		return -1;
	for (int r = 0; r < plan->nvars; r++) {
		if (ps->role_tid[r] >= 0 || sf_focus_routine(plan->var[r]) != routine ||
		    sf_focus_instance(plan->var[r]) != instance)
			continue;
		ps->role_tid[r] = tid;
		ps->prio[tid] = sf_prio_role(plan, r);
		return r;
	}
	return -1;
}

const struct strat_methods strat_priority = {
	.name = "priority",
	.create = pr_create,
	.destroy = pr_destroy,
	.begin = pr_begin,
	.pick = pr_pick,
	.choose = pr_choose,
	.note = pr_note,
	.counting = pr_counting,
	.fire = pr_fire,
	.spawned = pr_spawned,
};
