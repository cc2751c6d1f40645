/* rt_reversals.h - guided run's race-reversal arm (rt_reversals.c): the
 * schedules a DPOR search over the explorer's own executions asks for. */
#ifndef SCHEDFUZZ_RT_REVERSALS_H
#define SCHEDFUZZ_RT_REVERSALS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rt_reversals;

/* The arm, or NULL when SCHEDFUZZ_REVERSALS=0 or memory is short. */
struct rt_reversals *rt_reversals_create(void);
/* The next schedule (an explicit genome, valid until the next call), the
 * child to be forked set to log its execution; NULL when the arm is done. */
const uint8_t *rt_reversals_next(struct rt_reversals *r, size_t *size);
/* The child about to be forked runs another arm's schedule: if the search
 * has no execution yet, log it, as the search's first (sx_feed_first). */
void rt_reversals_watch(struct rt_reversals *r);
/* A child has ended: if it logged for the arm, learn its races. Call
 * before anything else runs a child (a failure's replay check among
 * them). */
void rt_reversals_ran(struct rt_reversals *r, bool failed);
/* A schedule, of any arm, ran with this many threads (main included).
 * Like rt_reversals_watch and rt_reversals_ran, a no-op for NULL. */
void rt_reversals_threads(struct rt_reversals *r, uint32_t threads);
/* Has the arm schedules left? False for NULL. */
bool rt_reversals_active(const struct rt_reversals *r);

#endif
