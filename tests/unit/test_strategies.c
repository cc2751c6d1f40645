/* test_strategies.c - the strategies on synthetic views, without threads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "strategy.h"

static const struct strat_candidate three[3] = { { 0, 0 }, { 1, 0 }, { 2, 0 } };

static void default_keeps_the_current_thread(void **state)
{
	struct strat_view v = { .step = 1, .current = 2, .cand = three, .ncand = 3 };
	assert_int_equal(strat_default_pick(&v), 2);
	v.current = -1;
	assert_int_equal(strat_default_pick(&v), 0);
	const struct strat_candidate timed[2] = { { 0, 1 }, { 3, 0 } };
	struct strat_view w = { .step = 1, .current = 0, .cand = timed, .ncand = 2 };
	assert_int_equal(strat_default_pick(&w), 1); /* a timeout only as a last resort */
}

/* A uniform pick: 1000 draws a candidate, each within 15% of that. */
static void assert_uniform(const struct strat_methods *m, void *s, const struct strat_view *v)
{
	int counts[100] = { 0 };
	assert_true(v->ncand <= 100);
	for (int i = 0; i < 1000 * v->ncand; i++)
		counts[m->pick(s, v)]++;
	for (int i = 0; i < v->ncand; i++)
		assert_in_range(counts[i], 850, 1150);
}

/* Two random walks begun with one seed, which draw alike. */
static const struct strat_methods *twin_walks(uint64_t seed, void **a, void **b)
{
	const struct strat_methods *m = strat_for_kind(SF_KIND_RANDOM);
	struct sf_plan p = { .kind = SF_KIND_RANDOM, .seed = seed };
	*a = m->create();
	*b = m->create();
	m->begin(*a, &p);
	m->begin(*b, &p);
	return m;
}

static void random_walk_is_a_function_of_the_seed(void **state)
{
	void *a, *b;
	const struct strat_methods *m = twin_walks(42, &a, &b);
	struct strat_view v = { .step = 1, .current = 0, .cand = three, .ncand = 3 };
	int counts[3] = { 0 };
	for (int i = 0; i < 30000; i++) {
		int x = m->pick(a, &v);
		assert_int_equal(x, m->pick(b, &v));
		assert_in_range(x, 0, 2);
		counts[x]++;
	}
	/* Uniform: each of three within 5% of 10000. */
	for (int i = 0; i < 3; i++)
		assert_in_range(counts[i], 9500, 10500);
	m->destroy(a);
	m->destroy(b);
}

/* Among many candidates the current thread goes on one time in three, as
 * among three, and a switch goes to any other uniformly; a current thread
 * that cannot go on leaves a uniform pick. */
static void random_walk_stays_as_among_three(void **state)
{
	const struct strat_methods *m = strat_for_kind(SF_KIND_RANDOM);
	void *s = m->create();
	struct sf_plan p = { .kind = SF_KIND_RANDOM, .seed = 7 };
	m->begin(s, &p);
	struct strat_candidate many[100];
	for (int i = 0; i < 100; i++)
		many[i] = (struct strat_candidate){ (uint16_t)i, 0 };
	struct strat_view v = { .step = 1, .current = 40, .cand = many, .ncand = 100 };
	int counts[100] = { 0 };
	for (int i = 0; i < 99000; i++) {
		int x = m->pick(s, &v);
		assert_in_range(x, 0, 99);
		counts[x]++;
	}
	assert_in_range(counts[40], 31000, 35000); /* 33,000 expected */
	for (int i = 0; i < 100; i++)
		if (i != 40)
			assert_in_range(counts[i], 500, 850); /* 667 expected */
	v.current = -1;
	assert_uniform(m, s, &v);
	m->destroy(s);
}

/* At a tick the current thread goes on without a draw, among three as
 * among many: the draws after it are those the walk would have made
 * without the tick. A current thread that is no candidate (it gives way,
 * or only times out) leaves the usual pick. */
static void random_walk_goes_on_at_a_tick(void **state)
{
	void *a, *b;
	const struct strat_methods *m = twin_walks(3, &a, &b);
	struct strat_candidate many[10];
	for (int i = 0; i < 10; i++)
		many[i] = (struct strat_candidate){ (uint16_t)i, 0 };
	struct strat_view v = { .step = 1, .current = 1, .cand = three, .ncand = 3 };
	struct strat_view tick = v, tick_many = { .step = 1, .current = 7, .cand = many,
						  .ncand = 10, .tick = true };
	tick.tick = true;
	for (int i = 0; i < 1000; i++) {
		assert_int_equal(m->pick(a, &tick), 1);
		assert_int_equal(m->pick(a, &tick_many), 7);
		assert_int_equal(m->pick(a, &v), m->pick(b, &v));
	}
	const struct strat_candidate timed[3] = { { 0, 0 }, { 1, 1 }, { 2, 0 } };
	struct strat_view given_way = { .step = 1, .current = 1, .cand = timed, .ncand = 3,
					.tick = true };
	assert_uniform(m, a, &given_way);
	tick.current = -1;
	assert_uniform(m, a, &tick);
	m->destroy(a);
	m->destroy(b);
}

