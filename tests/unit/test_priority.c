/* test_priority.c - PCT, RPRO and PCTVB against their papers' lower
 * bounds, on synthetic event streams run by a small simulator that speaks
 * the runtime's side of strategy.h (no threads).
 *
 * Each bug below is a set of ordering constraints between events; a run
 * hits it when the executed order satisfies all of them. Plans are made
 * by sf_plan_generate from fixed seeds, exactly as the explorer makes
 * them, so the rates are deterministic. Each test checks the measured rate
 * against the bound with k and n of the stream, and the sample sizes put
 * the expected count several standard deviations above the bound's. */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "generate.h"
#include "strategy.h"

#define SIM_THREADS 16
#define SIM_EVENTS 64
#define NO_VAR 0xff

/* A program: per thread, its events; an event may be a lock acquisition
 * (counted in lock mode) and may access one variable. */
struct sim_prog {
	int n;
	int len[SIM_THREADS];
	uint8_t lock[SIM_THREADS][SIM_EVENTS];
	uint8_t var[SIM_THREADS][SIM_EVENTS];
	uint8_t routine[SIM_THREADS], instance[SIM_THREADS]; /* FOCUS's roles */
};

/* Where each event fell in the run: 1-based global positions. */
struct sim_run {
	int pos[SIM_THREADS][SIM_EVENTS];
};

static uint32_t var_id(int v)
{
	return 0x1000u + (uint32_t)v * 8;
}

static void simulate(const struct sim_prog *p, const struct sf_plan *plan, void *state,
		     struct sim_run *out)
{
	const struct strat_methods *m = strat_for_kind(plan->kind);
	m->begin(state, plan);
	for (int t = 1; t < p->n; t++)
		m->note(state, STRAT_NOTE_THREAD_CREATED, t, 0);
	int stream[SIM_THREADS];
	for (int t = 0; t < p->n; t++)
		stream[t] = m->spawned ? m->spawned(state, t, p->routine[t], p->instance[t]) : -1;
	struct strat_counting c = { 0 };
	if (m->counting)
		m->counting(state, &c);

	int pc[SIM_THREADS] = { 0 };
	uint64_t step = 0, locks = 0, acc[8] = { 0 };
	int current = -1;
	for (;;) {
		struct strat_candidate cand[SIM_THREADS];
		int n = 0;
		for (int t = 0; t < p->n; t++)
			if (pc[t] < p->len[t])
				cand[n++] = (struct strat_candidate){ (uint16_t)t, 0 };
		if (n == 0)
			break;
		int cur = current >= 0 && pc[current] < p->len[current] ? current : -1;
		struct strat_view v = { step, cur, cand, n };
		int t = n == 1 ? cand[0].tid : cand[m->pick(state, &v)].tid;
		int e = pc[t]++;
		current = t;
		out->pos[t][e] = (int)++step;
		switch (c.what) {
		case SF_COUNT_EVENTS:
			if (step == c.next[0])
				c.next[0] = m->fire(state, 0, step, t);
			break;
		case SF_COUNT_LOCKS:
			if (p->lock[t][e] && ++locks == c.next[0])
				c.next[0] = m->fire(state, 0, locks, t);
			break;
		case SF_COUNT_VARS:
			if (p->var[t][e] == NO_VAR)
				break;
			acc[p->var[t][e]]++;
			for (int s = 0; s < c.nstreams; s++)
				if (c.var[s] == var_id(p->var[t][e]) && acc[p->var[t][e]] == c.next[s])
					c.next[s] = m->fire(state, s, acc[p->var[t][e]], t);
			break;
		case SF_COUNT_ROLES:
			if (stream[t] >= 0 && (uint64_t)pc[t] == c.next[stream[t]])
				c.next[stream[t]] = m->fire(state, stream[t], (uint64_t)pc[t], t);
			break;
		case SF_COUNT_NONE:
			break;
		}
	}
}

typedef int (*bug_fn)(const struct sim_run *r);

/* Hits over samples plans of spec, seeds 1..samples. */
static long hits(const struct sim_prog *p, const char *spec_text, const struct sf_estimates *est,
		 bug_fn bug, long samples)
{
	struct sf_spec spec;
	char err[128];
	assert_true(sf_spec_parse(spec_text, &spec, err, sizeof err));
	const struct strat_methods *m = strat_for_kind(spec.kind);
	void *state = m->create();
	long h = 0;
	for (long i = 1; i <= samples; i++) {
		struct sf_plan plan;
		sf_plan_generate(&spec, est, (uint64_t)i, &plan);
		struct sim_run r;
		simulate(p, &plan, state, &r);
		h += bug(&r);
	}
	m->destroy(state);
	printf("  %-22s %6ld/%ld = %.6f\n", spec_text, h, samples, (double)h / (double)samples);
	return h;
}

