/* test_genome.c - genome v1: totality, round trips, readable form. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "genome.h"
#include "rng.h"

static void empty_input_is_a_random_plan(void **state)
{
	struct sf_plan p;
	assert_int_equal(sf_genome_decode(NULL, 0, &p), 0);
	assert_int_equal(p.kind, SF_KIND_RANDOM);
	assert_int_equal(p.seed, 0);
	assert_int_equal(p.ndecisions, 0);
}

static void random_bytes_always_decode(void **state)
{
	struct sf_rng r;
	sf_rng_seed(&r, 7);
	uint8_t buf[512];
	for (int i = 0; i < 20000; i++) {
		size_t n = sf_rng_below(&r, sizeof buf + 1);
		for (size_t k = 0; k < n; k++)
			buf[k] = (uint8_t)sf_rng_next(&r);
		struct sf_plan p;
		size_t used = sf_genome_decode(buf, n, &p);
		assert_true(used <= n);
		assert_true(p.kind < SF_KIND_COUNT);
		if (p.kind == SF_KIND_EXPLICIT)
			assert_true(SF_GENOME_HEADER + (size_t)p.ndecisions * SF_DECISION_BYTES <= n ||
				    p.ndecisions == 0);
		char text[4096];
		assert_true(sf_plan_format(&p, text, sizeof text) > 0);
	}
}

static void random_plan_round_trips(void **state)
{
	struct sf_plan p = { .kind = SF_KIND_RANDOM, .seed = 0x0123456789abcdefull };
	uint8_t buf[64];
	size_t n = sf_genome_encode(&p, NULL, 0, buf, sizeof buf);
	assert_int_equal(n, SF_GENOME_HEADER);
	struct sf_plan q;
	assert_int_equal(sf_genome_decode(buf, n, &q), n);
	assert_int_equal(q.kind, SF_KIND_RANDOM);
	assert_true(q.seed == p.seed);
	char text[128];
	sf_plan_format(&q, text, sizeof text);
	assert_string_equal(text, "random seed=0x123456789abcdef");
}

static void explicit_plan_round_trips_and_leaves_the_rest(void **state)
{
	struct sf_decision d[3] = { { 3, 1 }, { 17, 0 }, { 70000, 2 } };
	struct sf_plan p = { .kind = SF_KIND_EXPLICIT, .seed = 9 };
	uint8_t buf[128];
	size_t n = sf_genome_encode(&p, d, 3, buf, sizeof buf);
	assert_int_equal(n, SF_GENOME_HEADER + 3 * SF_DECISION_BYTES);
	memcpy(buf + n, "DATA", 4); /* the harness's bytes follow the genome */
	struct sf_plan q;
	assert_int_equal(sf_genome_decode(buf, n + 4, &q), n);
	assert_int_equal(q.ndecisions, 3);
	for (uint32_t i = 0; i < 3; i++) {
		struct sf_decision e = sf_plan_decision(&q, i);
		assert_int_equal(e.index, d[i].index);
		assert_int_equal(e.value, d[i].value);
	}
	char text[128];
	sf_plan_format(&q, text, sizeof text);
	assert_string_equal(text, "explicit decisions=[3:1,17:0,70000:2]");
}

static void a_short_decision_list_is_clipped(void **state)
{
	struct sf_decision d[2] = { { 1, 1 }, { 2, 1 } };
	struct sf_plan p = { .kind = SF_KIND_EXPLICIT };
	uint8_t buf[64];
	size_t n = sf_genome_encode(&p, d, 2, buf, sizeof buf);
	struct sf_plan q;
	/* Cut inside the second decision: only the whole first one counts. */
	assert_int_equal(sf_genome_decode(buf, n - 1, &q), SF_GENOME_HEADER + SF_DECISION_BYTES);
	assert_int_equal(q.ndecisions, 1);
}

static void one_seed_byte_changes_only_the_seed(void **state)
{
	struct sf_plan p = { .kind = SF_KIND_RANDOM, .seed = 5 };
	uint8_t buf[SF_GENOME_HEADER];
	sf_genome_encode(&p, NULL, 0, buf, sizeof buf);
	buf[4] ^= 0xff;
	struct sf_plan q;
	sf_genome_decode(buf, sizeof buf, &q);
	assert_int_equal(q.kind, SF_KIND_RANDOM);
	assert_true(q.seed == (5 ^ 0xff));
}

static void derived_seeds_differ_and_repeat(void **state)
{
	assert_true(sf_derive_seed(1, 0) != sf_derive_seed(1, 1));
	assert_true(sf_derive_seed(1, 0) != sf_derive_seed(2, 0));
	assert_true(sf_derive_seed(1, 5) == sf_derive_seed(1, 5));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(empty_input_is_a_random_plan),
		cmocka_unit_test(random_bytes_always_decode),
		cmocka_unit_test(random_plan_round_trips),
		cmocka_unit_test(explicit_plan_round_trips_and_leaves_the_rest),
		cmocka_unit_test(a_short_decision_list_is_clipped),
		cmocka_unit_test(one_seed_byte_changes_only_the_seed),
		cmocka_unit_test(derived_seeds_differ_and_repeat),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
