/* splice.c - mutations of explicit decision lists (splice.h).
 *
 * A list says "at decision i, take value v"; decisions it does not name
 * take the default (explicit.c). So every list is valid, and the steps
 * here keep it sorted by index, without repeats, as the encoder writes it.
 * Values are thread ids or option numbers: a new one is drawn below 8,
 * where most programs' choices lie, or next to the old one. */
#include "splice.h"

#include <stdlib.h>

#include "rng.h"

enum step { REVALUE, INSERT, DROP, TRUNCATE, SPLICE, NSTEPS };

static uint32_t load(const struct sf_plan *p, struct sf_decision *d)
{
	uint32_t n = 0;
	for (uint32_t i = 0; p && p->kind == SF_KIND_EXPLICIT && i < p->ndecisions; i++) {
		struct sf_decision x = sf_plan_decision(p, i);
		if (n && x.index <= d[n - 1].index)
			continue; /* out of order or repeated: the strategy skips it too */
		d[n++] = x;
	}
	return n;
}

static uint16_t new_value(struct sf_rng *rng, uint16_t old)
{
	uint16_t v = (uint16_t)(sf_rng_below(rng, 2) ? sf_rng_below(rng, 8) : old + 1);
	return v == old ? (uint16_t)(old ? old - 1 : 1) : v;
}

size_t sf_explicit_mutate(const struct sf_plan *plan, const struct sf_plan *other, uint64_t events,
			  uint64_t seed, uint8_t *out, size_t cap)
{
	uint32_t n0 = plan->kind == SF_KIND_EXPLICIT ? plan->ndecisions : 0;
	uint32_t n1 = other && other->kind == SF_KIND_EXPLICIT ? other->ndecisions : 0;
	struct sf_decision *d = malloc(((size_t)n0 + 1) * sizeof *d);
	struct sf_decision *o = malloc(((size_t)n1 + 1) * sizeof *o);
	struct sf_decision *m = malloc(((size_t)n0 + n1 + 1) * sizeof *m);
	if (!d || !o || !m) {
		free(d), free(o), free(m);
		return 0;
	}
	uint32_t n = load(plan, d), no = load(other, o), nm = 0;
	struct sf_rng rng;
	sf_rng_seed(&rng, seed);
	enum step s = (enum step)sf_rng_below(&rng, NSTEPS);
	if (n == 0 && s != SPLICE)
		s = INSERT;
	if (s == SPLICE && no == 0)
		s = n ? REVALUE : INSERT;
	switch (s) {
	case REVALUE: {
		uint32_t i = sf_rng_below(&rng, n);
		d[i].value = new_value(&rng, d[i].value);
		break;
	}
	case INSERT: {
		uint64_t last = n ? d[n - 1].index : 0;
		uint64_t span = events > last ? events : last + 16;
		uint32_t at = (uint32_t)(sf_rng_next(&rng) % span);
		uint32_t i = 0;
		while (i < n && d[i].index < at)
			i++;
		if (i < n && d[i].index == at) {
			d[i].value = new_value(&rng, d[i].value);
			break;
		}
		for (uint32_t j = n; j > i; j--)
			d[j] = d[j - 1];
		d[i] = (struct sf_decision){ at, (uint16_t)sf_rng_below(&rng, 8) };
		n++;
		break;
	}
	case DROP: {
		uint32_t i = sf_rng_below(&rng, n);
		for (; i + 1 < n; i++)
			d[i] = d[i + 1];
		n--;
		break;
	}
	case TRUNCATE:
		n = sf_rng_below(&rng, n);
		break;
	case SPLICE: {
		/* Cut at one of the two lists' indices: plan's decisions before
		 * it, other's from it on. */
		uint32_t pick = sf_rng_below(&rng, n + no);
		uint32_t cut = pick < n ? d[pick].index : o[pick - n].index;
		for (uint32_t i = 0; i < n && d[i].index < cut; i++)
			m[nm++] = d[i];
		for (uint32_t i = 0; i < no; i++)
			if (o[i].index >= cut)
				m[nm++] = o[i];
		break;
	}
	case NSTEPS:
		break;
	}
	struct sf_plan p = *plan;
	p.kind = SF_KIND_EXPLICIT;
	size_t size = s == SPLICE ? sf_genome_encode(&p, m, nm, out, cap)
				  : sf_genome_encode(&p, d, n, out, cap);
	free(d), free(o), free(m);
	return size <= cap ? size : 0;
}
