/* generate.c - plans drawn the way the papers draw them. */
#include "generate.h"

#include <string.h>

#include "rng.h"

void sf_estimates_merge(struct sf_estimates *into, const struct sf_estimates *run)
{
	if (run->events > into->events)
		into->events = run->events;
	if (run->locks > into->locks)
		into->locks = run->locks;
	for (uint32_t i = 0; i < run->nvars && i < SF_EST_VARS; i++) {
		const struct sf_var_estimate *r = &run->vars[i];
		uint32_t j = 0;
		while (j < into->nvars && into->vars[j].id != r->id)
			j++;
		if (j == into->nvars) {
			if (into->nvars == SF_EST_VARS)
				continue;
			into->vars[into->nvars++] = (struct sf_var_estimate){ r->id, 0, 0 };
		}
		if (r->accesses > into->vars[j].accesses)
			into->vars[j].accesses = r->accesses;
		into->vars[j].shared |= r->shared;
	}
	for (uint32_t i = 0; i < run->nroutines && i < SF_EST_ROUTINES; i++) {
		struct sf_routine_estimate *to = &into->routines[i];
		const struct sf_routine_estimate *r = &run->routines[i];
		to->threads = r->threads > to->threads ? r->threads : to->threads;
		to->events = r->events > to->events ? r->events : to->events;
	}
	if (run->nroutines > into->nroutines)
		into->nroutines = run->nroutines < SF_EST_ROUTINES ? run->nroutines : SF_EST_ROUTINES;
}

static uint32_t clamp_k(uint64_t k)
{
	return k == 0 ? 1 : k > UINT32_MAX ? UINT32_MAX : (uint32_t)k;
}

/* n distinct words below range (fewer if range < n, then some repeat). */
static void distinct_below(struct sf_rng *rng, uint64_t range, uint32_t *out, int n)
{
	for (int i = 0; i < n; i++) {
		for (int tries = 0;; tries++) {
			out[i] = (uint32_t)(range <= UINT32_MAX ? sf_rng_below(rng, (uint32_t)range)
								: sf_rng_next(rng));
			bool seen = false;
			for (int j = 0; j < i; j++)
				seen |= out[j] == out[i];
			if (!seen || (uint64_t)i >= range || tries > 64)
				break;
		}
	}
}

uint32_t sf_var_pool(const struct sf_estimates *est, bool shared_only,
		     uint32_t pool[SF_EST_VARS])
{
	/* In order of preference: shared and few accesses, few accesses,
	 * shared, any. */
	for (int pass = 0; pass < 4; pass++) {
		bool need_shared = pass == 0 || pass == 2, need_few = pass < 2;
		if (shared_only && !need_shared)
			continue;
		uint32_t n = 0;
		for (uint32_t i = 0; i < est->nvars && i < SF_EST_VARS; i++)
			if ((!need_shared || est->vars[i].shared) &&
			    (!need_few || est->vars[i].accesses <= SF_VAR_MAX_ACCESSES))
				pool[n++] = i;
		if (n > 0)
			return n;
	}
	return 0;
}

static void choose_variables(struct sf_plan *plan, const struct sf_estimates *est,
			     struct sf_rng *rng, int want)
{
	uint32_t pool[SF_EST_VARS], npool = sf_var_pool(est, false, pool);

	if (npool == 0) {
		/* Nothing seen yet: the first variables to become shared. */
		plan->nvars = (uint8_t)want;
		for (int v = 0; v < want; v++) {
			plan->var[v] = (uint32_t)v;
			plan->var_acc[v] = SF_DEFAULT_ACCESSES;
		}
		return;
	}
	int n = want < (int)npool ? want : (int)npool;
	for (int v = 0; v < n; v++) { /* a partial Fisher-Yates shuffle */
		uint32_t j = v + sf_rng_below(rng, npool - (uint32_t)v);
		uint32_t t = pool[v];
		pool[v] = pool[j];
		pool[j] = t;
		const struct sf_var_estimate *e = &est->vars[pool[v]];
		plan->var[v] = e->id;
		plan->var_acc[v] = e->accesses ? e->accesses : 1;
	}
	plan->nvars = (uint8_t)n;
}

/* FOCUS's roles: the first thread of the program's main, then one thread
 * per start routine (its copies are interchangeable: symmetry), then
 * second and later copies while the depth asks for more threads than
 * there are routines. Main runs first in half of the plans, so that every
 * thread exists before the roles' races start (the common shape: main
 * creates workers and joins them). Change points fall on the events of
 * roles other than main, as main mostly creates and joins; one plan in
 * four lets them fall on main's too. */