static void uniform(struct sim_prog *p, int n, int len)
{
	memset(p, 0, sizeof *p);
	memset(p->var, NO_VAR, sizeof p->var);
	p->n = n;
	for (int t = 0; t < n; t++)
		p->len[t] = len;
}

static double pct_bound(int n, double k, int d)
{
	double b = 1.0 / n;
	for (int i = 1; i < d; i++)
		b /= k;
	return b;
}

/* Depth 1: thread 1 starts before thread 0. */
static int depth1(const struct sim_run *r)
{
	return r->pos[1][0] < r->pos[0][0];
}

/* Depth 2: thread 1's first event falls between thread 0's 5th and 6th. */
static int depth2(const struct sim_run *r)
{
	return r->pos[0][4] < r->pos[1][0] && r->pos[1][0] < r->pos[0][5];
}

/* Depth 3: 0 runs 5 events, 1 runs 3, 0 runs one, then 1 again. */
static int depth3(const struct sim_run *r)
{
	return r->pos[0][4] < r->pos[1][0] && r->pos[1][2] < r->pos[0][5] &&
	       r->pos[0][5] < r->pos[1][3];
}

/* Three threads of ten events, a third one uninvolved: n = 3, k = 30. */
static void pct_meets_its_bound_at_depths_1_2_3(void **state)
{
	struct sim_prog p;
	uniform(&p, 3, 10);
	struct sf_estimates est = { .events = 30 };
	long n1 = 20000, n2 = 60000, n3 = 400000;
	long h1 = hits(&p, "pct:d=1", &est, depth1, n1);
	long h2 = hits(&p, "pct:d=2", &est, depth2, n2);
	long h3 = hits(&p, "pct:d=3", &est, depth3, n3);
	assert_true((double)h1 >= pct_bound(3, 30, 1) * (double)n1);
	assert_true((double)h2 >= pct_bound(3, 30, 2) * (double)n2);
	assert_true((double)h3 >= pct_bound(3, 30, 3) * (double)n3);
	/* And PCT of too small a depth cannot find the deeper bugs. */
	assert_int_equal(hits(&p, "pct:d=1", &est, depth2, 2000), 0);
	assert_int_equal(hits(&p, "pct:d=2", &est, depth3, 2000), 0);
}

/* Four ordering constraints among lock acquisitions, radius 3: thread 0
 * takes 10, then 1 takes 2, 0 one more, 1 one more, all before 0 goes on. */
static int four_constraints(const struct sim_run *r)
{
	return r->pos[0][9] < r->pos[1][0] && r->pos[1][1] < r->pos[0][10] &&
	       r->pos[0][10] < r->pos[1][2] && r->pos[1][2] < r->pos[0][11];
}

/* A two-stage race: thread 0 is main, 1..n-2 are writers (one start
 * routine) of six events, n-1 the reader (another) of three. The reader's
 * first event must fall after some writer's third event and before any
 * writer's fifth. */
static int two_stage(const struct sim_run *r, int n)
{
	bool after_some = false;
	for (int w = 1; w < n - 1; w++) {
		after_some |= r->pos[w][2] < r->pos[n - 1][0];
		if (r->pos[w][4] < r->pos[n - 1][0])
			return 0;
	}
	return after_some;
}
static int two_stage_4(const struct sim_run *r)
{
	return two_stage(r, 4);
}
static int two_stage_16(const struct sim_run *r)
{
	return two_stage(r, 16);
}

static void two_stage_prog(struct sim_prog *p, struct sf_estimates *est, int n)
{
	uniform(p, n, 6);
	p->len[0] = 2;
	p->len[n - 1] = 3;
	for (int t = 1; t < n; t++) {
		p->routine[t] = t < n - 1 ? 1 : 2;
		p->instance[t] = t < n - 1 ? (uint8_t)(t - 1) : 0;
	}
	*est = (struct sf_estimates){ .events = 2 + 6 * (uint64_t)(n - 2) + 3, .nroutines = 3 };
	est->routines[0] = (struct sf_routine_estimate){ 1, 2 };
	est->routines[1] = (struct sf_routine_estimate){ (uint32_t)n - 2, 6 };
	est->routines[2] = (struct sf_routine_estimate){ 1, 3 };
}

/* FOCUS spends its priorities on one writer and the reader, and counts
 * only their events: its rate holds as writers are added, where PCT's
 * falls with n and k. */
