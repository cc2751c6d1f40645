/* search.h - systematic exploration: every schedule of a program within a
 * bound, one execution at a time (docs/design/algorithms.md, Systematic
 * search).
 *
 * The search is stateless in CHESS's sense: it never stores a program
 * state, only the path of decisions that leads to it, and reaches a state
 * again by running the program from the start under that path. Each
 * schedule it hands out is an explicit decision list (genome.h), so every
 * explored execution is an ordinary input that replays like any other.
 *
 *   dfs          every schedule: all options at every decision
 *   icb[:c=N]    iterative context bounding: all schedules with 0, then 1,
 *                ... up to N preemptions (CHESS); no N: until exhausted
 *   dpor         dynamic partial-order reduction (Flanagan-Godefroid):
 *                one schedule per class of equivalent interleavings
 *   dpor+hapset  DPOR that reverses a race only if the order it would
 *                create is not yet in the learned HaPSets (paper 000)
 *
 * The loop: sx_next() gives a schedule, the caller runs it and hands its
 * log (search_log.h) to sx_feed(), until sx_next() says there is none. */
#ifndef SCHEDFUZZ_SEARCH_H
#define SCHEDFUZZ_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "genome.h"
#include "search_log.h"

enum sx_mode { SX_DFS, SX_ICB, SX_DPOR, SX_DPOR_HAPSET };

struct sx_spec {
	enum sx_mode mode;
	int bound; /* ICB: the highest preemption bound, -1 for none */
};

/* "dfs", "icb", "icb:c=2", "dpor", "dpor+hapset". False, with a reason in
 * err, when text names none of them. */
bool sx_spec_parse(const char *text, struct sx_spec *out, char *err, size_t cap);
/* Is text the name of a systematic strategy (not a fuzzing one)? */
bool sx_spec_is_search(const char *text);
int sx_spec_format(const struct sx_spec *spec, char *buf, size_t cap);

struct sx_search;

struct sx_search *sx_create(const struct sx_spec *spec);
void sx_destroy(struct sx_search *s);

/* The next schedule to run: *n decisions, those that differ from the
 * default, in index order (valid until the next call). False when the
 * search has nothing left to run. */
bool sx_next(struct sx_search *s, const struct sf_decision **out, uint32_t *n);

/* Is there a schedule left to run? Takes none. */
bool sx_more(struct sx_search *s);

enum sx_fed {
	SX_FED_OK,
	SX_FED_DIVERGED, /* the program did not repeat the schedule's prefix */
	SX_FED_OVERFLOW, /* the execution was longer than the log */
};
/* The schedule sx_next() gave has run and left log; good when it did not
 * fail (a guided search learns only from good runs). */
enum sx_fed sx_feed(struct sx_search *s, const struct sx_log *log, bool good);

/* In place of the search's own first schedule, an execution another
 * strategy ran, logged (guided run's first fresh plan): the search
 * branches off it. Only before the first sx_next(). */
enum sx_fed sx_feed_first(struct sx_search *s, const struct sx_log *log, bool good);

/* HaPSet pairs learned elsewhere: a fuzzing corpus's coverage. */
void sx_learn(struct sx_search *s, const uint64_t *pairs, uint32_t n);

struct sx_status {
	uint64_t schedules; /* executions fed so far */
	uint64_t redundant; /* DPOR: of them, found equivalent to an explored one
			     * from some point on (they ran a sleeping thread) */
	bool complete;      /* the search's whole space (up to its bound) is explored */
	int bound_done;     /* ICB: the highest bound whose space is explored, -1 none */
	bool exhausted;     /* ICB: no schedule needs more preemptions than bound_done */
	bool diverged;      /* some execution did not repeat its prefix */
	bool truncated;     /* ICB: the next bound's work list was cut short */
	uint64_t pairs;     /* HaPSet pairs learned so far */
};
void sx_status(const struct sx_search *s, struct sx_status *out);

/* Keep the search in a file, and pick it up again. Loading checks that
 * the file holds a search of the same spec. */
bool sx_save(const struct sx_search *s, const char *path, char *err, size_t cap);
struct sx_search *sx_load(const char *path, const struct sx_spec *spec, char *err, size_t cap);

/* Schedules kept for later ICB bounds, at most (default 1 << 20): beyond
 * it the next bound cannot complete, and says so. */
void sx_set_queue_limit(struct sx_search *s, uint64_t limit);

#endif
