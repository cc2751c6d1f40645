/* focus.c - where FOCUS's change points fall, and who its roles are:
 * PCT for programs with many threads (docs/many-threads.md).
 *
 * PCT's guarantee 1/(n k^(d-1)) fades as the thread count n grows, and k
 * (every event of every thread) grows with it. Most of those threads are
 * interchangeable: copies of one start routine. FOCUS spends its choices
 * on a few roles instead, each "the i-th thread created from the m-th
 * distinct start routine" (genome.h, SF_FOCUS_*), so that one role per
 * routine covers what all its copies could do first (symmetry), and only
 * roles take priorities and change points (thread bounding, after PCTVB's
 * thread bounding, 001 section 4, taken further): every other thread runs
 * at SF_PRIO_DEFAULT, below everything, in creation order.
 *
 * Change point word cp[i] mod (a_1 + ... + a_R) indexes the pairs (role
 * r, j), 1 <= j <= a_r, in order: "after the j-th event of role r's
 * thread", where a_r estimates the events of that thread. That is PCTVB's
 * reading with roles for variables, so with random words every pair is
 * equally likely, and the bound becomes 1/(R (a_1 + ... + a_R)^(d-1)):
 * it no longer depends on n. Labels are PCT's (the genome's order).
 *
 * Departures: a role that names no thread of this execution (a routine
 * never started, an instance never created) binds to nothing and its
 * change points never fire. Two roles naming the same thread: the first
 * one binds. */
#include "priority.h"

int sf_focus_changes(const struct sf_plan *plan, struct sf_change out[SF_MAX_CP])
{
	int n = plan->depth - 1;
	uint64_t total = 0;
	for (int r = 0; r < plan->nvars; r++)
		total += plan->var_acc[r];
	for (int i = 0; i < n; i++) {
		uint64_t u = plan->cp[i] % total;
		int r = 0;
		while (u >= plan->var_acc[r])
			u -= plan->var_acc[r++];
		out[i] = (struct sf_change){
			.at = u + 1,
			.stream = (uint8_t)r,
			.slot = (uint8_t)i,
			.label = (uint8_t)(i + 1),
		};
	}
	return n;
}
