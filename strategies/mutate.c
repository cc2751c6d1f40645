/* mutate.c - genome-aware mutation steps (see mutate.h). */
#include "mutate.h"

#include <string.h>

#include "rng.h"

/* Plans a fresh draw may make when nothing is pinned: every strategy, at
 * the depths and modes the strategy table in the README recommends. */
static const struct sf_spec fresh_specs[] = {
	{ .kind = SF_KIND_RANDOM },
	{ .kind = SF_KIND_PCT, .given = SF_SPEC_DEPTH, .depth = 2 },
	{ .kind = SF_KIND_PCT, .given = SF_SPEC_DEPTH, .depth = 3 },
	{ .kind = SF_KIND_PCT, .given = SF_SPEC_DEPTH, .depth = 4 },
	{ .kind = SF_KIND_RPRO, .given = SF_SPEC_DEPTH | SF_SPEC_RADIUS, .depth = 3, .radius = 20 },
	{ .kind = SF_KIND_RPRO, .given = SF_SPEC_DEPTH | SF_SPEC_RADIUS | SF_SPEC_FLAGS, .depth = 3,
	  .radius = 20, .flags = SF_FLAG_LOCKS },
	{ .kind = SF_KIND_RPRO, .given = SF_SPEC_DEPTH | SF_SPEC_RADIUS, .depth = 4, .radius = 5 },
	{ .kind = SF_KIND_PCTVB, .given = SF_SPEC_DEPTH | SF_SPEC_NVARS, .depth = 2, .nvars = 1 },
	{ .kind = SF_KIND_PCTVB, .given = SF_SPEC_DEPTH | SF_SPEC_NVARS, .depth = 3, .nvars = 2 },
	{ .kind = SF_KIND_FOCUS, .given = SF_SPEC_DEPTH, .depth = 2 },
	{ .kind = SF_KIND_FOCUS, .given = SF_SPEC_DEPTH, .depth = 3 },
};
#define NFRESH (sizeof fresh_specs / sizeof fresh_specs[0])

enum step { FRESH, RESEED, RESCALE, REDRAW_CP, NUDGE_CP, DEPTH, PRIORITIES, VARIABLE, RADIUS, NSTEPS };

/* The events the plan's change points count, as executions showed them. */
static uint64_t seen_k(const struct sf_plan *p, const struct sf_estimates *est)
{
	return (p->flags & SF_FLAG_LOCKS) ? est->locks : est->events;
}

/* The range change point i is read modulo (pct.c, rpro.c, pctvb.c, focus.c). */
static uint64_t cp_range(const struct sf_plan *p, int i)
{
	if (p->kind == SF_KIND_RPRO && i > 0)
		return 2ull * p->radius;
	if (p->kind == SF_KIND_PCTVB || p->kind == SF_KIND_FOCUS) {
		uint64_t total = 0;
		for (int v = 0; v < p->nvars; v++)
			total += p->var_acc[v];
		return total;
	}
	return p->k;
}

static uint32_t below(struct sf_rng *rng, uint64_t n)
{
	return n > UINT32_MAX ? (uint32_t)sf_rng_next(rng) : sf_rng_below(rng, (uint32_t)n);
}

static void redraw_cp(struct sf_plan *p, int i, struct sf_rng *rng)
{
	p->cp[i] = below(rng, cp_range(p, i));
}

/* k set to what executions showed (or, before any did, a power of two
 * from 8 to 65536), with the change points moved to the same relative
 * places, so a plan that was right in shape but wrong in scale keeps its
 * shape. A plan already at that scale gets its change points redrawn. */
static void rescale(struct sf_plan *p, const struct sf_estimates *est, struct sf_rng *rng)
{
	if (p->kind == SF_KIND_PCTVB) {
		/* Its scale is each variable's access count. */
		for (int v = 0; v < p->nvars; v++)
			for (uint32_t j = 0; j < est->nvars; j++)
				if (est->vars[j].id == p->var[v] && est->vars[j].accesses)
					p->var_acc[v] = est->vars[j].accesses;
		return;
	}
	if (p->kind == SF_KIND_FOCUS) {
		/* Its scale is each role's event count (focus.c). */
		for (int r = 0; r < p->nvars; r++) {
			uint32_t m = sf_focus_routine(p->var[r]);
			if (m < est->nroutines && est->routines[m].events)
				p->var_acc[r] = est->routines[m].events;
		}
		return;
	}
	uint64_t k = seen_k(p, est);
	if (k == p->k) { /* the scale is right already: new places at it */
		for (int i = 0; i < p->depth - 1; i++)
			redraw_cp(p, i, rng);
		return;
	}
	if (k == 0)
		k = 8ull << sf_rng_below(rng, 14);
	if (k > UINT32_MAX)
		k = UINT32_MAX;
	int scaled = p->kind == SF_KIND_RPRO ? 1 : p->depth - 1; /* RPRO's others are offsets */
	for (int i = 0; i < scaled; i++)
		p->cp[i] = (uint32_t)((p->cp[i] % p->k) * k / p->k);
	p->k = (uint32_t)k;
}

/* Another variable in place of variable v: one that two threads shared,
 * as a fresh plan picks (sf_var_pool). */
static void swap_variable(struct sf_plan *p, const struct sf_estimates *est, struct sf_rng *rng)
{
	uint32_t pool[SF_EST_VARS], n = sf_var_pool(est, true, pool);
	int v = (int)sf_rng_below(rng, p->nvars);
	if (n == 0) { /* nothing seen: another rank, "the m-th to be shared" */
		p->var[v] = sf_rng_below(rng, 8);
		return;
	}
	const struct sf_var_estimate *e = &est->vars[pool[sf_rng_below(rng, n)]];
	p->var[v] = e->id;
	p->var_acc[v] = e->accesses ? e->accesses : 1;
}

