/* test_mutate.c - the genome-aware mutator: deterministic, canonical,
 * faithful to a pinned strategy, and able to bring change points into the
 * events a program really has. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "generate.h"
#include "genome.h"
#include "mutate.h"
#include "spec.h"

#define SEEDS 2000

static struct sf_plan pct_plan(uint32_t k, int depth, uint64_t seed)
{
	struct sf_spec spec = { .kind = SF_KIND_PCT, .given = SF_SPEC_DEPTH | SF_SPEC_K,
				.depth = (uint8_t)depth, .k = k };
	struct sf_plan p;
	sf_plan_generate(&spec, &(struct sf_estimates){ 0 }, seed, &p);
	return p;
}

static bool same_plan(const struct sf_plan *a, const struct sf_plan *b)
{
	uint8_t ea[SF_GENOME_HEADER], eb[SF_GENOME_HEADER];
	sf_genome_encode(a, NULL, 0, ea, sizeof ea);
	sf_genome_encode(b, NULL, 0, eb, sizeof eb);
	return memcmp(ea, eb, sizeof ea) == 0;
}

static void same_seed_same_mutation(void **state)
{
	(void)state;
	struct sf_estimates est = { .events = 53, .locks = 4 };
	for (uint64_t s = 0; s < 100; s++) {
		struct sf_plan a = pct_plan(1000, 3, s), b = a;
		assert_true(sf_plan_mutate(&a, NULL, &est, s * 7919));
		assert_true(sf_plan_mutate(&b, NULL, &est, s * 7919));
		assert_true(same_plan(&a, &b));
	}
}

/* A mutated plan is canonical: its encoding decodes to the same plan, so
 * what the fuzzer stores is exactly what runs. */
static void mutations_are_canonical(void **state)
{
	(void)state;
	struct sf_estimates est = { .events = 200, .locks = 10 };
	for (uint64_t s = 0; s < SEEDS; s++) {
		struct sf_plan p = pct_plan(1000, 1 + (int)(s % 5), s);
		for (int round = 0; round < 4; round++) /* chains of mutations */
			assert_true(sf_plan_mutate(&p, NULL, &est, s * 31 + (uint64_t)round));
		uint8_t bytes[SF_GENOME_HEADER];
		assert_int_equal(sf_genome_encode(&p, NULL, 0, bytes, sizeof bytes), SF_GENOME_HEADER);
		struct sf_plan back;
		assert_int_equal(sf_genome_decode(bytes, sizeof bytes, &back), SF_GENOME_HEADER);
		assert_true(same_plan(&p, &back));
		assert_true(p.depth >= 1 && p.depth <= SF_MAX_DEPTH && p.k >= 1 && p.radius >= 1);
	}
}

/* Nearly every mutation changes the plan (a swap of a slot with itself is
 * the rare exception). */
static void mutations_change_the_plan(void **state)
{
	(void)state;
	struct sf_estimates est = { .events = 80 };
	int changed = 0;
	for (uint64_t s = 0; s < SEEDS; s++) {
		struct sf_plan p = pct_plan(80, 3, s), q = p;
		sf_plan_mutate(&q, NULL, &est, s);
		changed += !same_plan(&p, &q);
	}
	assert_true(changed >= SEEDS * 95 / 100);
}

/* The case that byte mutation handles badly: a PCT plan with k = 1000 on a
 * program of 53 events has both change points inside the run with
 * probability (53/1000)^2, about 0.3%. One mutation step with the
 * estimate at hand must do far better. */
static void change_points_move_into_the_run(void **state)
{
	(void)state;
	struct sf_estimates est = { .events = 53 };
	int before = 0, after = 0;
	for (uint64_t s = 0; s < SEEDS; s++) {
		struct sf_plan p = pct_plan(1000, 3, s);
		before += 1 + p.cp[0] % p.k <= 53 && 1 + p.cp[1] % p.k <= 53;
		sf_plan_mutate(&p, NULL, &est, s + 1);
		if (p.kind == SF_KIND_PCT || p.kind == SF_KIND_RPRO)
			after += 1 + p.cp[0] % p.k <= 53 && (p.depth < 3 || p.kind == SF_KIND_RPRO ||
							      1 + p.cp[1] % p.k <= 53);
	}
	assert_true(before < SEEDS / 50);
	assert_true(after > SEEDS / 8);
}

