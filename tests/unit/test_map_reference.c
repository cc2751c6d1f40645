/* test_map_reference.c - MAP's matcher against a reference written
 * straight from the definition (docs/design/algorithms.md, MAP;
 * coverage/map_patterns.c states the bounds): for each access, every
 * ordered choice of earlier steps within the bounds (the variable's last
 * COV_HIST accesses for patterns 1-8, the execution's last COV_WINDOW for
 * 9-17), classified by the patterns' own text. On random and loop-shaped
 * streams the matcher must emit exactly the reference's set, each feature
 * once: its shortcuts (docs/cost.md) may skip work, never an instance.
 * Every access here is a whole aligned word, so a variable is a granule. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cov_internal.h"

/* A feature's identity for this test: the pattern, then its sites. */
struct key {
	uint32_t v[1 + COV_MAX_STEPS];
};

#define MAX_KEYS 8192

struct keys {
	struct key k[MAX_KEYS];
	int n;
};

static struct keys got, want;

static void add(struct keys *s, int pattern, const uint32_t *site, int n)
{
	assert_true(s->n < MAX_KEYS);
	struct key k = { { (uint32_t)pattern } };
	for (int i = 0; i < n; i++)
		k.v[1 + i] = site[i];
	s->k[s->n++] = k;
}

static void collect(void *arg, const struct cov_feature *f)
{
	if (f->kind == COV_MAP)
		add(arg, f->pattern, f->site, f->nsteps);
}

static int cmp_key(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(struct key));
}

/* Sorted, duplicates dropped; the number of duplicates. */
static int sort_unique(struct keys *s)
{
	qsort(s->k, (size_t)s->n, sizeof s->k[0], cmp_key);
	int n = 0, dup = 0;
	for (int i = 0; i < s->n; i++) {
		if (n && !cmp_key(&s->k[n - 1], &s->k[i]))
			dup++;
		else
			s->k[n++] = s->k[i];
	}
	s->n = n;
	return dup;
}

/* ---- the reference ----------------------------------------------------------- */

struct step {
	int var, tid, write;
	uint32_t site;
};

/* The pattern that steps st[0..n-1] form, by writing them down as the
 * pattern table does ("a:R x, b:W x"), threads and variables named in
 * order of first use; 0 if none. */
static int classify(const struct step *const *st, int n)
{
	int thr[2] = { -1, -1 }, var[2] = { -1, -1 };
	char text[64] = "";
	for (int i = 0; i < n; i++) {
		int t = st[i]->tid == thr[0] ? 0 : st[i]->tid == thr[1] ? 1 : thr[0] < 0 ? 0 : 1;
		int v = st[i]->var == var[0] ? 0 : st[i]->var == var[1] ? 1 : var[0] < 0 ? 0 : 1;
		if ((thr[t] >= 0 && thr[t] != st[i]->tid) || (var[v] >= 0 && var[v] != st[i]->var))
			return 0; /* a third thread or variable */
		thr[t] = st[i]->tid;
		var[v] = st[i]->var;
		snprintf(text + strlen(text), sizeof text - strlen(text), "%s%c:%c %c", i ? ", " : "",
			 "ab"[t], st[i]->write ? 'W' : 'R', "xy"[v]);
	}
	for (int p = 1; p <= COV_MAP_PATTERNS; p++)
		if (!strcmp(text, cov_map_pattern_text(p)))
			return p;
	return 0;
}

static void reference_match(const struct step *const *st, int n, int lo, int hi)
{
	int p = classify(st, n);
	if (p >= lo && p <= hi) {
		uint32_t site[COV_MAX_STEPS];
		for (int i = 0; i < n; i++)
			site[i] = st[i]->site;
		add(&want, p, site, n);
	}
}

/* Every instance that ends with access e of the stream s[0..e]. */
static void reference(const struct step *s, int e)
{
	const struct step *h[COV_HIST];
	int nh = 0;
	for (int i = e - 1; i >= 0 && nh < COV_HIST; i--)
		if (s[i].var == s[e].var)
			h[nh++] = &s[i];
	for (int j = 0; j < nh; j++) { /* h is newest first */
		reference_match((const struct step *[]){ h[j], &s[e] }, 2, 1, 8);
		for (int i = j + 1; i < nh; i++)
			reference_match((const struct step *[]){ h[i], h[j], &s[e] }, 3, 1, 8);
	}
	int from = e > COV_WINDOW ? e - COV_WINDOW : 0;
	for (int a = from; a < e; a++)
		for (int b = a + 1; b < e; b++)
			for (int c = b + 1; c < e; c++)
				reference_match((const struct step *[]){ &s[a], &s[b], &s[c], &s[e] }, 4,
						9, 17);
}

/* ---- streams ------------------------------------------------------------------ */

static uint64_t rng = 88172645463325252ull;

static unsigned next(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

#define MAX_STREAM 96

/* Loop-shaped: each thread runs operations of a few fixed access
 * sequences (a lock-free queue's push and pop, a counter update) and the
 * threads take turns after a random number of them. */
static int loop_stream(struct step *s, int nthreads)
{
	static const struct step ops[3][4] = {
		{ { 0, 0, 0, 1 }, { 1, 0, 0, 2 }, { 2, 0, 1, 3 }, { 1, 0, 1, 4 } },
		{ { 0, 0, 0, 5 }, { 1, 0, 0, 6 }, { 0, 0, 1, 7 }, { 0, 0, 1, 7 } },
		{ { 2, 0, 0, 8 }, { 2, 0, 0, 8 }, { 3, 0, 1, 9 }, { 1, 0, 0, 10 } },
	};
	int n = 0, tid = 0;
	while (n + 4 <= MAX_STREAM) {
		if (next(3) == 0)
			tid = (tid + 1) % nthreads;
		const struct step *op = ops[next(3)];
		for (int i = 0; i < 4; i++) {
			s[n] = op[i];
			s[n++].tid = tid;
		}
	}
	return n;
}

static int random_stream(struct step *s, int nthreads)
{
	int n = 24 + (int)next(MAX_STREAM - 24);
	for (int i = 0; i < n; i++)
		s[i] = (struct step){ (int)next(4), (int)next((unsigned)nthreads), (int)next(2),
				      1 + next(6) };
	return n;
}

static void check(struct cov_state *cov, const struct step *s, int n)
{
	got.n = want.n = 0;
	cov_begin(cov, COV_MAP, collect, &got);
	for (int e = 0; e < n; e++) {
		struct cov_event ev = { .obj = 0x10000 + 64 * (uintptr_t)s[e].var, .size = 8,
					.site = s[e].site, .tid = (uint16_t)s[e].tid,
					.op = (uint8_t)(s[e].write ? COV_WRITE : COV_READ) };
		cov_event(cov, &ev);
		reference(s, e);
	}
	assert_int_equal(sort_unique(&got), 0); /* each feature once */
	sort_unique(&want);
	assert_int_equal(got.n, want.n);
	assert_memory_equal(got.k, want.k, (size_t)got.n * sizeof got.k[0]);
}

static void test_map_matches_reference(void **state)
{
	struct cov_state *cov = cov_create();
	assert_non_null(cov);
	struct step s[MAX_STREAM];
	for (int round = 0; round < 200; round++) {
		int nthreads = 2 + round % 2;
		int n = round % 3 ? loop_stream(s, nthreads) : random_stream(s, nthreads);
		check(cov, s, n);
	}
	cov_destroy(cov);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_map_matches_reference),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
