/* rt_observers.c - the table of the execution's observers, and the
 * dispatchers that hand each event to those on (rt_observer.h). */
#include "rt_observer.h"

/* In the order they hear each event: the search's log before coverage,
 * which adds HaPSet pairs to the transition the log just opened; the
 * record's file written before coverage's and the trace's at the end; a
 * debugger's stop last, once everybody has heard the event. */
static const struct rt_observer *const observers[] = {
	&rt_search_observer,
	&rt_record_observer,
	&rt_cov_observer,
	&rt_trace_observer,
	&rt_anchors_observer,
	&rt_debug_observer,
};
_Static_assert(sizeof observers / sizeof *observers <= RT_MAX_OBSERVERS, "the lists hold them");

struct rt_observing rt_observing;

void rt_observers_changed(void)
{
	struct rt_observing *o = &rt_observing;
	o->nevent = o->ndecision = o->nblock = o->nresume = o->nsync = o->ncreated = 0;
	for (size_t i = 0; i < sizeof observers / sizeof *observers; i++) {
		const struct rt_observer *ob = observers[i];
		if (!ob->on())
			continue;
		if (ob->event)
			o->event[o->nevent++] = ob;
		if (ob->decision)
			o->decision[o->ndecision++] = ob;
		if (ob->block)
			o->block[o->nblock++] = ob;
		if (ob->resume)
			o->resume[o->nresume++] = ob;
		if (ob->sync)
			o->sync[o->nsync++] = ob;
		if (ob->thread_created)
			o->created[o->ncreated++] = ob;
	}
	rt.observed = o->nevent != 0;
}

void rt_observers_begin(void)
{
	for (size_t i = 0; i < sizeof observers / sizeof *observers; i++)
		if (observers[i]->begin)
			observers[i]->begin();
	rt_observers_changed();
}

void rt_observers_off(void)
{
	rt.trace_on = rt.cov_on = false;
	rt.search = NULL;
	rt_observers_changed();
}

void rt_observe_event(struct rt_thread *self, enum rt_ev ev, uintptr_t addr, struct rt_obj *obj,
		      uint32_t size, const void *site, uint8_t flags)
{
	/* An observer may stop listening inside the loop (coverage's budget):
	 * the lists are made again, and the rest hear the event all the same. */
	const struct rt_observer *on[RT_MAX_OBSERVERS];
	int n = rt_observing.nevent;
	for (int i = 0; i < n; i++)
		on[i] = rt_observing.event[i];
	for (int i = 0; i < n; i++)
		on[i]->event(self, ev, addr, obj, size, site, flags);
}

void rt_observe_decision(const struct rt_decision *d)
{
	for (int i = 0; i < rt_observing.ndecision; i++)
		rt_observing.decision[i]->decision(d);
}

void rt_observe_block(struct rt_thread *self, enum rt_ev ev, struct rt_obj *obj, const void *site)
{
	for (int i = 0; i < rt_observing.nblock; i++)
		rt_observing.block[i]->block(self, ev, obj, site);
}

void rt_observe_resume(struct rt_thread *self)
{
	for (int i = 0; i < rt_observing.nresume; i++)
		rt_observing.resume[i]->resume(self);
}

void rt_observe_sync_slow(struct rt_thread *self, const struct rt_obj *obj, enum rt_sync what)
{
	for (int i = 0; i < rt_observing.nsync; i++)
		rt_observing.sync[i]->sync(self, obj, what);
}

void rt_observe_thread_created(struct rt_thread *t)
{
	for (int i = 0; i < rt_observing.ncreated; i++)
		rt_observing.created[i]->thread_created(t);
}

void rt_observe_fail(enum rt_fail_kind kind, const void *site, const char *msg)
{
	for (size_t i = 0; i < sizeof observers / sizeof *observers; i++)
		if (observers[i]->fail)
			observers[i]->fail(kind, site, msg);
}

void rt_observe_end(enum rt_fail_kind fail)
{
	for (size_t i = 0; i < sizeof observers / sizeof *observers; i++)
		if (observers[i]->end)
			observers[i]->end(fail);
}