/* Rescaling keeps where change points sit relative to the run. */
static void rescaling_keeps_relative_places(void **state)
{
	(void)state;
	struct sf_estimates est = { .events = 100 };
	int rescaled = 0, kept = 0;
	for (uint64_t s = 0; s < SEEDS; s++) {
		struct sf_plan p = pct_plan(1000, 2, s), q = p;
		sf_plan_mutate(&q, NULL, &est, s);
		if (q.kind != SF_KIND_PCT || q.k != 100 || q.depth != 2 || q.seed != p.seed ||
		    memcmp(q.prio, p.prio, sizeof p.prio) != 0)
			continue; /* other steps */
		rescaled++;
		kept += q.cp[0] == p.cp[0] % 1000 / 10;
	}
	/* A rescale may be followed by a step that moves the change point. */
	assert_true(rescaled > SEEDS / 20);
	assert_true(kept > rescaled / 2);
}

static void a_pinned_strategy_holds(void **state)
{
	(void)state;
	struct sf_spec pinned;
	char err[128];
	assert_true(sf_spec_parse("rpro:d=4,r=5,locks", &pinned, err, sizeof err));
	struct sf_estimates est = { .events = 300, .locks = 12 };
	for (uint64_t s = 0; s < SEEDS; s++) {
		struct sf_plan p = pct_plan(1000, 1 + (int)(s % 8), s);
		assert_true(sf_plan_mutate(&p, &pinned, &est, s));
		assert_int_equal(p.kind, SF_KIND_RPRO);
		assert_int_equal(p.depth, 4);
		assert_int_equal(p.radius, 5);
		assert_int_equal(p.flags, SF_FLAG_LOCKS);
	}
}

/* Unpinned, fresh draws reach every strategy. */
static void every_strategy_is_reached(void **state)
{
	(void)state;
	struct sf_estimates est = { .events = 60, .locks = 6 };
	int kinds[SF_KIND_COUNT] = { 0 };
	for (uint64_t s = 0; s < SEEDS; s++) {
		struct sf_plan p = pct_plan(60, 2, s);
		sf_plan_mutate(&p, NULL, &est, s);
		kinds[p.kind]++;
	}
	assert_true(kinds[SF_KIND_RANDOM] > 0);
	assert_true(kinds[SF_KIND_PCT] > 0);
	assert_true(kinds[SF_KIND_RPRO] > 0);
	assert_true(kinds[SF_KIND_PCTVB] > 0);
	assert_int_equal(kinds[SF_KIND_EXPLICIT], 0);
}

/* A recorded decision list is mostly left to byte mutation; when the
 * mutator does take it, it becomes a fresh plan. */
static void explicit_lists_go_to_byte_mutation(void **state)
{
	(void)state;
	struct sf_estimates est = { .events = 60 };
	int declined = 0;
	for (uint64_t s = 0; s < SEEDS; s++) {
		struct sf_plan p = { .kind = SF_KIND_EXPLICIT, .seed = s };
		sf_plan_normalize(&p);
		struct sf_plan before = p;
		if (!sf_plan_mutate(&p, NULL, &est, s)) {
			declined++;
			assert_int_equal(memcmp(&p, &before, sizeof p), 0);
		} else {
			assert_int_not_equal(p.kind, SF_KIND_EXPLICIT);
		}
	}
	assert_true(declined > SEEDS / 2 && declined < SEEDS);
}

/* PCTVB's scale is its variables' access counts, taken from estimates of
 * the variables two threads shared. */
