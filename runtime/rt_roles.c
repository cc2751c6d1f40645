/* rt_roles.c - threads known by where they come from: the rank of their
 * start routine among the distinct ones this execution created threads
 * with (0 for the thread that started it), and their order among that
 * routine's threads. Strategies with roles (FOCUS, strategies/focus.c)
 * hear of both at creation and name the stream that counts the thread's
 * events; the explorer learns how many threads each routine had and how
 * many events one of them took, to shape its next plans.
 *
 * Ranks and instances follow creation order, which the schedule fixes:
 * the same input gives the same roles in every process. */
#include "rt_internal.h"

/* Routines of this execution, by rank (0 is the first thread, whose
 * routine is main), how many threads each had, and the most events one took. */
static const void *routine_fn[SF_EST_ROUTINES];
static uint32_t routine_threads[SF_EST_ROUTINES];
static uint32_t routine_events[SF_EST_ROUTINES];
static uint32_t nroutines;

static void bind(struct rt_thread *t, uint32_t instance)
{
	t->stream = 0;
	if (!rt.strat->spawned)
		return;
	int s = rt.strat->spawned(rt.sstate, t->slot, t->routine, instance);
	if (s >= 0 && s < SF_MAX_VARS)
		t->stream = (uint8_t)(s + 1);
}

void rt_roles_begin(struct rt_thread *t0)
{
	nroutines = 1;
	routine_threads[0] = 1;
	routine_events[0] = 0;
	t0->routine = 0;
	t0->events = 0;
	bind(t0, 0);
}

void rt_roles_created(struct rt_thread *t)
{
	const void *fn = t->c11_fn ? (const void *)t->c11_fn : (const void *)t->fn;
	uint32_t m = 1;
	while (m < nroutines && routine_fn[m] != fn)
		m++;
	if (m == nroutines && m < SF_EST_ROUTINES) {
		routine_fn[m] = fn;
		routine_threads[m] = 0;
		routine_events[m] = 0;
		nroutines++;
	}
	/* Past the table: a rank no role can name (genome.h, SF_FOCUS_ROUTINES). */
	t->routine = m < SF_EST_ROUTINES ? m : UINT32_MAX;
	t->events = 0;
	uint32_t instance = m < SF_EST_ROUTINES ? routine_threads[m]++ : 0;
	bind(t, instance);
}

void rt_roles_ended(const struct rt_thread *t)
{
	if (t->routine < nroutines && t->events > routine_events[t->routine])
		routine_events[t->routine] = t->events;
}

void rt_roles_profile(struct sf_estimates *out)
{
	for (int i = 0; i < rt.nthreads; i++)
		if (rt.threads[i].state == T_LIVE)
			rt_roles_ended(&rt.threads[i]);
	out->nroutines = nroutines;
	for (uint32_t m = 0; m < nroutines; m++)
		out->routines[m] = (struct sf_routine_estimate){ routine_threads[m], routine_events[m] };
}
