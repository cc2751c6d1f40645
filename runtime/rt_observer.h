/* rt_observer.h - the event table: the scheduler publishes each event of an
 * execution once, to the observers that are on in it.
 *
 * An observer is a methods table, as a strategy is (strategies/strategy.h):
 * coverage, the trace, the systematic search's log, a portable reproducer's
 * anchors and the explicit record are observers, and the scheduler names
 * none of them.
 * Adding one is a file that defines its table and a line in rt_observers.c.
 * Observers watch: what they do never changes a schedule (the strategy and
 * the anchors' override decide, in rt_sched.c).
 *
 * Every method may be NULL. The dispatchers below run only the observers
 * that are on (each says so through its on()), from lists made at the
 * execution's start and whenever one starts or stops listening
 * (rt_observers_changed), so that an event nobody hears costs one test. */
#ifndef SCHEDFUZZ_RT_OBSERVER_H
#define SCHEDFUZZ_RT_OBSERVER_H

#include "rt_internal.h"

/* What a sync model did to an object between two scheduling points. */
enum rt_sync {
	RT_SYNC_ACQ,	    /* took a lock exclusively (or retook a mutex after a wait) */
	RT_SYNC_ACQ_SHARED, /* took a read lock */
	RT_SYNC_REL,	    /* released a lock */
	RT_SYNC_WAIT,	    /* became a condition's waiter: a signal from now on wakes it */
	RT_SYNC_ONCE,	    /* ran or saw a once-flag: ordered with everything on it */
	RT_SYNC_SPURIOUS,   /* the condition wait just recorded woke spuriously */
};

/* A decision of the running thread: a pick of the next thread among two or
 * more candidates, or a choice among n options (rt_choose). */
struct rt_decision {
	uint32_t index;	     /* its number in the execution */
	bool choice;	     /* a choice, else a pick */
	bool departs;	     /* differs from the default: an explicit genome keeps it */
	uint32_t value;	     /* the option chosen, or the slot of the thread picked */
	uint32_t n;	     /* options, or candidates */
	/* A pick's candidates, and indices into them. */
	const struct strat_candidate *cand;
	int chosen, dflt;
	int current; /* the running thread's slot if it could go on, else -1 */
};

/* The decisions of an execution that departed from the default: what an
 * explicit genome keeps (rt_record.c; the debugger's `sf save` too). */
struct rt_departures {
	struct sf_decision *dec;
	uint32_t n, cap;
};
/* Keeps d if it departs; out of memory, the list stays as it was. */
RT_HIDDEN void rt_departures_add(struct rt_departures *l, const struct rt_decision *d);

struct rt_observer {
	const char *name;
	/* Whether it listens now (read after begin and at every change). */
	bool (*on)(void);
	/* A new execution: reset, and decide whether to listen. */
	void (*begin)(void);
	/* The event just logged at a scheduling point, with its RT_EVF_* flags. */
	void (*event)(struct rt_thread *self, enum rt_ev ev, uintptr_t addr, struct rt_obj *obj,
		      uint32_t size, const void *site, uint8_t flags);
	void (*decision)(const struct rt_decision *d);
	/* Self attempts ev and must wait; and later resumes from that wait
	 * (its event was logged before it blocked). */
	void (*block)(struct rt_thread *self, enum rt_ev ev, struct rt_obj *obj, const void *site);
	void (*resume)(struct rt_thread *self);
	void (*sync)(struct rt_thread *self, const struct rt_obj *obj, enum rt_sync what);
	void (*thread_created)(struct rt_thread *t);
	/* The failure, before the execution's result is published; and the
	 * execution's end, either way. Both reach every observer, on or not:
	 * what it has to write it knows. */
	void (*fail)(enum rt_fail_kind kind, const void *site, const char *msg);
	void (*end)(enum rt_fail_kind fail);
};

extern const struct rt_observer rt_search_observer RT_HIDDEN;
extern const struct rt_observer rt_cov_observer RT_HIDDEN;
extern const struct rt_observer rt_trace_observer RT_HIDDEN;
extern const struct rt_observer rt_anchors_observer RT_HIDDEN;
extern const struct rt_observer rt_record_observer RT_HIDDEN;
extern const struct rt_observer rt_debug_observer RT_HIDDEN;

#define RT_MAX_OBSERVERS 8

/* The observers on, per method. */
struct rt_observing {
	const struct rt_observer *event[RT_MAX_OBSERVERS], *decision[RT_MAX_OBSERVERS],
		*block[RT_MAX_OBSERVERS], *resume[RT_MAX_OBSERVERS], *sync[RT_MAX_OBSERVERS],
		*created[RT_MAX_OBSERVERS];
	uint8_t nevent, ndecision, nblock, nresume, nsync, ncreated;
};
extern struct rt_observing rt_observing RT_HIDDEN;

/* Every observer's begin, then the lists. */
RT_HIDDEN void rt_observers_begin(void);
/* An observer started or stopped listening: make the lists again (and
 * rt.observed, the one test the scheduler's fast path makes). */
RT_HIDDEN void rt_observers_changed(void);
/* Nobody listens any more (a forked child: the execution stays with the
 * parent). */
RT_HIDDEN void rt_observers_off(void);

RT_HIDDEN void rt_observe_event(struct rt_thread *self, enum rt_ev ev, uintptr_t addr,
				struct rt_obj *obj, uint32_t size, const void *site, uint8_t flags);
RT_HIDDEN void rt_observe_decision(const struct rt_decision *d);
RT_HIDDEN void rt_observe_block(struct rt_thread *self, enum rt_ev ev, struct rt_obj *obj,
				const void *site);
RT_HIDDEN void rt_observe_resume(struct rt_thread *self);
RT_HIDDEN void rt_observe_sync_slow(struct rt_thread *self, const struct rt_obj *obj,
				    enum rt_sync what);
RT_HIDDEN void rt_observe_thread_created(struct rt_thread *t);
RT_HIDDEN void rt_observe_fail(enum rt_fail_kind kind, const void *site, const char *msg);
RT_HIDDEN void rt_observe_end(enum rt_fail_kind fail);

/* Sync models call this at every lock they take or drop: one test when
 * nobody listens. */
static inline void rt_observe_sync(struct rt_thread *self, const struct rt_obj *obj,
				   enum rt_sync what)
{
	if (RT_UNLIKELY(rt_observing.nsync))
		rt_observe_sync_slow(self, obj, what);
}

#endif
