/* splice.c - mutations of explicit decision lists (splice.h).
 *
 * A list says "at decision i, take value v"; decisions it does not name
 * take the default (explicit.c: keep running the current thread). So every
 * list is valid, and the steps here keep it sorted by index, without
 * repeats, as the encoder writes it. A recorded list holds only the
 * switches, so the steps are about switches: one more right after an
 * existing one (what completes an ordering a schedule got half right: its
 * prefix stays as it was), one anywhere, one moved or dropped, another
 * thread at one, the list cut short, or spliced with another's. Values
 * are drawn below the largest the lists hold plus two: thread ids that
 * exist, and one more. */
#include "splice.h"

#include <stdlib.h>

#include "rng.h"

enum step { REVALUE, INSERT, EXTEND, NUDGE, DROP, TRUNCATE, SPLICE, NSTEPS };

#define MAX_STEPS 3 /* steps of one mutation: 1 to 3 (splice.h: callers leave room for 3 more decisions) */

static uint32_t load(const struct sf_plan *p, struct sf_decision *d, uint16_t *vmax)
{
	uint32_t n = 0;
	for (uint32_t i = 0; p && p->kind == SF_KIND_EXPLICIT && i < p->ndecisions; i++) {
		struct sf_decision x = sf_plan_decision(p, i);
		if (n && x.index <= d[n - 1].index)
			continue; /* out of order or repeated: the strategy skips it too */
		if (x.value > *vmax)
			*vmax = x.value;
		d[n++] = x;
	}
	return n;
}

static uint16_t new_value(struct sf_rng *rng, uint16_t old, uint16_t vmax)
{
	uint32_t bound = (uint32_t)vmax + 2;
	uint16_t v = (uint16_t)sf_rng_below(rng, bound);
	return v == old ? (uint16_t)((old + 1u) % bound) : v;
}

/* Set decision at to v: replaces one with that index, or is inserted. */
static void put(struct sf_decision *d, uint32_t *n, uint32_t at, uint16_t v)
{
	uint32_t i = 0;
	while (i < *n && d[i].index < at)
		i++;
	if (i < *n && d[i].index == at) {
		d[i].value = v;
		return;
	}
	for (uint32_t j = *n; j > i; j--)
		d[j] = d[j - 1];
	d[i] = (struct sf_decision){ at, v };
	(*n)++;
}

static void drop(struct sf_decision *d, uint32_t *n, uint32_t i)
{
	for (; i + 1 < *n; i++)
		d[i] = d[i + 1];
	(*n)--;
}

size_t sf_explicit_mutate(const struct sf_plan *plan, const struct sf_plan *other, uint64_t events,
			  uint64_t seed, uint8_t *out, size_t cap)
{
	uint32_t n0 = plan->kind == SF_KIND_EXPLICIT ? plan->ndecisions : 0;
	uint32_t n1 = other && other->kind == SF_KIND_EXPLICIT ? other->ndecisions : 0;
	size_t room = (size_t)n0 + n1 + MAX_STEPS + 1;
	struct sf_decision *d = malloc(room * sizeof *d);
	struct sf_decision *o = malloc(((size_t)n1 + 1) * sizeof *o);
	struct sf_decision *m = malloc(room * sizeof *m);
	if (!d || !o || !m) {
		free(d), free(o), free(m);
		return 0;
	}
	uint16_t vmax = 0;
	uint32_t n = load(plan, d, &vmax), no = load(other, o, &vmax);
	struct sf_rng rng;
	sf_rng_seed(&rng, seed);
	for (int k = 1 + (int)sf_rng_below(&rng, MAX_STEPS); k > 0; k--) {
		enum step s = (enum step)sf_rng_below(&rng, NSTEPS);
		if (n == 0 && s != SPLICE)
			s = INSERT;
		if (s == SPLICE && no == 0)
			s = n ? EXTEND : INSERT;
		uint32_t i = n ? sf_rng_below(&rng, n) : 0;
		switch (s) {
		case REVALUE:
			d[i].value = new_value(&rng, d[i].value, vmax);
			break;
		case INSERT: {
			uint64_t last = n ? d[n - 1].index : 0;
			uint64_t span = events > last ? events : last + 16;
			put(d, &n, (uint32_t)(sf_rng_next(&rng) % span),
			    (uint16_t)sf_rng_below(&rng, (uint32_t)vmax + 2));
			break;
		}
		case EXTEND: /* a switch 1 to 4 decisions after one, often the last */
			if (sf_rng_below(&rng, 2))
				i = n - 1;
			put(d, &n, d[i].index + 1 + sf_rng_below(&rng, 4),
			    (uint16_t)sf_rng_below(&rng, (uint32_t)vmax + 2));
			break;
		case NUDGE: { /* a switch one to three decisions earlier or later */
			struct sf_decision x = d[i];
			uint32_t by = 1 + sf_rng_below(&rng, 3);
			drop(d, &n, i);
			put(d, &n, sf_rng_below(&rng, 2) || x.index < by ? x.index + by : x.index - by,
			    x.value);
			break;
		}
		case DROP:
			drop(d, &n, i);
			break;
		case TRUNCATE:
			n = i;
			break;
		case SPLICE: {
			/* Cut at one of the two lists' indices: this list's
			 * decisions before it, the other's from it on. */
			uint32_t pick = sf_rng_below(&rng, n + no), nm = 0;
			uint32_t cut = pick < n ? d[pick].index : o[pick - n].index;
			for (uint32_t j = 0; j < n && d[j].index < cut; j++)
				m[nm++] = d[j];
			for (uint32_t j = 0; j < no && nm < room - MAX_STEPS; j++)
				if (o[j].index >= cut)
					m[nm++] = o[j];
			for (uint32_t j = 0; j < nm; j++)
				d[j] = m[j];
			n = nm;
			no = 0; /* once */
			break;
		}
		case NSTEPS:
			break;
		}
	}
	struct sf_plan p = *plan;
	p.kind = SF_KIND_EXPLICIT;
	size_t size = sf_genome_encode(&p, d, n, out, cap);
	free(d), free(o), free(m);
	return size <= cap ? size : 0;
}