static void choose_roles(struct sf_plan *plan, const struct sf_estimates *est, struct sf_rng *rng)
{
	struct sf_routine_estimate seen[SF_EST_ROUTINES];
	uint32_t nr = est->nroutines < SF_EST_ROUTINES ? est->nroutines : SF_EST_ROUTINES;
	for (uint32_t m = 0; m < nr; m++)
		seen[m] = est->routines[m];
	if (nr == 0) { /* nothing seen yet: main and two routines */
		nr = 3;
		for (uint32_t m = 0; m < nr; m++)
			seen[m] = (struct sf_routine_estimate){ 1, SF_DEFAULT_ROLE_EVENTS };
	}
	int want = plan->depth + 1 < SF_MAX_VARS ? plan->depth + 1 : SF_MAX_VARS;
	int n = 0;
	plan->var[n] = sf_focus_role(0, 0);
	plan->var_acc[n++] = seen[0].events ? seen[0].events : 1;
	for (uint32_t inst = 0; inst < SF_FOCUS_INSTANCES && n < want; inst++) {
		/* The routines with an instance inst, in random order. */
		uint32_t pool[SF_EST_ROUTINES], npool = 0;
		for (uint32_t m = 1; m < nr; m++)
			if (seen[m].threads > inst)
				pool[npool++] = m;
		for (uint32_t i = 0; i < npool && n < want; i++) {
			uint32_t j = i + sf_rng_below(rng, npool - i);
			uint32_t m = pool[j];
			pool[j] = pool[i];
			plan->var[n] = sf_focus_role(m, inst);
			plan->var_acc[n++] = seen[m].events ? seen[m].events : 1;
		}
	}
	plan->nvars = (uint8_t)n;

	for (int r = 0; r < n; r++)
		plan->prio[r] = (uint8_t)sf_rng_next(rng);
	if (sf_rng_below(rng, 2)) {
		plan->prio[0] = 255;
		for (int r = 1; r < n; r++)
			plan->prio[r] %= 255;
	}

	uint64_t total = 0, skip = 0;
	for (int r = 0; r < n; r++)
		total += plan->var_acc[r];
	if (n > 1 && sf_rng_below(rng, 4) != 0)
		skip = plan->var_acc[0];
	int ncp = plan->depth - 1;
	distinct_below(rng, total - skip, plan->cp, ncp);
	for (int i = 0; i < ncp; i++)
		plan->cp[i] += (uint32_t)skip;
}

void sf_plan_generate(const struct sf_spec *given, const struct sf_estimates *est, uint64_t seed,
		      struct sf_plan *plan)
{
	struct sf_spec spec = *given;
	sf_spec_complete(&spec);
	struct sf_rng rng;
	sf_rng_seed(&rng, seed);

	memset(plan, 0, sizeof *plan);
	plan->kind = spec.kind;
	plan->seed = seed;
	plan->depth = spec.depth;
	plan->radius = spec.radius;
	plan->flags = spec.flags;
	plan->nvars = spec.nvars;
	sf_plan_normalize(plan);
	if (!sf_kind_has_priorities(plan->kind))
		return;

	bool locks = plan->flags & SF_FLAG_LOCKS;
	uint64_t seen = locks ? est->locks : est->events;
	plan->k = (spec.given & SF_SPEC_K) ? spec.k
		  : clamp_k(seen ? seen : locks ? SF_DEFAULT_LOCK_K : SF_DEFAULT_K);
	for (int t = 0; t < SF_PRIO_SLOTS; t++)
		plan->prio[t] = (uint8_t)sf_rng_next(&rng);
	for (int i = 0; i < SF_MAX_CP; i++)
		plan->cp_key[i] = (uint8_t)sf_rng_next(&rng);

	int ncp = plan->depth - 1;
	switch (plan->kind) {
	case SF_KIND_PCT:
		distinct_below(&rng, plan->k, plan->cp, ncp);
		break;
	case SF_KIND_RPRO:
		/* First anywhere; the others distinct offsets within the radius. */
		distinct_below(&rng, plan->k, plan->cp, ncp ? 1 : 0);
		if (ncp > 1)
			distinct_below(&rng, 2ull * plan->radius, plan->cp + 1, ncp - 1);
		break;
	case SF_KIND_PCTVB: {
		choose_variables(plan, est, &rng, plan->nvars);
		uint64_t total = 0;
		for (int v = 0; v < plan->nvars; v++)
			total += plan->var_acc[v];
		distinct_below(&rng, total, plan->cp, ncp);
		break;
	}
	case SF_KIND_FOCUS:
		choose_roles(plan, est, &rng);
		break;
	default:
		break;
	}
	sf_plan_normalize(plan);
}
