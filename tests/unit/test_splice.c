/* test_splice.c - mutations of explicit decision lists (strategies/splice.c):
 * every mutant is an explicit genome, sorted and without repeats, the same
 * for the same seed; splices take a prefix of one list and a suffix of the
 * other; a list that does not fit is refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "genome.h"
#include "splice.h"

#define CAP (SF_GENOME_HEADER + 64 * SF_DECISION_BYTES)

static size_t make(const struct sf_decision *d, uint32_t n, uint8_t *out)
{
	struct sf_plan p = { .kind = SF_KIND_EXPLICIT, .seed = 42 };
	return sf_genome_encode(&p, d, n, out, CAP);
}

static void check_canonical(const uint8_t *g, size_t size, struct sf_plan *p)
{
	assert_int_equal(sf_genome_decode(g, size, p), size);
	assert_int_equal(p->kind, SF_KIND_EXPLICIT);
	assert_true(p->seed == 42); /* the plan's other fields are kept */
	for (uint32_t i = 1; i < p->ndecisions; i++)
		assert_true(sf_plan_decision(p, i - 1).index < sf_plan_decision(p, i).index);
}

static void test_mutants_are_canonical_and_deterministic(void **state)
{
	const struct sf_decision a[] = { { 0, 1 }, { 4, 0 }, { 9, 2 }, { 12, 1 } };
	const struct sf_decision b[] = { { 2, 2 }, { 7, 0 }, { 30, 1 } };
	uint8_t ga[CAP], gb[CAP], m1[CAP], m2[CAP];
	size_t na = make(a, 4, ga), nb = make(b, 3, gb);
	struct sf_plan pa, pb, pm;
	sf_genome_decode(ga, na, &pa);
	sf_genome_decode(gb, nb, &pb);
	int changed = 0;
	for (uint64_t seed = 0; seed < 500; seed++) {
		size_t s1 = sf_explicit_mutate(&pa, &pb, 40, seed, m1, CAP);
		size_t s2 = sf_explicit_mutate(&pa, &pb, 40, seed, m2, CAP);
		assert_true(s1 > 0);
		assert_int_equal(s1, s2);
		assert_memory_equal(m1, m2, s1);
		check_canonical(m1, s1, &pm);
		changed += s1 != na || memcmp(m1, ga, na) != 0;
	}
	assert_true(changed > 450); /* a step may undo another, rarely */
}

static void test_empty_list_grows(void **state)
{
	uint8_t g[CAP], m[CAP];
	size_t n = make(NULL, 0, g);
	struct sf_plan p, pm;
	sf_genome_decode(g, n, &p);
	int grew = 0;
	for (uint64_t seed = 0; seed < 50; seed++) {
		size_t s = sf_explicit_mutate(&p, NULL, 20, seed, m, CAP);
		check_canonical(m, s, &pm);
		grew += pm.ndecisions >= 1; /* a later step may drop it again */
		for (uint32_t i = 0; i < pm.ndecisions; i++)
			assert_true(sf_plan_decision(&pm, i).value < 2); /* no thread seen: 0 or 1 */
	}
	assert_true(grew >= 30);
}

/* Some mutant keeps the whole list and adds one switch just after its
 * last (what completes an ordering); some splice takes a's decisions below
 * one index and b's from it on. */
static void test_extend_and_splice(void **state)
{
	const struct sf_decision a[] = { { 0, 1 }, { 4, 0 } };
	const struct sf_decision b[] = { { 2, 2 }, { 7, 0 } };
	uint8_t ga[CAP], gb[CAP], m[CAP];
	size_t na = make(a, 2, ga), nb = make(b, 2, gb);
	struct sf_plan pa, pb, pm;
	sf_genome_decode(ga, na, &pa);
	sf_genome_decode(gb, nb, &pb);
	bool extended = false, spliced = false;
	for (uint64_t seed = 0; seed < 2000 && !(extended && spliced); seed++) {
		size_t s = sf_explicit_mutate(&pa, &pb, 1000, seed, m, CAP);
		check_canonical(m, s, &pm);
		if (pm.ndecisions == 3 && sf_plan_decision(&pm, 0).index == 0 &&
		    sf_plan_decision(&pm, 0).value == 1 && sf_plan_decision(&pm, 1).index == 4 &&
		    sf_plan_decision(&pm, 1).value == 0 && sf_plan_decision(&pm, 2).index > 4 &&
		    sf_plan_decision(&pm, 2).index <= 8)
			extended = true;
		if (pm.ndecisions == 3 && sf_plan_decision(&pm, 0).index == 0 &&
		    sf_plan_decision(&pm, 1).index == 2 && sf_plan_decision(&pm, 1).value == 2 &&
		    sf_plan_decision(&pm, 2).index == 7)
			spliced = true;
	}
	assert_true(extended);
	assert_true(spliced);
}

static void test_too_small_is_refused(void **state)
{
	const struct sf_decision a[] = { { 0, 1 }, { 4, 0 } };
	uint8_t g[CAP], m[CAP];
	size_t n = make(a, 2, g);
	struct sf_plan p;
	sf_genome_decode(g, n, &p);
	memset(m, 0xee, sizeof m);
	assert_int_equal(sf_explicit_mutate(&p, NULL, 10, 1, m, SF_GENOME_HEADER), 0);
	assert_int_equal(m[0], 0xee); /* nothing written */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mutants_are_canonical_and_deterministic),
		cmocka_unit_test(test_empty_list_grows),
		cmocka_unit_test(test_extend_and_splice),
		cmocka_unit_test(test_too_small_is_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