static void random_walk_keeps_spurious_wakeups_rare(void **state)
{
	const struct strat_methods *m = strat_for_kind(SF_KIND_RANDOM);
	void *s = m->create();
	struct sf_plan p = { .kind = SF_KIND_RANDOM, .seed = 1 };
	m->begin(s, &p);
	int spurious = 0;
	for (int i = 0; i < 32000; i++)
		spurious += (int)m->choose(s, STRAT_CHOOSE_SPURIOUS, 2, 0);
	assert_in_range(spurious, 800, 1200); /* 1 in 32 */
	m->destroy(s);
}

/* Replays the list, counting pick and choose calls alike; falls back to the
 * default for missing, stale and invalid entries. */
static void explicit_follows_its_list(void **state)
{
	struct sf_decision d[4] = { { 0, 2 }, { 2, 1 }, { 1, 0 }, { 3, 9 } };
	struct sf_plan p = { .kind = SF_KIND_EXPLICIT };
	uint8_t buf[SF_GENOME_HEADER + 4 * SF_DECISION_BYTES];
	size_t n = sf_genome_encode(&p, d, 4, buf, sizeof buf);
	struct sf_plan q;
	sf_genome_decode(buf, n, &q);

	const struct strat_methods *m = strat_for_kind(SF_KIND_EXPLICIT);
	void *s = m->create();
	m->begin(s, &q);
	struct strat_view v = { .step = 1, .current = 0, .cand = three, .ncand = 3 };
	assert_int_equal(m->pick(s, &v), 2);                            /* decision 0 */
	assert_int_equal(m->pick(s, &v), 0);                            /* 1: no entry yet -> default */
	assert_int_equal(m->choose(s, STRAT_CHOOSE_WAKER, 3, 1), 1);    /* 2 */
	assert_int_equal(m->pick(s, &v), 0);                            /* 3: tid 9 absent -> default */
	assert_int_equal(m->pick(s, &v), 0);                            /* 4: list over -> default */
	m->destroy(s);
}

/* The jthread shape: threads 1 and 2 spin in turn, each giving way when its
 * spin lasts too long, while thread 3 waits to run. The plain default hands
 * over to the lowest other thread, so 1 and 2 alternate for ever; the fair
 * one gives thread 3 its turn at the second give-way, and keeps the
 * current thread while it goes on. */
static void explicit_fair_default_rotates(void **state)
{
	const struct strat_candidate but1[2] = { { 2, 0 }, { 3, 0 } };
	const struct strat_candidate but2[2] = { { 1, 0 }, { 3, 0 } };
	const struct strat_methods *m = strat_for_kind(SF_KIND_EXPLICIT);
	for (int fair = 0; fair <= 1; fair++) {
		struct sf_plan p = { .kind = SF_KIND_EXPLICIT, .flags = fair ? SF_FLAG_FAIR : 0 };
		uint8_t buf[SF_GENOME_HEADER];
		struct sf_plan q;
		sf_genome_decode(buf, sf_genome_encode(&p, NULL, 0, buf, sizeof buf), &q);
		assert_int_equal(q.flags & SF_FLAG_FAIR, fair ? SF_FLAG_FAIR : 0);
		void *s = m->create();
		m->begin(s, &q);
		m->note(s, STRAT_NOTE_STARVING, 1, 10); /* 1 gives way: 2 and 3 never did */
		assert_int_equal(m->pick(s, &(struct strat_view){ 10, 1, but1, 2 }), 0);
		m->note(s, STRAT_NOTE_STARVING, 2, 20); /* 2 gives way */
		assert_int_equal(m->pick(s, &(struct strat_view){ 20, 2, but2, 2 }), fair ? 1 : 0);
		struct strat_view going_on = { .step = 21, .current = 1, .cand = three, .ncand = 3 };
		assert_int_equal(m->pick(s, &going_on), 1);
		m->destroy(s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(default_keeps_the_current_thread),
		cmocka_unit_test(random_walk_is_a_function_of_the_seed),
		cmocka_unit_test(random_walk_stays_as_among_three),
		cmocka_unit_test(random_walk_goes_on_at_a_tick),
		cmocka_unit_test(random_walk_keeps_spurious_wakeups_rare),
		cmocka_unit_test(explicit_follows_its_list),
		cmocka_unit_test(explicit_fair_default_rotates),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
