/* rpro.c - where RPRO's change points fall (docs/design/algorithms.md,
 * RPRO; 004 Algorithm 2).
 *
 * The first change point is event k_1 = 1 + cp[0] mod k. Each of the other
 * d-2 is k_1 + delta, where cp[i] mod 2r picks delta in [-r, -1] or
 * [1, r] (never k_1 itself), clipped to [1, k]. Then they are sorted.
 *
 * Reading of the paper: after sorting, "each k_i has an associated
 * priority value of i". We give the earliest the highest of the change
 * point values (d-1) and the latest the lowest (1): each change point then
 * drops its thread below everything lowered before it, which is what a
 * chain of ordering constraints needs (A then B then A again needs the
 * second lowering to go below the first). Labelling the other way round
 * makes every change point after the first a no-op between two threads.
 *
 * Departures: the paper draws distinct points; words a fuzzer wrote may
 * repeat a delta, or clipping may fold two onto one event, which gives a
 * valid schedule with fewer change points. With SF_FLAG_LOCKS only lock
 * acquisitions count (004 section 3.4), which is how k and r are meant. */
#include "priority.h"

static uint64_t clip(int64_t at, uint64_t k)
{
	return at < 1 ? 1 : (uint64_t)at > k ? k : (uint64_t)at;
}

int sf_rpro_changes(const struct sf_plan *plan, struct sf_change out[SF_MAX_CP])
{
	int n = plan->depth - 1;
	if (n == 0)
		return 0;
	uint64_t k = plan->k, r = plan->radius;
	int64_t first = (int64_t)(1 + plan->cp[0] % k);
	out[0] = (struct sf_change){ .at = (uint64_t)first, .slot = 0 };
	for (int i = 1; i < n; i++) {
		int64_t o = (int64_t)(plan->cp[i] % (2 * r));
		int64_t delta = o < (int64_t)r ? o - (int64_t)r : o - (int64_t)r + 1;
		out[i] = (struct sf_change){ .at = clip(first + delta, k), .slot = (uint8_t)i };
	}
	/* By position (one stream, no labels yet); ties keep genome order. */
	sf_changes_sort(out, n);
	for (int i = 0; i < n; i++)
		out[i].label = (uint8_t)(n - i);
	return n;
}