static void change_depth(struct sf_plan *p, struct sf_rng *rng)
{
	bool up = p->depth == 1 || (p->depth < SF_MAX_DEPTH && sf_rng_below(rng, 2));
	if (!up) {
		p->depth--;
		return;
	}
	p->depth++;
	redraw_cp(p, p->depth - 2, rng);
}

static void shuffle_priorities(struct sf_plan *p, struct sf_rng *rng)
{
	if (sf_rng_below(rng, 2)) { /* swap two threads' keys */
		uint32_t a = sf_rng_below(rng, SF_PRIO_SLOTS), b = sf_rng_below(rng, SF_PRIO_SLOTS);
		uint8_t t = p->prio[a];
		p->prio[a] = p->prio[b];
		p->prio[b] = t;
	} else { /* or a thread's key redrawn, and a change point's */
		p->prio[sf_rng_below(rng, SF_PRIO_SLOTS)] = (uint8_t)sf_rng_next(rng);
		p->cp_key[sf_rng_below(rng, SF_MAX_CP)] = (uint8_t)sf_rng_next(rng);
	}
}

static void fresh(struct sf_plan *p, const struct sf_spec *pinned, const struct sf_estimates *est,
		  struct sf_rng *rng)
{
	const struct sf_spec *spec = pinned ? pinned : &fresh_specs[sf_rng_below(rng, NFRESH)];
	sf_plan_generate(spec, est, sf_rng_next(rng), p);
}

/* One step. Steps that mean nothing for the plan's kind, or would touch
 * what the pinned spec fixes, fall back to a new seed, which always means
 * something (the random walk's draws, or the priorities' tie-breaks). */
static void step(struct sf_plan *p, const struct sf_spec *pinned, const struct sf_estimates *est,
		 struct sf_rng *rng)
{
	bool prio = sf_kind_has_priorities(p->kind);
	int ncp = prio ? p->depth - 1 : 0;
	unsigned fixed = pinned ? pinned->given : 0;
	switch ((enum step)sf_rng_below(rng, NSTEPS)) {
	case FRESH:
		fresh(p, pinned, est, rng);
		return;
	case RESCALE:
		if (prio && !(fixed & SF_SPEC_K)) {
			rescale(p, est, rng);
			return;
		}
		break;
	case REDRAW_CP:
		if (ncp > 0) {
			redraw_cp(p, (int)sf_rng_below(rng, (uint32_t)ncp), rng);
			return;
		}
		break;
	case NUDGE_CP:
		if (ncp > 0) {
			int i = (int)sf_rng_below(rng, (uint32_t)ncp);
			int32_t by = (int32_t)sf_rng_below(rng, 8) + 1;
			p->cp[i] += sf_rng_below(rng, 2) ? (uint32_t)by : (uint32_t)-by;
			return;
		}
		break;
	case DEPTH:
		if (prio && !(fixed & SF_SPEC_DEPTH)) {
			change_depth(p, rng);
			return;
		}
		break;
	case PRIORITIES:
		if (prio) {
			shuffle_priorities(p, rng);
			return;
		}
		break;
	case VARIABLE:
		if (p->kind == SF_KIND_PCTVB) {
			swap_variable(p, est, rng);
			return;
		}
		break;
	case RADIUS:
		if (p->kind == SF_KIND_RPRO && !(fixed & SF_SPEC_RADIUS)) {
			p->radius = (uint16_t)(1 + sf_rng_below(rng, 2u * p->radius + 2));
			return;
		}
		break;
	case RESEED:
	case NSTEPS:
		break;
	}
	p->seed = sf_rng_next(rng);
}

bool sf_plan_mutate(struct sf_plan *plan, const struct sf_spec *pinned,
		    const struct sf_estimates *est, uint64_t seed)
{
	struct sf_rng rng;
	sf_rng_seed(&rng, seed);
	if (plan->kind == SF_KIND_EXPLICIT && !(pinned && pinned->kind != SF_KIND_EXPLICIT)) {
		/* A recorded schedule: its decisions are bytes to mutate, but
		 * now and then a fresh plan leaves it for the others. */
		if (sf_rng_below(&rng, 4))
			return false;
		fresh(plan, pinned, est, &rng);
		sf_plan_normalize(plan);
		return true;
	}
	if (pinned)
		sf_spec_pin(pinned, plan); /* mutate what will run */
	for (int n = 1 + (int)sf_rng_below(&rng, 3); n > 0; n--)
		step(plan, pinned, est, &rng);
	if (pinned)
		sf_spec_pin(pinned, plan);
	sf_plan_normalize(plan);
	return true;
}

size_t sf_genome_mutate(struct sf_plan *plan, const uint8_t *data, size_t data_size, uint8_t *out,
			size_t max_size, const struct sf_spec *pinned,
			const struct sf_estimates *est, uint64_t seed)
{
	if (!sf_plan_mutate(plan, pinned, est, seed))
		return 0;
	size_t rest = data_size;
	if (SF_GENOME_HEADER + rest > max_size)
		rest = max_size - SF_GENOME_HEADER;
	memmove(out + SF_GENOME_HEADER, data, rest); /* first: the data may sit in the header's place */
	sf_genome_encode(plan, NULL, 0, out, SF_GENOME_HEADER);
	return SF_GENOME_HEADER + rest;
}
