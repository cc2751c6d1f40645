/* test_genome.c - genome v1: totality, smoothness, round trips, readable
 * forms, change point readings, specs and plan generation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "generate.h"
#include "genome.h"
#include "priority.h"
#include "rng.h"
#include "spec.h"

/* The plan's parameters, one value each, so that tests can count how many
 * of them differ between two plans. */
static int parameters(const struct sf_plan *p, uint64_t out[64])
{
	int n = 0;
	out[n++] = p->kind;
	out[n++] = p->depth;
	out[n++] = p->flags;
	out[n++] = p->seed;
	out[n++] = p->ndecisions;
	out[n++] = p->radius;
	out[n++] = p->k;
	for (int i = 0; i < SF_PRIO_SLOTS; i++)
		out[n++] = p->prio[i];
	for (int i = 0; i < SF_MAX_CP; i++) {
		out[n++] = p->cp[i];
		out[n++] = p->cp_key[i];
	}
	out[n++] = p->nvars;
	for (int i = 0; i < SF_MAX_VARS; i++) {
		out[n++] = p->var[i];
		out[n++] = p->var_acc[i];
	}
	return n;
}

static int differing(const struct sf_plan *a, const struct sf_plan *b)
{
	uint64_t x[64], y[64];
	int n = parameters(a, x);
	parameters(b, y);
	int d = 0;
	for (int i = 0; i < n; i++)
		d += x[i] != y[i];
	return d;
}

static void empty_input_is_a_random_plan(void **state)
{
	struct sf_plan p;
	assert_int_equal(sf_genome_decode(NULL, 0, &p), 0);
	assert_int_equal(p.kind, SF_KIND_RANDOM);
	assert_int_equal(p.seed, 0);
	assert_int_equal(p.ndecisions, 0);
	assert_int_equal(p.depth, 1);
	assert_int_equal(p.k, 1);
}

/* Total: any bytes decode to a plan in range, print, and re-encode to a
 * genome that decodes to the same plan. */
static void random_bytes_always_decode(void **state)
{
	struct sf_rng r;
	sf_rng_seed(&r, 7);
	static uint8_t buf[SF_GENOME_HEADER + 400], again[SF_GENOME_HEADER + 400];
	struct sf_decision d[80];
	for (int i = 0; i < 20000; i++) {
		size_t n = sf_rng_below(&r, sizeof buf + 1);
		for (size_t k = 0; k < n; k++)
			buf[k] = (uint8_t)sf_rng_next(&r);
		if (i % 4 == 0 && n > 1)
			buf[1] = (uint8_t)(i / 4 % 5); /* every kind, often */
		struct sf_plan p;
		size_t used = sf_genome_decode(buf, n, &p);
		assert_true(used <= n);
		assert_true(p.kind < SF_KIND_COUNT);
		assert_in_range(p.depth, 1, SF_MAX_DEPTH);
		assert_in_range(p.nvars, 1, SF_MAX_VARS);
		assert_true(p.k >= 1 && p.radius >= 1);
		if (p.kind == SF_KIND_EXPLICIT)
			assert_true(SF_GENOME_HEADER + (size_t)p.ndecisions * SF_DECISION_BYTES <= n ||
				    p.ndecisions == 0);
		char text[4096];
		assert_true(sf_plan_format(&p, text, sizeof text) > 0);
		struct sf_change c[SF_MAX_CP];
		int nc = sf_plan_changes(&p, c);
		assert_true(nc == (sf_kind_has_priorities(p.kind) ? p.depth - 1 : 0));
		bool per_stream = p.kind == SF_KIND_PCTVB || p.kind == SF_KIND_FOCUS;
		for (int j = 0; j < nc; j++)
			assert_true(c[j].at >= 1 && c[j].at <= (per_stream ? p.var_acc[c[j].stream] : p.k));

		for (uint32_t j = 0; j < p.ndecisions; j++)
			d[j] = sf_plan_decision(&p, j);
		size_t m = sf_genome_encode(&p, d, p.ndecisions, again, sizeof again);
		struct sf_plan q;
		assert_int_equal(sf_genome_decode(again, m, &q), m);
		assert_int_equal(differing(&p, &q), 0);
		for (uint32_t j = 0; j < q.ndecisions; j++)
			assert_int_equal(sf_plan_decision(&q, j).index, d[j].index);
	}
}

