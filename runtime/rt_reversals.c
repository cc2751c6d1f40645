/* rt_reversals.c - guided run's third source of schedules: races of past
 * executions, reversed (docs/guided.md).
 *
 * Each schedule of this arm is the next one of a DPOR search (search.h):
 * the last execution's log names pairs of conflicting steps of two
 * threads, and the search hands out the schedule that runs the second of
 * a pair first. That is feedback of the most direct kind: it reads which
 * write each read saw and asks for the other one, as reads-from
 * mutation does, but along a depth-first order that reaches the races
 * near an execution's end first, where small programs check their
 * results. The search is not meant to complete here, only to feed the
 * explorer schedules that a random plan hits rarely.
 *
 * Its first execution is not DPOR's own (the default schedule, which
 * shows little a fresh plan did not) but the explorer's first fresh plan,
 * logged (rt_reversals_watch): the search branches off the random walk,
 * and its first schedule is already a reversal (zoo: geometric mean
 * 2.59 schedules to the first bug, 3.35 with DPOR's own first). Only
 * when the arm's turn comes before any fresh plan (a loaded corpus runs
 * first) does the search start from its own default schedule.
 *
 * Its children log as a search's do, but run as `schedfuzz replay` runs
 * their input (sx_log.as_replayed): memory a thread owns is no point and
 * thread slots are reused, and where a list says nothing a thread that
 * had to give way waits for the others (SF_FLAG_FAIR: two threads that spin
 * in turn do not starve a third, an unfair schedule no OS would run). So a
 * failure replays as it was found and is a fair execution; the cost
 * is that the search sees only the accesses that were points, and may
 * reverse fewer races than a complete DPOR would.
 *
 * The arm stops for good when an execution has more than LONGEST steps
 * (its log is cut there) or any schedule, the first fresh plan included,
 * shows more than MOST_THREADS threads: there DPOR's depth-first order
 * spends its schedules on the last few races of a space too large for it
 * (the two-stage family at 100 threads: median 89.5 schedules with the
 * arm, 25 without), and the portfolio's random plans cover more; a long
 * log also costs the child time and the explorer a long analysis. Runs in
 * the explorer's process. */
#include <stdlib.h>

#include "rt_internal.h"
#include "rt_reversals.h"
#include "search.h"

/* An execution longer than this (scheduling points), or with more threads
 * than this (main included), ends the arm. */
#define LONGEST 20000
#define MOST_THREADS 4

struct rt_reversals {
	struct sx_search *search;
	struct sx_log *log;
	uint8_t *genome;
	bool done;
	bool first;   /* the search has no execution yet */
	bool running; /* the child running now logs for the arm */
};

struct rt_reversals *rt_reversals_create(void)
{
	if (rt_env_u64("SCHEDFUZZ_REVERSALS", 1) == 0)
		return NULL;
	struct rt_reversals *r = calloc(1, sizeof *r);
	struct sx_spec spec = { .mode = SX_DPOR, .bound = -1 };
	if (!r || !(r->log = rt_search_map_log(false)) || !(r->search = sx_create(&spec))) {
		free(r);
		return NULL; /* no arm, rather than no run */
	}
	r->log->as_replayed = 1;
	r->log->cap_trans = LONGEST;
	r->log->cap_dec = LONGEST;
	r->first = true;
	return r;
}

const uint8_t *rt_reversals_next(struct rt_reversals *r, size_t *size)
{
	if (r->done)
		return NULL;
	const struct sf_decision *dec;
	uint32_t n;
	free(r->genome);
	r->genome = NULL;
	if (!sx_next(r->search, &dec, &n) || !(r->genome = rt_search_encode(dec, n, size))) {
		r->done = true;
		return NULL;
	}
	r->first = false;
	r->running = true;
	rt.search = r->log; /* the child about to be forked logs */
	return r->genome;
}

void rt_reversals_watch(struct rt_reversals *r)
{
	if (!r || r->done || !r->first)
		return;
	r->running = true;
	rt.search = r->log;
}

void rt_reversals_ran(struct rt_reversals *r, bool failed)
{
	if (!r || !r->running)
		return;
	rt.search = NULL; /* a failure's replay check runs as replay does */
	r->running = false;
	if (r->done)
		return; /* ended by the threads this execution had */
	enum sx_fed fed = r->first ? sx_feed_first(r->search, r->log, !failed)
				   : sx_feed(r->search, r->log, !failed);
	r->first = false;
	if (fed == SX_FED_OVERFLOW)
		r->done = true;
}

void rt_reversals_threads(struct rt_reversals *r, uint32_t threads)
{
	if (r && threads > MOST_THREADS)
		r->done = true;
}

bool rt_reversals_active(const struct rt_reversals *r)
{
	return r && !r->done;
}
