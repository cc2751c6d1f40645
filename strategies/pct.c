/* pct.c - where PCT's change points fall (docs/design/algorithms.md, PCT).
 *
 * Change point i (1 <= i <= d-1) is event 1 + cp[i-1] mod k and carries
 * priority value i, as in Burckhardt et al.: the genome's order is the
 * label order, not the order in time, so with random words every
 * assignment of labels to positions is equally likely and the bound
 * 1/(n k^(d-1)) holds.
 *
 * Departure: the paper draws distinct positions. Random generation here
 * does too (generate.c), but a genome a fuzzer wrote may repeat one; both
 * then fire at the same event and the larger label wins, which is a valid
 * schedule with fewer change points. With SF_FLAG_LOCKS the events are
 * lock acquisitions, as RPRO's deadlock mode counts them. */
#include "priority.h"

int sf_pct_changes(const struct sf_plan *plan, struct sf_change out[SF_MAX_CP])
{
	int n = plan->depth - 1;
	for (int i = 0; i < n; i++)
		out[i] = (struct sf_change){
			.at = 1 + plan->cp[i] % plan->k,
			.stream = 0,
			.slot = (uint8_t)i,
			.label = (uint8_t)(i + 1),
		};
	return n;
}