static void focus_keeps_its_rate_as_threads_grow(void **state)
{
	struct sim_prog p4, p16;
	struct sf_estimates e4, e16;
	two_stage_prog(&p4, &e4, 4);
	two_stage_prog(&p16, &e16, 16);
	long n = 20000;
	long f4 = hits(&p4, "focus:d=2", &e4, two_stage_4, n);
	long f16 = hits(&p16, "focus:d=2", &e16, two_stage_16, n);
	long pct16 = hits(&p16, "pct:d=2", &e16, two_stage_16, n);
	assert_true(f4 > n / 50);
	assert_true(f16 * 2 > f4);
	assert_true(f16 > 4 * pct16);
}

static void rpro_beats_pct_on_a_small_radius(void **state)
{
	struct sim_prog p;
	uniform(&p, 2, 30);
	for (int t = 0; t < 2; t++)
		memset(p.lock[t], 1, 30); /* every event takes a lock */
	struct sf_estimates est = { .events = 60, .locks = 60 };
	long n = 200000;
	long rpro = hits(&p, "rpro:d=4,r=4,locks", &est, four_constraints, n);
	long pct = hits(&p, "pct:d=4,locks", &est, four_constraints, n);
	double k = 60, r = 4;
	double rpro_bound = 1.0 / (2 * k * (2 * r) * (2 * r));
	assert_true((double)rpro >= rpro_bound * (double)n);
	assert_true((double)rpro >= pct_bound(2, k, 4) * (double)n);
	assert_true(rpro >= pct);
	assert_true(rpro > 0);
}

/* Lost update on a corner variable: 1 reads it, 0 writes, 1 writes. The
 * other variable is accessed thirty times as often. */
static int corner_lost_update(const struct sim_run *r)
{
	/* Event 20 is each thread's read of the corner, 21 its write. */
	return (r->pos[0][20] < r->pos[1][20] && r->pos[1][20] < r->pos[0][21]) ||
	       (r->pos[1][20] < r->pos[0][20] && r->pos[0][20] < r->pos[1][21]);
}

static void pctvb_beats_pct_on_a_corner_variable(void **state)
{
	struct sim_prog p;
	uniform(&p, 2, 32);
	for (int t = 0; t < 2; t++) {
		memset(p.var[t], 0, 32); /* the hot variable */
		p.var[t][20] = p.var[t][21] = 1; /* the corner one */
	}
	struct sf_estimates est = { .events = 64, .nvars = 2 };
	est.vars[0] = (struct sf_var_estimate){ var_id(0), 60, 1 };
	est.vars[1] = (struct sf_var_estimate){ var_id(1), 4, 1 };
	long n = 40000;
	long vb = hits(&p, "pctvb:d=2,v=1", &est, corner_lost_update, n);
	long pct = hits(&p, "pct:d=2", &est, corner_lost_update, n);
	assert_true((double)pct >= pct_bound(2, 64, 2) * (double)n);
	assert_true(vb >= pct);
	/* Variable bounding: 1/(n * V * a_corner) = 1/16 at least. */
	assert_true((double)vb >= (double)n / 16);
}

/* A thread that starves is lowered below all, including lowered ones. */
static void starving_threads_drop_below_everyone(void **state)
{
	struct sf_plan plan = { .kind = SF_KIND_PCT, .depth = 2, .k = 5 };
	sf_plan_normalize(&plan);
	const struct strat_methods *m = strat_for_kind(SF_KIND_PCT);
	void *s = m->create();
	m->begin(s, &plan);
	m->note(s, STRAT_NOTE_THREAD_CREATED, 1, 0);
	struct strat_candidate both[2] = { { 0, 0 }, { 1, 0 } };
	struct strat_view v = { 0, 0, both, 2 };
	int first = m->pick(s, &v);
	m->note(s, STRAT_NOTE_STARVING, first, 1);
	assert_int_equal(m->pick(s, &v), 1 - first);
	/* A change point never lifts a starving thread back up. */
	struct strat_counting c;
	m->counting(s, &c);
	m->fire(s, 0, c.next[0], first);
	assert_int_equal(m->pick(s, &v), 1 - first);
	/* Timeouts only when nothing else can run. */
	struct strat_candidate timed[2] = { { 0, 1 }, { 1, 0 } };
	struct strat_view w = { 0, 1, timed, 2 };
	assert_int_equal(m->pick(s, &w), 1);
	m->destroy(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pct_meets_its_bound_at_depths_1_2_3),
		cmocka_unit_test(rpro_beats_pct_on_a_small_radius),
		cmocka_unit_test(focus_keeps_its_rate_as_threads_grow),
		cmocka_unit_test(pctvb_beats_pct_on_a_corner_variable),
		cmocka_unit_test(starving_threads_drop_below_everyone),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
