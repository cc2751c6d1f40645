/* pctvb.c - where PCTVB's change points fall (docs/design/algorithms.md,
 * PCTVB; 001 section 3).
 *
 * The plan names v variables x_1..x_v with estimated access counts a_i.
 * Change point word cp[i] mod (a_1 + ... + a_v) indexes the pairs (x, j),
 * 1 <= j <= a_x, in order: "the j-th access to x". So with random words
 * every pair is equally likely, as in the paper. Labels are PCT's (the
 * genome's order), as "run as PCT" says; with thread bounding (tb) a
 * change point gives the next priority of the permutation instead (001
 * section 4, see priority.c).
 *
 * A variable is a global or a heap allocation site (genome.h, SF_VAR_*).
 * Departures: which variables are "seen touched by two or more threads in
 * earlier runs" can only be known where genomes are made (generate.c
 * prefers them); decoding stays a pure function of the bytes. A genome may
 * instead name a variable by rank, "the m-th to be shared in this
 * execution" (seen so where a second thread's access to it is a
 * scheduling point, docs/cost.md): its accesses count from the first one
 * seen, but a change point that falls before the variable is shared
 * cannot fire, since the variable was not known yet. */
#include "priority.h"

int sf_pctvb_changes(const struct sf_plan *plan, struct sf_change out[SF_MAX_CP])
{
	int n = plan->depth - 1;
	uint64_t total = 0;
	for (int v = 0; v < plan->nvars; v++)
		total += plan->var_acc[v];
	for (int i = 0; i < n; i++) {
		uint64_t u = plan->cp[i] % total;
		int v = 0;
		while (u >= plan->var_acc[v])
			u -= plan->var_acc[v++];
		out[i] = (struct sf_change){
			.at = u + 1,
			.stream = (uint8_t)v,
			.slot = (uint8_t)i,
			.label = (uint8_t)(i + 1),
		};
	}
	return n;
}