static void pctvb_takes_shared_variables(void **state)
{
	(void)state;
	struct sf_estimates est = { .events = 90, .nvars = 2 };
	est.vars[0] = (struct sf_var_estimate){ .id = 0x4010, .accesses = 7, .shared = 1 };
	est.vars[1] = (struct sf_var_estimate){ .id = 0x4020, .accesses = 40, .shared = 0 };
	int took = 0;
	for (uint64_t s = 0; s < SEEDS; s++) {
		struct sf_spec spec = { .kind = SF_KIND_PCTVB };
		struct sf_plan p;
		sf_plan_generate(&spec, &(struct sf_estimates){ 0 }, s, &p);
		sf_plan_mutate(&p, &spec, &est, s);
		assert_int_equal(p.kind, SF_KIND_PCTVB);
		assert_int_not_equal(p.var[0], 0x4020); /* never the unshared one */
		took += p.var[0] == 0x4010 && p.var_acc[0] == 7;
	}
	assert_true(took > SEEDS / 10);
}

/* What a custom mutator writes: the mutated header, then the harness's
 * data unchanged, moved up when the genome was longer or shorter than the
 * header, cut at the size limit; in place or into another buffer. */
static void genome_mutate_keeps_the_data(void **state)
{
	(void)state;
	struct sf_estimates est = { .events = 40 };
	const uint8_t data[] = "harness data";
	uint8_t in[SF_GENOME_HEADER + 3 * SF_DECISION_BYTES + sizeof data];

	/* An explicit genome of three decisions: its data sits past them. */
	struct sf_plan list = { .kind = SF_KIND_EXPLICIT };
	sf_plan_normalize(&list);
	struct sf_decision d[3] = { { 1, 1 }, { 4, 0 }, { 9, 2 } };
	size_t g = sf_genome_encode(&list, d, 3, in, sizeof in);
	assert_int_equal(g, SF_GENOME_HEADER + 3 * SF_DECISION_BYTES);
	memcpy(in + g, data, sizeof data);
	int moved = 0;
	for (uint64_t s = 0; s < 200; s++) {
		uint8_t buf[sizeof in];
		memcpy(buf, in, sizeof in);
		struct sf_plan p;
		size_t used = sf_genome_decode(buf, sizeof buf, &p);
		size_t n = sf_genome_mutate(&p, buf + used, sizeof buf - used, buf, sizeof buf, NULL, &est, s);
		if (n == 0) { /* left to byte mutation: untouched */
			assert_memory_equal(buf, in, sizeof in);
			continue;
		}
		moved++;
		assert_int_equal(n, SF_GENOME_HEADER + sizeof data);
		assert_memory_equal(buf + SF_GENOME_HEADER, data, sizeof data);
		struct sf_plan back;
		assert_int_equal(sf_genome_decode(buf, n, &back), SF_GENOME_HEADER);
		assert_true(same_plan(&back, &p));
	}
	assert_true(moved > 0);

	/* A 10-byte input (a random walk) into another buffer: the header is
	 * written whole. */
	const uint8_t tiny[10] = { 1, 0, 0, 0, 42 };
	struct sf_plan p;
	assert_int_equal(sf_genome_decode(tiny, sizeof tiny, &p), sizeof tiny);
	uint8_t out[SF_GENOME_HEADER + 4];
	assert_int_equal(sf_genome_mutate(&p, tiny + 10, 0, out, sizeof out, NULL, &est, 3),
			 SF_GENOME_HEADER);

	/* Cut at the limit: a header and 4 bytes of data. */
	struct sf_plan q = pct_plan(1000, 3, 5);
	assert_int_equal(sf_genome_mutate(&q, data, sizeof data, out, sizeof out, NULL, &est, 6),
			 sizeof out);
	assert_memory_equal(out + SF_GENOME_HEADER, data, 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_seed_same_mutation),
		cmocka_unit_test(mutations_are_canonical),
		cmocka_unit_test(mutations_change_the_plan),
		cmocka_unit_test(change_points_move_into_the_run),
		cmocka_unit_test(rescaling_keeps_relative_places),
		cmocka_unit_test(a_pinned_strategy_holds),
		cmocka_unit_test(every_strategy_is_reached),
		cmocka_unit_test(explicit_lists_go_to_byte_mutation),
		cmocka_unit_test(pctvb_takes_shared_variables),
		cmocka_unit_test(genome_mutate_keeps_the_data),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
