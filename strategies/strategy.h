/* strategy.h - the interface between the runtime and the decision logic.
 *
 * A strategy sees only what this header shows: a decoded plan, the set of
 * threads that may take the next step, and a few notifications. It never
 * sees runtime internals, so every strategy is testable without threads
 * (docs/design/style.md, Strategies: after shuttle, methods tables like
 * SQLite). The runtime, not the strategy, records every decision it
 * makes. */
#ifndef SCHEDFUZZ_STRATEGY_H
#define SCHEDFUZZ_STRATEGY_H

#include <stddef.h>
#include <stdint.h>

#include "genome.h"
#include "priority.h"

/* Thread ids a strategy must handle: 0 .. STRAT_MAX_THREADS-1. */
#define STRAT_MAX_THREADS 128

/* One thread that may take the next step. Thread ids are the runtime's
 * slots, given in creation order: 0 is the thread that started the
 * execution, and the slot of a thread that is gone for good (joined, or
 * detached and ended) goes to the next one created (a THREAD_CREATED note
 * says so). */
struct strat_candidate {
	uint16_t tid;
	/* 1 when this thread's pending operation cannot complete and it would
	 * run only because its timed wait times out. */
	uint8_t timeout;
};

/* What the runtime shows at a scheduling point with two or more candidates. */
struct strat_view {
	uint64_t step;    /* scheduling points so far in this execution */
	int current;      /* thread that reached the point, -1 if it cannot continue */
	const struct strat_candidate *cand; /* sorted by tid */
	int ncand;        /* >= 2 */
	/* The point is the tick of a private computation (the ownership
	 * model's count of private accesses, runtime/rt_own.h): the current
	 * thread touches no shared memory there. */
	bool tick;
};

/* Decisions other than "who runs next"; each returns a value below n. */
enum strat_choice {
	STRAT_CHOOSE_WAKER,    /* which waiter a condition signal wakes */
	STRAT_CHOOSE_SPURIOUS, /* 1 = this condition wait returns spuriously */
	STRAT_CHOICE_COUNT
};

enum strat_note {
	STRAT_NOTE_THREAD_CREATED, /* tid was created */
	STRAT_NOTE_STARVING,       /* tid must give way: no progress, a whole time slice, or a
				    * spin the watchdog preempted (docs/liveness.md) */
	STRAT_NOTE_COUNT
};

/* What the runtime counts for a strategy with change points, and when it
 * must call fire(): when stream s's count reaches next[s] (0 = never). For
 * SF_COUNT_VARS, stream s counts the accesses to variable var[s]. */
struct strat_counting {
	enum sf_count what;
	int nstreams;
	uint32_t var[SF_MAX_VARS];
	uint64_t next[SF_MAX_VARS];
};

struct strat_methods {
	const char *name;
	/* State is allocated once per process and reused for every execution. */
	void *(*create)(void);
	void (*destroy)(void *state);
	/* Start a new execution under plan; the plan outlives the execution. */
	void (*begin)(void *state, const struct sf_plan *plan);
	/* Index into view->cand of the thread to run next. */
	int (*pick)(void *state, const struct strat_view *view);
	uint32_t (*choose)(void *state, enum strat_choice what, uint32_t n, uint64_t step);
	void (*note)(void *state, enum strat_note what, int tid, uint64_t step);
	/* Change points; NULL for strategies without. counting() is asked
	 * once after begin. fire() is called when a stream's count reaches
	 * its next value, tid having executed that event; it returns the
	 * stream's next firing count, 0 for never. */
	void (*counting)(void *state, struct strat_counting *c);
	uint64_t (*fire)(void *state, int stream, uint64_t count, int tid);
	/* Who a thread is, for strategies that tell threads apart by where
	 * they come from (NULL for the others): tid runs the routine-th
	 * distinct start routine of this execution (0: the thread that
	 * started it, told at begin), and is the instance-th thread created
	 * from it. Returns the stream that counts tid's events under
	 * SF_COUNT_ROLES, or -1 when its events count toward nothing. */
	int (*spawned)(void *state, int tid, uint32_t routine, uint32_t instance);
};

extern const struct strat_methods strat_random_walk;
extern const struct strat_methods strat_explicit;
extern const struct strat_methods strat_priority; /* PCT, RPRO and PCTVB */

/* The methods that run plans of this kind. */
const struct strat_methods *strat_for_kind(enum sf_kind kind);

/* The default decision when a strategy has nothing to say: keep running the
 * current thread, else the lowest tid that completes without a timeout,
 * else the lowest tid. Returns an index into view->cand. */
int strat_default_pick(const struct strat_view *view);

#endif