/* Smooth: flipping any one header byte changes at most one parameter. */
static void one_byte_changes_one_parameter(void **state)
{
	struct sf_rng r;
	sf_rng_seed(&r, 11);
	for (int round = 0; round < 200; round++) {
		uint8_t buf[SF_GENOME_HEADER];
		for (size_t k = 0; k < sizeof buf; k++)
			buf[k] = (uint8_t)sf_rng_next(&r);
		buf[1] = (uint8_t)(2 + round % 3);
		struct sf_plan p, q;
		sf_genome_decode(buf, sizeof buf, &p);
		for (size_t at = 0; at < sizeof buf; at++) {
			uint8_t saved = buf[at];
			buf[at] ^= (uint8_t)(1 + sf_rng_below(&r, 255));
			sf_genome_decode(buf, sizeof buf, &q);
			assert_true(differing(&p, &q) <= 1);
			buf[at] = saved;
		}
	}
}

static void random_plan_round_trips(void **state)
{
	struct sf_plan p = { .kind = SF_KIND_RANDOM, .seed = 0x0123456789abcdefull };
	uint8_t buf[SF_GENOME_HEADER];
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

/* FOCUS plans made from what executions showed: main, then one thread per
 * start routine, then second copies; change points on roles other than
 * main in most plans; and the plan survives encoding. */
static void generated_focus_plans_take_one_role_per_routine(void **state)
{
	struct sf_estimates est = { .nroutines = 3 };
	est.routines[0] = (struct sf_routine_estimate){ 1, 300 };
	est.routines[1] = (struct sf_routine_estimate){ 99, 9 };
	est.routines[2] = (struct sf_routine_estimate){ 1, 6 };
	struct sf_spec spec;
	char err[128];
	assert_true(sf_spec_parse("focus:d=3", &spec, err, sizeof err));
	assert_false(sf_spec_parse("focus:k=10", &spec, err, sizeof err));
	assert_true(sf_spec_parse("focus:d=3", &spec, err, sizeof err));
	int on_main = 0;
	for (uint64_t seed = 1; seed <= 200; seed++) {
		struct sf_plan p;
		sf_plan_generate(&spec, &est, seed, &p);
		assert_int_equal(p.kind, SF_KIND_FOCUS);
		assert_int_equal(p.nvars, 4);
		assert_int_equal(p.var[0], sf_focus_role(0, 0));
		assert_int_equal(p.var_acc[0], 300);
		/* Routines 1 and 2 each once, then the second copy of routine 1. */
		assert_true((p.var[1] == sf_focus_role(1, 0) && p.var[2] == sf_focus_role(2, 0)) ||
			    (p.var[1] == sf_focus_role(2, 0) && p.var[2] == sf_focus_role(1, 0)));
		assert_int_equal(p.var[3], sf_focus_role(1, 1));
		struct sf_change c[SF_MAX_CP];
		assert_int_equal(sf_plan_changes(&p, c), 2);
		on_main += c[0].stream == 0 || c[1].stream == 0;

		uint8_t buf[SF_GENOME_HEADER];
		sf_genome_encode(&p, NULL, 0, buf, sizeof buf);
		struct sf_plan q;
		sf_genome_decode(buf, sizeof buf, &q);
		char a[512], b[512];
		sf_plan_format(&p, a, sizeof a);
		sf_plan_format(&q, b, sizeof b);
		assert_string_equal(a, b);
		assert_non_null(strstr(a, "focus d=3 roles=[main/300,"));
	}
	assert_true(on_main > 0 && on_main < 100);
}

/* The spurious-wakeup setting travels with the input, whatever the kind. */
static void nospurious_flag_round_trips(void **state)
{
	struct sf_decision d[1] = { { 4, 1 } };
	struct sf_plan p = { .kind = SF_KIND_EXPLICIT, .flags = SF_FLAG_NO_SPURIOUS };
	uint8_t buf[SF_GENOME_HEADER + SF_DECISION_BYTES];
	size_t n = sf_genome_encode(&p, d, 1, buf, sizeof buf);
	assert_int_equal(buf[3], SF_FLAG_NO_SPURIOUS);
	struct sf_plan q;
	sf_genome_decode(buf, n, &q);
	assert_true(q.flags & SF_FLAG_NO_SPURIOUS);
	char text[128];
	sf_plan_format(&q, text, sizeof text);
	assert_string_equal(text, "explicit decisions=[4:1] nospurious");
	struct sf_plan r = { .kind = SF_KIND_RANDOM, .seed = 1 };
	sf_genome_encode(&r, NULL, 0, buf, sizeof buf);
	sf_genome_decode(buf, SF_GENOME_HEADER, &q);
	assert_false(q.flags & SF_FLAG_NO_SPURIOUS); /* on unless the input says off */
}

static void explicit_plan_round_trips_and_leaves_the_rest(void **state)
{
	struct sf_decision d[3] = { { 3, 1 }, { 17, 0 }, { 70000, 2 } };
	struct sf_plan p = { .kind = SF_KIND_EXPLICIT, .seed = 9 };
	uint8_t buf[SF_GENOME_HEADER + 32];
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
	uint8_t buf[SF_GENOME_HEADER + 16];
	size_t n = sf_genome_encode(&p, d, 2, buf, sizeof buf);
	struct sf_plan q;
	/* Cut inside the second decision: only the whole first one counts. */
	assert_int_equal(sf_genome_decode(buf, n - 1, &q), SF_GENOME_HEADER + SF_DECISION_BYTES);
	assert_int_equal(q.ndecisions, 1);
}

static void pct_reads_and_prints(void **state)
{
	struct sf_plan p = { .kind = SF_KIND_PCT, .depth = 3, .k = 1000, .seed = 0x2a,
			     .prio = { 30, 10, 20, 7, 6, 5, 4, 3 }, .cp = { 112, 869 } };
	uint8_t buf[SF_GENOME_HEADER];
	sf_genome_encode(&p, NULL, 0, buf, sizeof buf);
	struct sf_plan q;
	sf_genome_decode(buf, sizeof buf, &q);
	char text[256];
	sf_plan_format(&q, text, sizeof text);
	assert_string_equal(text, "pct d=3 k=1000 cp=[113,870] prio=[7,5,6,4,3,2,1,0] seed=0x2a");
	struct sf_change c[SF_MAX_CP];
	assert_int_equal(sf_plan_changes(&q, c), 2);
	assert_int_equal(c[0].at, 113);
	assert_int_equal(c[0].label, 1); /* the genome's order is PCT's label order */
	assert_int_equal(c[1].at, 870);
	assert_int_equal(c[1].label, 2);
	assert_int_equal(sf_plan_counts(&q), SF_COUNT_EVENTS);
	/* Change points wrap modulo k; initial priorities lie above them. */
	q.cp[0] = 1000 + 4;
	sf_plan_changes(&q, c);
	assert_int_equal(c[0].at, 5);
	assert_true(sf_prio_initial(&q, 0) > sf_prio_change(&q, &c[1]));
	assert_true(sf_prio_initial(&q, 0) > sf_prio_initial(&q, 1));
}

static void rpro_stays_within_the_radius(void **state)
{
	struct sf_plan p = { .kind = SF_KIND_RPRO, .depth = 4, .k = 1000, .radius = 20,
			     .flags = SF_FLAG_LOCKS, .cp = { 499, 0, 39 } };
	sf_plan_normalize(&p);
	struct sf_change c[SF_MAX_CP];
	assert_int_equal(sf_plan_changes(&p, c), 3);
	/* k1 = 500; offset 0 is -20, offset 39 is +20; sorted; later is lower. */
	assert_int_equal(c[0].at, 480);
	assert_int_equal(c[1].at, 500);
	assert_int_equal(c[2].at, 520);
	assert_int_equal(c[0].label, 3);
	assert_int_equal(c[2].label, 1);
	assert_int_equal(sf_plan_counts(&p), SF_COUNT_LOCKS);
	char text[256];
	sf_plan_format(&p, text, sizeof text);
	assert_non_null(strstr(text, "rpro d=4 r=20 locks k=1000 cp=[480,500,520]"));
	/* Clipped to [1, k] and never k1 itself. */
	p.cp[0] = 0;
	p.cp[1] = 5;
	p.cp[2] = 20;
	sf_plan_changes(&p, c);
	assert_int_equal(c[0].at, 1);
	assert_int_equal(c[1].at, 1);
	assert_int_equal(c[2].at, 2);
	for (uint32_t w = 0; w < 40; w++) {
		p.cp[0] = 499;
		p.cp[1] = w;
		p.depth = 3;
		sf_plan_changes(&p, c);
		uint64_t other = c[0].at == 500 ? c[1].at : c[0].at;
		assert_true(other != 500 && other >= 480 && other <= 520);
	}
}

static void pctvb_counts_accesses_per_variable(void **state)
{
	struct sf_plan p = { .kind = SF_KIND_PCTVB, .depth = 3, .nvars = 2, .flags = SF_FLAG_TB,
			     .var = { 0x4010, SF_VAR_HEAP | 0x1234 }, .var_acc = { 10, 5 },
			     .cp = { 12, 3 } };
	sf_plan_normalize(&p);
	struct sf_change c[SF_MAX_CP];
	assert_int_equal(sf_plan_changes(&p, c), 2);
	/* 3 is the 4th access to x_1; 12 - 10 is the 3rd access to x_2. */
	assert_int_equal(c[0].stream, 0);
	assert_int_equal(c[0].at, 4);
	assert_int_equal(c[1].stream, 1);
	assert_int_equal(c[1].at, 3);
	char text[256];
	sf_plan_format(&p, text, sizeof text);
	assert_non_null(strstr(text, "pctvb d=3 tb v=2 vars=[global@0x4010/10,heap@0x1234/5] "
				     "cp=[global@0x4010#4,heap@0x1234#3]"));
	/* Thread bounding: a change point's priority is a permutation element,
	 * among the initial ones, not below all of them. */
	assert_true(sf_prio_change(&p, &c[0]) >= SF_PRIO_BASE);
}

static void specs_parse_and_pin(void **state)
{
	struct sf_spec s;
	char err[256];
	assert_true(sf_spec_parse("random", &s, err, sizeof err));
	assert_int_equal(s.kind, SF_KIND_RANDOM);
	assert_true(sf_spec_parse("pct:d=3", &s, err, sizeof err));
	assert_int_equal(s.kind, SF_KIND_PCT);
	assert_int_equal(s.depth, 3);
	assert_true(sf_spec_parse("rpro:d=4,r=20,locks", &s, err, sizeof err));
	assert_int_equal(s.radius, 20);
	assert_true(s.flags & SF_FLAG_LOCKS);
	assert_true(sf_spec_parse("pctvb:d=2,v=1", &s, err, sizeof err));
	assert_int_equal(s.nvars, 1);

	struct sf_plan p;
	sf_genome_decode(NULL, 0, &p);
	sf_spec_pin(&s, &p);
	assert_int_equal(p.kind, SF_KIND_PCTVB);
	assert_int_equal(p.depth, 2);

	assert_false(sf_spec_parse("pcx", &s, err, sizeof err));
	assert_non_null(strstr(err, "unknown strategy 'pcx'"));
	assert_false(sf_spec_parse("pct:d=9", &s, err, sizeof err));
	assert_non_null(strstr(err, "depth"));
	assert_false(sf_spec_parse("pct:r=3", &s, err, sizeof err));
	assert_false(sf_spec_parse("random:d=2", &s, err, sizeof err));
	assert_false(sf_spec_parse("rpro:r=0", &s, err, sizeof err));
	assert_false(sf_spec_parse("pctvb:v=5", &s, err, sizeof err));
}

static void generated_pct_plans_are_uniform_and_distinct(void **state)
{
	struct sf_spec s;
	char err[64];
	assert_true(sf_spec_parse("pct:d=3", &s, err, sizeof err));
	struct sf_estimates est = { .events = 50 };
	int hist[50] = { 0 };
	for (uint64_t seed = 0; seed < 20000; seed++) {
		struct sf_plan p;
		sf_plan_generate(&s, &est, seed, &p);
		assert_int_equal(p.k, 50);
		assert_true(p.cp[0] != p.cp[1]);
		assert_true(p.cp[0] < 50 && p.cp[1] < 50);
		hist[p.cp[0]]++;
	}
	for (int i = 0; i < 50; i++) /* 400 expected each */
		assert_in_range(hist[i], 300, 500);
}

/* A variable with more accesses than SF_VAR_MAX_ACCESSES is named only
 * when no other was seen: every access to a named one is a point. */
static void generated_pctvb_plans_avoid_hot_variables(void **state)
{
	struct sf_spec s;
	char err[64];
	assert_true(sf_spec_parse("pctvb:d=2,v=1", &s, err, sizeof err));
	struct sf_plan p;
	struct sf_estimates est = { .events = 1u << 30, .nvars = 3 };
	est.vars[0] = (struct sf_var_estimate){ SF_VAR_HEAP | 0x10, SF_VAR_MAX_ACCESSES + 1, 1 };
	est.vars[1] = (struct sf_var_estimate){ 0x5008, SF_VAR_MAX_ACCESSES, 1 };
	est.vars[2] = (struct sf_var_estimate){ 0x5010, 7, 0 };
	for (uint64_t seed = 0; seed < 200; seed++) {
		sf_plan_generate(&s, &est, seed, &p);
		assert_int_equal(p.var[0], 0x5008);
	}
	uint32_t pool[SF_EST_VARS];
	assert_int_equal(sf_var_pool(&est, true, pool), 1);
	assert_int_equal(pool[0], 1);

	/* Only the hot one shared: a cold unshared one first, the hot one
	 * where only shared ones will do (a mutation's swap). */
	est.vars[1].shared = 0;
	assert_int_equal(sf_var_pool(&est, false, pool), 2);
	assert_int_equal(sf_var_pool(&est, true, pool), 1);
	assert_int_equal(pool[0], 0);
	est.nvars = 1; /* nothing else seen: the hot one after all */
	sf_plan_generate(&s, &est, 1, &p);
	assert_int_equal(p.var[0], SF_VAR_HEAP | 0x10);
}

static void generated_pctvb_plans_prefer_shared_variables(void **state)
{
	struct sf_spec s;
	char err[64];
	assert_true(sf_spec_parse("pctvb:d=2,v=1", &s, err, sizeof err));
	struct sf_plan p;
	struct sf_estimates none = { 0 };
	sf_plan_generate(&s, &none, 1, &p);
	assert_int_equal(p.var[0], 0); /* nothing seen: "the first shared variable" */
	assert_false(p.flags & SF_FLAG_TB); /* "run as PCT" unless asked */

	struct sf_estimates est = { .events = 500, .nvars = 3 };
	est.vars[0] = (struct sf_var_estimate){ 0x5000, 400, 0 };
	est.vars[1] = (struct sf_var_estimate){ 0x5008, 3, 1 };
	est.vars[2] = (struct sf_var_estimate){ SF_VAR_HEAP | 0x777, 40, 1 };
	int picked[2] = { 0 };
	for (uint64_t seed = 0; seed < 2000; seed++) {
		sf_plan_generate(&s, &est, seed, &p);
		assert_true(p.var[0] == 0x5008 || p.var[0] == (SF_VAR_HEAP | 0x777));
		assert_true(p.cp[0] < p.var_acc[0]);
		picked[p.var[0] == 0x5008]++;
	}
	assert_in_range(picked[1], 850, 1150);

	struct sf_estimates merged = { 0 };
	sf_estimates_merge(&merged, &est);
	struct sf_estimates more = { .events = 900, .nvars = 1 };
	more.vars[0] = (struct sf_var_estimate){ 0x5000, 600, 1 };
	sf_estimates_merge(&merged, &more);
	assert_int_equal(merged.events, 900);
	assert_int_equal(merged.nvars, 3);
	assert_int_equal(merged.vars[0].accesses, 600);
	assert_int_equal(merged.vars[0].shared, 1);
}

static void derived_seeds_differ_and_repeat(void **state)
{
	assert_true(sf_derive_seed(1, 0) != sf_derive_seed(1, 1));
	assert_true(sf_derive_seed(1, 0) != sf_derive_seed(2, 0));
	assert_true(sf_derive_seed(1, 5) == sf_derive_seed(1, 5));
}

/* A build stamp sits in fields an explicit plan never reads: the plan and
 * its decisions decode the same, only explicit genomes take one, and a
 * damaged stamp (a fuzzer's byte flip) is no stamp. */
static void a_build_stamp_changes_nothing_decoded(void **state)
{
	(void)state;
	struct sf_plan p = { .kind = SF_KIND_EXPLICIT, .flags = SF_FLAG_NO_SPURIOUS };
	struct sf_decision d[2] = { { 3, 1 }, { 9, 2 } };
	uint8_t buf[SF_GENOME_HEADER + 2 * SF_DECISION_BYTES + 4], copy[sizeof buf];
	size_t n = sf_genome_encode(&p, d, 2, buf, sizeof buf);
	memcpy(buf + n, "data", 4);
	memcpy(copy, buf, sizeof buf);
	uint8_t build[8] = { 0x7a, 0xfc, 0x29, 0xfc, 0xcf, 0x03, 0x04, 0xa2 }, got[8];
	assert_false(sf_genome_stamped(buf, sizeof buf, got));
	sf_genome_stamp(buf, sizeof buf, build);
	assert_true(sf_genome_stamped(buf, sizeof buf, got));
	assert_memory_equal(got, build, 8);
	struct sf_plan a, b;
	size_t ga = sf_genome_decode(copy, sizeof copy, &a), gb = sf_genome_decode(buf, sizeof buf, &b);
	assert_int_equal(ga, gb);
	assert_int_equal(a.kind, b.kind);
	assert_int_equal(a.flags, b.flags);
	assert_int_equal(a.ndecisions, b.ndecisions);
	for (uint32_t i = 0; i < a.ndecisions; i++) {
		assert_int_equal(sf_plan_decision(&a, i).index, sf_plan_decision(&b, i).index);
		assert_int_equal(sf_plan_decision(&a, i).value, sf_plan_decision(&b, i).value);
	}
	assert_memory_equal(buf + gb, "data", 4);
	buf[70] ^= 1;
	assert_false(sf_genome_stamped(buf, sizeof buf, got));
	struct sf_plan r = { .kind = SF_KIND_RANDOM, .seed = 42 };
	uint8_t rnd[SF_GENOME_HEADER];
	sf_genome_encode(&r, NULL, 0, rnd, sizeof rnd);
	sf_genome_stamp(rnd, sizeof rnd, build);
	assert_false(sf_genome_stamped(rnd, sizeof rnd, got));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(empty_input_is_a_random_plan),
		cmocka_unit_test(random_bytes_always_decode),
		cmocka_unit_test(one_byte_changes_one_parameter),
		cmocka_unit_test(random_plan_round_trips),
		cmocka_unit_test(generated_focus_plans_take_one_role_per_routine),
		cmocka_unit_test(explicit_plan_round_trips_and_leaves_the_rest),
		cmocka_unit_test(nospurious_flag_round_trips),
		cmocka_unit_test(a_short_decision_list_is_clipped),
		cmocka_unit_test(pct_reads_and_prints),
		cmocka_unit_test(rpro_stays_within_the_radius),
		cmocka_unit_test(pctvb_counts_accesses_per_variable),
		cmocka_unit_test(specs_parse_and_pin),
		cmocka_unit_test(generated_pct_plans_are_uniform_and_distinct),
		cmocka_unit_test(generated_pctvb_plans_prefer_shared_variables),
		cmocka_unit_test(generated_pctvb_plans_avoid_hot_variables),
		cmocka_unit_test(derived_seeds_differ_and_repeat),
		cmocka_unit_test(a_build_stamp_changes_nothing_decoded),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
