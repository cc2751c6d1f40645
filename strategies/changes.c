/* changes.c - reading priorities and change points out of a plan, for
 * the priority strategy and for the readable form alike. */
#include "priority.h"
#include "rng.h"

enum sf_count sf_plan_counts(const struct sf_plan *plan)
{
	switch (plan->kind) {
	case SF_KIND_PCT:
	case SF_KIND_RPRO:
		if (plan->depth < 2)
			return SF_COUNT_NONE;
		return plan->flags & SF_FLAG_LOCKS ? SF_COUNT_LOCKS : SF_COUNT_EVENTS;
	case SF_KIND_PCTVB:
		return plan->depth < 2 ? SF_COUNT_NONE : SF_COUNT_VARS;
	case SF_KIND_FOCUS:
		return plan->depth < 2 ? SF_COUNT_NONE : SF_COUNT_ROLES;
	default:
		return SF_COUNT_NONE;
	}
}

static bool before(const struct sf_change *a, const struct sf_change *b)
{
	if (a->stream != b->stream)
		return a->stream < b->stream;
	if (a->at != b->at)
		return a->at < b->at;
	return a->label < b->label;
}

void sf_changes_sort(struct sf_change *c, int n)
{
	for (int i = 1; i < n; i++) { /* insertion sort: n < 8, and stable */
		struct sf_change x = c[i];
		int j = i;
		for (; j > 0 && before(&x, &c[j - 1]); j--)
			c[j] = c[j - 1];
		c[j] = x;
	}
}

int sf_plan_changes(const struct sf_plan *plan, struct sf_change out[SF_MAX_CP])
{
	int n;
	switch (plan->kind) {
	case SF_KIND_PCT:
		n = sf_pct_changes(plan, out);
		break;
	case SF_KIND_RPRO:
		n = sf_rpro_changes(plan, out);
		break;
	case SF_KIND_PCTVB:
		n = sf_pctvb_changes(plan, out);
		break;
	case SF_KIND_FOCUS:
		n = sf_focus_changes(plan, out);
		break;
	default:
		return 0;
	}
	sf_changes_sort(out, n);
	return n;
}

/* A 64-bit value of the seed for one purpose: tie-breaks and priorities
 * of threads past the genome's slots. */
static uint64_t seeded(const struct sf_plan *plan, uint64_t what)
{
	uint64_t x = plan->seed ^ (what * 0x9e3779b97f4a7c15ull);
	return sf_splitmix64(&x);
}

/* key byte above a 32-bit tie-break: distinct with overwhelming odds, and
 * tid (or slot) settles the rest in priority.c. */
static sf_prio key(uint8_t byte, uint64_t tiebreak)
{
	return SF_PRIO_BASE + ((sf_prio)byte << 32) + (sf_prio)(tiebreak & 0xffffffffu);
}

sf_prio sf_prio_initial(const struct sf_plan *plan, int tid)
{
	uint8_t byte = tid < SF_PRIO_SLOTS ? plan->prio[tid] : (uint8_t)(seeded(plan, 0x100 + (uint64_t)tid) >> 56);
	return key(byte, seeded(plan, (uint64_t)tid));
}

sf_prio sf_prio_role(const struct sf_plan *plan, int role)
{
	return key(plan->prio[role], seeded(plan, 0x20000 + (uint64_t)role));
}

sf_prio sf_prio_change(const struct sf_plan *plan, const struct sf_change *c)
{
	if (plan->flags & SF_FLAG_TB)
		return key(plan->cp_key[c->slot], seeded(plan, 0x10000 + c->slot));
	return c->label;
}
