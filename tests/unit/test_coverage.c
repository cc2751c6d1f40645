/* test_coverage.c - HaPSet, MAP and reads-from on hand-made event streams:
 * the worked examples of docs/design/algorithms.md as exact test vectors,
 * every one of the 17 patterns, TC, reads-from's worked cases, and the
 * abstractions features rely on. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cov.h"
#include "cov_export.h"
#include "cov_shadow.h"

/* ---- a sink that keeps what a run emitted ------------------------------------ */

#define MAX_FEATURES 256

struct sink {
	struct cov_feature f[MAX_FEATURES];
	int n;
};

static void collect(void *arg, const struct cov_feature *f)
{
	struct sink *k = arg;
	assert_true(k->n < MAX_FEATURES);
	k->f[k->n++] = *f;
}

static struct cov_state *cov;
static struct sink sink;

static int setup(void **state)
{
	cov = cov_create();
	return cov ? 0 : -1;
}

static int teardown(void **state)
{
	cov_destroy(cov);
	return 0;
}

static void begin(unsigned what)
{
	memset(&sink, 0, sizeof sink);
	cov_begin(cov, what, collect, &sink);
}

static void ev(int tid, enum cov_op op, uintptr_t obj, uint32_t size, uint32_t site)
{
	struct cov_event e = { .obj = obj, .size = size, .site = site, .tid = (uint16_t)tid,
			       .op = (uint8_t)op };
	cov_event(cov, &e);
}

/* HaPSet pairs as "pred>stmt" site numbers, e.g. "1>2 3>4", sorted. */
static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void pairs_text(char *out, size_t cap)
{
	uint64_t p[MAX_FEATURES];
	int n = 0;
	for (int i = 0; i < sink.n; i++)
		if (sink.f[i].kind == COV_HAPSET)
			p[n++] = (uint64_t)sink.f[i].site[0] << 32 | sink.f[i].site[1];
	qsort(p, (size_t)n, sizeof p[0], cmp_u64);
	out[0] = 0;
	for (int i = 0; i < n; i++)
		snprintf(out + strlen(out), cap - strlen(out), "%s%u>%u", i ? " " : "",
			 (unsigned)(p[i] >> 32), (unsigned)p[i]);
}

/* MAP patterns covered, as a bit set. */
static uint32_t patterns(void)
{
	uint32_t set = 0;
	for (int i = 0; i < sink.n; i++)
		if (sink.f[i].kind == COV_MAP)
			set |= 1u << sink.f[i].pattern;
	return set;
}

#define BITS(...) bits_of((int[]){ __VA_ARGS__, 0 })
static uint32_t bits_of(const int *p)
{
	uint32_t set = 0;
	for (; *p; p++)
		set |= 1u << *p;
	return set;
}

/* ---- HaPSet, the Fig. 2 example ---------------------------------------------- */

/* p (initially NULL) and a; t1: e1 p = &a ... e4 p = NULL;
 * t2: e2 if (p != NULL)  e3 *p = 1 (reads p, writes a). */
enum { P = 0x1000, A = 0x2000 };

static void fig2(int tid1, int tid2, uintptr_t base, const char *order)
{
	for (const char *c = order; *c; c++) {
		switch (*c) {
		case '1': ev(tid1, COV_WRITE, base + P, 8, 1); break;
		case '2': ev(tid2, COV_READ, base + P, 8, 2); break;
		case '3':
			ev(tid2, COV_READ, base + P, 8, 3);
			ev(tid2, COV_WRITE, base + A, 4, 3);
			break;
		case '4': ev(tid1, COV_WRITE, base + P, 8, 4); break;
		}
	}
}

static void run_fig2(const char *order, char *out, size_t cap)
{
	begin(COV_HAPSET);
	fig2(1, 2, 0, order);
	pairs_text(out, cap);
}

static void test_hapset_fig2(void **state)
{
	char good1[256], good2[256], good3[256], bad[256];
	run_fig2("1234", good1, sizeof good1);
	run_fig2("142", good2, sizeof good2); /* e3 skipped: p was NULL */
	run_fig2("214", good3, sizeof good3); /* likewise */
	assert_string_equal(good1, "1>2 3>4");
	assert_string_equal(good2, "4>2");
	assert_string_equal(good3, "2>1");
	/* So over the good runs HaPSet(e1) = {e2}, HaPSet(e2) = {e1, e4},
	 * HaPSet(e3) = {} and HaPSet(e4) = {e3}. The failing run adds exactly
	 * e4 to HaPSet(e3) and e2 to HaPSet(e4); its e1 -> e2 is known. */
	run_fig2("1243", bad, sizeof bad);
	assert_string_equal(bad, "1>2 2>4 4>3");
}

static void test_hapset_features_are_abstract(void **state)
{
	/* Other thread ids and other addresses: the same features. */
	begin(COV_BOTH);
	fig2(1, 2, 0, "1243");
	uint64_t h[MAX_FEATURES];
	int n = sink.n;
	for (int i = 0; i < n; i++)
		h[i] = sink.f[i].hash;
	begin(COV_BOTH);
	fig2(7, 3, 0x7000000, "1243");
	assert_int_equal(sink.n, n);
	for (int i = 0; i < n; i++)
		assert_true(sink.f[i].hash == h[i]);
}

/* ---- HaPSet, the busy-wait example --------------------------------------------- */

/* t1: do { lock(a); tmp = x; unlock(a); } while (!tmp);  t2: lock(a); x = 1;
 * unlock(a). Unlocks of a normal mutex are not events. */
enum { LOCK = 0x3000, X = 0x4000 };

static void busy_wait(int spins, char *out, size_t cap)
{
	begin(COV_HAPSET);
	for (int i = 0; i < spins; i++) {
		ev(1, COV_ACQUIRE, LOCK, 0, 10);
		ev(1, COV_READ, X, 4, 11);
	}
	ev(2, COV_ACQUIRE, LOCK, 0, 20);
	ev(2, COV_WRITE, X, 4, 21);
	ev(1, COV_ACQUIRE, LOCK, 0, 10);
	ev(1, COV_READ, X, 4, 11);
	pairs_text(out, cap);
}

static void test_hapset_busy_wait(void **state)
{
	char one[256], two[256], many[256];
	busy_wait(1, one, sizeof one);
	busy_wait(2, two, sizeof two);
	busy_wait(50, many, sizeof many);
	assert_string_equal(one, "10>20 11>21 20>10 21>11");
	assert_string_equal(two, one);
	assert_string_equal(many, one);
}

static void test_hapset_sync_conflicts(void **state)
{
	begin(COV_HAPSET);
	ev(1, COV_WAIT, 0x5000, 0, 1);
	ev(2, COV_NOTIFY, 0x5000, 0, 2); /* notify after wait: a pair */
	ev(3, COV_NOTIFY, 0x5000, 0, 3); /* after t1's wait too, not after t2's notify */
	ev(1, COV_ACQUIRE_SHARED, 0x6000, 0, 4);
	ev(2, COV_ACQUIRE_SHARED, 0x6000, 0, 5); /* two readers: none */
	ev(3, COV_ACQUIRE, 0x6000, 0, 6);        /* a writer after both */
	char text[256];
	pairs_text(text, sizeof text);
	assert_string_equal(text, "1>2 1>3 4>6 5>6");
}

static void test_granule_bytes(void **state)
{
	begin(COV_BOTH);
	ev(1, COV_WRITE, 0x8000, 1, 1); /* byte 0 */
	ev(2, COV_READ, 0x8004, 4, 2);  /* bytes 4-7: another variable */
	assert_int_equal(sink.n, 0);
	ev(2, COV_READ, 0x8000, 4, 3);  /* bytes 0-3: overlaps */
	char text[256];
	pairs_text(text, sizeof text);
	assert_string_equal(text, "1>3");
	assert_int_equal(patterns(), BITS(2));
	/* A 16-byte access spans two granules, each its own variable. */
	begin(COV_MAP);
	ev(1, COV_WRITE, 0x9000, 16, 1);
	ev(2, COV_READ, 0x9008, 8, 2);
	assert_int_equal(patterns(), BITS(2));
}

static void test_once_per_execution(void **state)
{
	/* HaPSet: round two adds the pairs that follow round one (3>1 ...),
	 * round three only repeats round two. */
	begin(COV_HAPSET);
	fig2(1, 2, 0, "1243");
	fig2(1, 2, 0, "1243");
	int twice = sink.n;
	fig2(1, 2, 0, "1243");
	assert_int_equal(sink.n, twice);
	/* MAP's windows reach back further, but a repeated scenario settles. */
	begin(COV_BOTH);
	for (int round = 0; round < 8; round++)
		fig2(1, 2, 0, "1243");
	int settled = sink.n;
	fig2(1, 2, 0, "1243");
	assert_int_equal(sink.n, settled);
	/* A new execution reports everything afresh. */
	begin(COV_BOTH);
	fig2(1, 2, 0, "1243");
	int n = sink.n;
	assert_true(n > 0);
	begin(COV_BOTH);
	fig2(1, 2, 0, "1243");
	assert_int_equal(sink.n, n);
}

static void test_none_emits_nothing(void **state)
{
	begin(0);
	fig2(1, 2, 0, "1243");
	assert_int_equal(sink.n, 0);
	begin(COV_MAP);
	fig2(1, 2, 0, "1243");
	for (int i = 0; i < sink.n; i++)
		assert_int_equal(sink.f[i].kind, COV_MAP);
	begin(COV_HAPSET);
	fig2(1, 2, 0, "1243");
	for (int i = 0; i < sink.n; i++)
		assert_int_equal(sink.f[i].kind, COV_HAPSET);
}

/* ---- MAP, the log4j threshold example -------------------------------------------- */

static void test_map_log4j(void **state)
{
	/* th: read at s4 (th == NULL) and s5 (prio >= th->level), written at
	 * s9 (th = NULL in set_threshold). */
	const uintptr_t th = 0xa000;
	begin(COV_MAP);
	ev(1, COV_READ, th, 8, 4);
	ev(2, COV_WRITE, th, 8, 9);
	ev(1, COV_READ, th, 8, 5);
	assert_int_equal(sink.n, 3);
	assert_int_equal(patterns(), BITS(1, 2, 4));
	for (int i = 0; i < sink.n; i++) {
		const struct cov_feature *f = &sink.f[i];
		switch (f->pattern) {
		case 1: assert_true(f->nsteps == 2 && f->site[0] == 4 && f->site[1] == 9); break;
		case 2: assert_true(f->nsteps == 2 && f->site[0] == 9 && f->site[1] == 5); break;
		case 4:
			assert_true(f->nsteps == 3 && f->site[0] == 4 && f->site[1] == 9 &&
				    f->site[2] == 5);
			break;
		}
	}
	struct cov_var_sites v = { .reads = 2, .writes = 1 };
	double total = cov_map_total(&v, 1);
	assert_true(total == 16);
	assert_true((double)sink.n / total == 0.1875);
}

/* ---- MAP, every pattern ------------------------------------------------------------ */

/* Feed pattern p's steps (threads 1 and 2, x and y in distinct granules,
 * site 100 + step) and check what is covered: p itself and the 2- and
 * 3-step patterns its own steps form, nothing else. */
static const int implied[COV_MAP_PATTERNS + 1][4] = {
	[1] = { 1 },	  [2] = { 2 },	    [3] = { 3 },      [4] = { 1, 2, 4 },
	[5] = { 2, 3, 5 }, [6] = { 1, 2, 6 }, [7] = { 1, 3, 7 }, [8] = { 3, 8 },
	[9] = { 3, 9 },	  [10] = { 3, 10 }, [11] = { 3, 11 }, [12] = { 1, 2, 12 },
	[13] = { 1, 2, 13 }, [14] = { 1, 2, 14 }, [15] = { 1, 2, 15 }, [16] = { 1, 2, 16 },
	[17] = { 1, 2, 17 },
};

static void feed_pattern(int p, int noise)
{
	const char *t = cov_map_pattern_text(p);
	uint32_t step = 0;
	for (; *t; t++) {
		if (t[1] != ':')
			continue;
		ev(t[0] == 'a' ? 1 : 2, t[2] == 'W' ? COV_WRITE : COV_READ, t[4] == 'x' ? 0xb000 : 0xc000,
		   4, 100 + step++);
		for (int i = 0; i < noise; i++) /* a third thread elsewhere */
			ev(3, COV_WRITE, 0xd000 + 64 * (uintptr_t)i, 4, 200);
	}
}

static void test_map_every_pattern(void **state)
{
	for (int p = 1; p <= COV_MAP_PATTERNS; p++) {
		begin(COV_MAP);
		feed_pattern(p, 0);
		uint32_t want = 0;
		for (int i = 0; i < 4 && implied[p][i]; i++)
			want |= 1u << implied[p][i];
		if (patterns() != want)
			fail_msg("pattern %d (%s): covered %#x, want %#x", p, cov_map_pattern_text(p),
				 patterns(), want);
		for (int i = 0; i < sink.n; i++) {
			const struct cov_feature *f = &sink.f[i];
			if (f->pattern != p)
				continue;
			assert_int_equal(f->nvars, p >= 9 ? 2 : 1);
			for (int s = 0; s < f->nsteps; s++)
				assert_int_equal(f->site[s], 100 + s);
		}
	}
}

static void test_map_windows(void **state)
{
	/* Two-variable patterns survive a little interference in between ... */
	begin(COV_MAP);
	feed_pattern(9, 2);
	assert_true(patterns() & BITS(9));
	/* ... but not more than the window holds: the stated bound. */
	begin(COV_MAP);
	feed_pattern(9, 8);
	assert_false(patterns() & BITS(9));
}

/* Patterns 1-8 are on one variable: two earlier steps on disjoint bytes of
 * the granule that both overlap the last one are two variables, and form
 * no three-step instance; once they overlap, they do. */
static void test_map_bytes(void **state)
{
	begin(COV_MAP);
	ev(1, COV_READ, 0x3000, 4, 1);	   /* a: bytes 0-3 */
	ev(2, COV_WRITE, 0x3004, 4, 2);	   /* b: bytes 4-7 */
	ev(1, COV_WRITE, 0x3000, 8, 3);	   /* a: the whole word */
	assert_int_equal(patterns(), BITS(3)); /* b, a only: W, W */
	begin(COV_MAP);
	ev(1, COV_READ, 0x3000, 4, 1);
	ev(2, COV_WRITE, 0x3002, 4, 2); /* bytes 2-5: on a's too */
	ev(1, COV_WRITE, 0x3000, 8, 3);
	assert_int_equal(patterns(), BITS(1, 3, 7)); /* a R b W; b W a W; a R, b W, a W */
}

/* A step repeated by its side forms the instances the first one formed,
 * and no fewer: each instance still comes out, once. */
static void test_map_repeats(void **state)
{
	begin(COV_MAP);
	ev(1, COV_READ, 0x3000, 8, 1);
	ev(2, COV_WRITE, 0x3000, 8, 2);
	ev(3, COV_WRITE, 0x3000, 8, 2); /* b's step again, by another thread */
	ev(1, COV_READ, 0x3000, 8, 1);	/* a's step again */
	ev(2, COV_WRITE, 0x3000, 8, 2);
	ev(1, COV_WRITE, 0x3000, 8, 4);
	int n7 = 0, n4 = 0;
	for (int i = 0; i < sink.n; i++) {
		const struct cov_feature *f = &sink.f[i];
		if (f->kind != COV_MAP)
			continue;
		n4 += f->pattern == 4 && f->site[0] == 1 && f->site[1] == 2 && f->site[2] == 1;
		n7 += f->pattern == 7 && f->site[0] == 1 && f->site[1] == 2 && f->site[2] == 4;
	}
	assert_int_equal(n4, 1);
	assert_int_equal(n7, 1);
	for (int i = 0; i < sink.n; i++)
		for (int j = 0; j < i; j++)
			assert_true(sink.f[i].hash != sink.f[j].hash);
}

/* ---- TC ------------------------------------------------------------------------------- */

/* ---- reads-from ----------------------------------------------------------------- */

/* Reads-from features as "read<write" site numbers, "r" after a remote
 * write, e.g. "2<1r 3<0", sorted. */
static void reads_from_text(char *out, size_t cap)
{
	uint64_t p[MAX_FEATURES];
	int n = 0;
	for (int i = 0; i < sink.n; i++) {
		const struct cov_feature *f = &sink.f[i];
		if (f->kind != COV_READS_FROM || f->count != 1)
			continue; /* the buckets of counts are checked apart */
		assert_true(f->hash == cov_reads_from_hash(f->site[1], f->site[0], f->remote));
		p[n++] = (uint64_t)f->site[1] << 33 | (uint64_t)f->site[0] << 1 | f->remote;
	}
	qsort(p, (size_t)n, sizeof p[0], cmp_u64);
	out[0] = 0;
	for (int i = 0; i < n; i++)
		snprintf(out + strlen(out), cap - strlen(out), "%s%u<%u%s", i ? " " : "",
			 (unsigned)(p[i] >> 33), (unsigned)(p[i] >> 1 & 0xffffffffu),
			 p[i] & 1 ? "r" : "");
}

static void test_reads_from_worked(void **state)
{
	char text[256];
	/* A read before any write sees the initial value (site 0); then a
	 * remote write; then the thread's own. */
	begin(COV_READS_FROM);
	ev(2, COV_READ, X, 4, 2);
	ev(1, COV_WRITE, X, 4, 1);
	ev(2, COV_READ, X, 4, 2);
	ev(2, COV_WRITE, X, 4, 3);
	ev(2, COV_READ, X, 4, 4);
	reads_from_text(text, sizeof text);
	assert_string_equal(text, "2<0 2<1r 4<3");
	/* Only the last write counts, whoever made it; other threads' writes
	 * before it are overwritten. */
	begin(COV_READS_FROM);
	ev(1, COV_WRITE, X, 4, 1);
	ev(3, COV_WRITE, X, 4, 5);
	ev(2, COV_READ, X, 4, 2);
	ev(3, COV_READ, X, 4, 6);
	reads_from_text(text, sizeof text);
	assert_string_equal(text, "2<5r 6<5");
	/* Other bytes of the granule are another variable: the read of bytes
	 * 4-7 sees their initial value, the one of bytes 0-3 the write. */
	begin(COV_READS_FROM);
	ev(1, COV_WRITE, X, 4, 1);
	ev(2, COV_READ, X + 4, 4, 2);
	ev(2, COV_READ, X, 1, 3);
	reads_from_text(text, sizeof text);
	assert_string_equal(text, "2<0 3<1r");
	/* Sync objects have no reads-from; neither has a write alone. */
	begin(COV_READS_FROM);
	ev(1, COV_ACQUIRE, LOCK, 0, 10);
	ev(1, COV_WRITE, X, 4, 11);
	assert_int_equal(sink.n, 0);
}

/* The order violation the feature is for: t1 sets x (site 1) then y (site
 * 2); t2 reads y (site 3) then x (site 4). The bug needs t2 between t1's two
 * writes: t2's reads see "y initial, x remote", which neither order of the
 * whole threads gives. A schedule that got half of it (y remote) is new too. */
static void order_violation(const char *order, char *out, size_t cap)
{
	begin(COV_ALL);
	for (const char *c = order; *c; c++) {
		switch (*c) {
		case 'x': ev(1, COV_WRITE, X, 4, 1); break;
		case 'y': ev(1, COV_WRITE, X + 8, 4, 2); break;
		case 'r': ev(2, COV_READ, X + 8, 4, 3); break;
		case 's': ev(2, COV_READ, X, 4, 4); break;
		}
	}
	reads_from_text(out, cap);
}

static void test_reads_from_order_violation(void **state)
{
	char first[256], second[256], bug[256];
	order_violation("xyrs", first, sizeof first);
	order_violation("rsxy", second, sizeof second);
	order_violation("xrsy", bug, sizeof bug);
	assert_string_equal(first, "3<2r 4<1r");
	assert_string_equal(second, "3<0 4<0");
	assert_string_equal(bug, "3<0 4<1r");
}

/* Reads-from features without occurrences (the plain ones and their
 * counts' buckets), moved to the front of the sink; how many. */
static int plain_reads_from(void)
{
	int n = 0;
	for (int i = 0; i < sink.n; i++)
		if (sink.f[i].kind == COV_READS_FROM && sink.f[i].occ[1] == 0)
			sink.f[n++] = sink.f[i];
	return sink.n = n;
}

static void test_reads_from_once_and_abstract(void **state)
{
	begin(COV_READS_FROM);
	ev(1, COV_WRITE, X, 8, 1);
	for (int i = 0; i < 100; i++)
		ev(2, COV_READ, X, 8, 2);
	/* Once per bucket of its count: 1, 2, 3, 4, 8, 16, 32, each a
	 * feature of its own; the 128th would be the next. */
	static const int buckets[] = { 1, 2, 3, 4, 8, 16, 32 };
	assert_int_equal(plain_reads_from(), 7);
	for (int i = 0; i < 7; i++) {
		assert_int_equal(sink.f[i].count, buckets[i]);
		for (int j = 0; j < i; j++)
			assert_true(sink.f[i].hash != sink.f[j].hash);
	}
	for (int i = 100; i < 200; i++)
		ev(2, COV_READ, X, 8, 2);
	assert_int_equal(plain_reads_from(), 8);
	assert_int_equal(sink.f[7].count, 128);
	uint64_t h = sink.f[0].hash;
	/* Other threads, another address, another execution: the same one. */
	begin(COV_READS_FROM);
	ev(9, COV_WRITE, 0x7770000, 8, 1);
	ev(4, COV_READ, 0x7770000, 8, 2);
	assert_int_equal(plain_reads_from(), 1);
	assert_true(sink.f[0].hash == h);
	/* A thread that read its own write twice and one that read another's
	 * twice: counted apart. */
	begin(COV_READS_FROM);
	ev(1, COV_WRITE, X, 8, 1);
	ev(1, COV_READ, X, 8, 2);
	ev(1, COV_READ, X, 8, 2);
	ev(2, COV_READ, X, 8, 2);
	assert_int_equal(plain_reads_from(), 3);
	assert_int_equal(sink.f[2].count, 1);
	assert_int_equal(sink.f[2].remote, 1);
	/* Not asked for, not computed. */
	begin(COV_BOTH);
	ev(1, COV_WRITE, X, 8, 1);
	ev(2, COV_READ, X, 8, 2);
	for (int i = 0; i < sink.n; i++)
		assert_int_not_equal(sink.f[i].kind, COV_READS_FROM);
}

/* Occurrences tell a loop's rounds apart: t1 writes x (site 1) and t2
 * reads it (site 2), three times each. Whole threads one after the other
 * give "each read saw the 3rd write"; strict turns give "the i-th read saw
 * the i-th write", one more feature per round in lockstep. */
static void rounds(const char *order, char *out, size_t cap)
{
	begin(COV_READS_FROM);
	for (const char *c = order; *c; c++)
		ev(*c == 'w' ? 1 : 2, *c == 'w' ? COV_WRITE : COV_READ, X, 4, *c == 'w' ? 1 : 2);
	uint32_t p[MAX_FEATURES];
	int n = 0;
	for (int i = 0; i < sink.n; i++)
		if (sink.f[i].occ[1] && !sink.f[i].chained)
			p[n++] = (uint32_t)sink.f[i].occ[1] << 8 | sink.f[i].occ[0];
	out[0] = 0;
	for (int i = 0; i < n; i++)
		snprintf(out + strlen(out), cap - strlen(out), "%s%u<%u", i ? " " : "", p[i] >> 8,
			 p[i] & 0xff);
}

static void test_reads_from_occurrences(void **state)
{
	char text[256];
	rounds("wwwrrr", text, sizeof text);
	assert_string_equal(text, "1<3 2<3 3<3");
	rounds("wrwwrr", text, sizeof text);
	assert_string_equal(text, "1<1 2<3 3<3");
	rounds("wrwrwr", text, sizeof text);
	assert_string_equal(text, "1<1 2<2 3<3");
	rounds("rwrwr", text, sizeof text); /* the first read: the initial value */
	assert_string_equal(text, "1<0 2<1 3<2");
}

/* Chained: each read's feature with the same thread's previous read's.
 * Two rounds in lockstep then a late one, and a late one then two in
 * lockstep, share their unchained features but not their chains. */
static int chains(const char *order, uint64_t *h)
{
	begin(COV_READS_FROM);
	for (const char *c = order; *c; c++)
		ev(*c == 'w' ? 1 : 2, *c == 'w' ? COV_WRITE : COV_READ, X, 4, *c == 'w' ? 1 : 2);
	int n = 0;
	for (int i = 0; i < sink.n; i++)
		if (sink.f[i].chained)
			h[n++] = sink.f[i].hash;
	return n;
}

static void test_reads_from_chains(void **state)
{
	uint64_t a[MAX_FEATURES], b[MAX_FEATURES], c[MAX_FEATURES];
	assert_int_equal(chains("wrwrwr", a), 2); /* 1<1 then 2<2, 2<2 then 3<3 */
	assert_int_equal(chains("wrwrwr", b), 2);
	assert_memory_equal(a, b, sizeof a[0] * 2); /* the same in every execution */
	assert_int_equal(chains("wrwwrr", c), 2); /* 1<1 then 2<3, 2<3 then 3<3 */
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 2; j++)
			assert_true(a[i] != c[j]);
	/* Another thread's reads do not chain to these. */
	begin(COV_READS_FROM);
	ev(1, COV_WRITE, X, 4, 1);
	ev(2, COV_READ, X, 4, 2);
	ev(3, COV_READ, X, 4, 2);
	for (int i = 0; i < sink.n; i++)
		assert_false(sink.f[i].chained);
}

static void test_map_total(void **state)
{
	const struct cov_var_sites v[3] = { { 1, 2 }, { 3, 1 }, { 0, 2 } };
	/* Straight from the formula, pairs by two loops. */
	double want = 0;
	for (int x = 0; x < 3; x++) {
		double r = (double)v[x].reads, w = (double)v[x].writes;
		want += 2 * r * w + w * w + r * r * w + 3 * r * w * w + w * w * w;
		for (int y = 0; y < 3; y++) {
			if (y == x)
				continue;
			double ry = (double)v[y].reads, wy = (double)v[y].writes;
			want += 3 * w * w * wy * wy + 6 * w * r * wy * ry;
		}
	}
	assert_true(cov_map_total(v, 3) == want);
	double by[COV_MAP_PATTERNS + 1];
	cov_map_total_by_pattern(v, 3, by);
	assert_true(by[12] == 2 * 1 * 1 * 3 + 1 * 3 * 2 * 1 + 0);
	assert_true(cov_map_total(v, 0) == 0);
}

/* The bucket a counter falls in, as libFuzzer turns a counter into a
 * feature and AFL++ classifies hit counts: both cut at 1, 2, 3, 4, 8, 16,
 * 32 and 128. */
static int fuzzer_bucket(uint8_t c)
{
	static const uint8_t lower[8] = {1, 2, 3, 4, 8, 16, 32, 128};
	int b = -1;
	for (int k = 0; k < 8; k++)
		if (c >= lower[k])
			b = k;
	return b;
}

/* Each of a slot's eight values is a feature of its own to the fuzzers,
 * and a larger value is a later bucket (the merge keeps the larger). */
static void test_export_bucket_values(void **state)
{
	(void)state;
	for (unsigned b = 0; b < 8; b++) {
		uint8_t v = cov_export_bucket_value(b);
		assert_int_equal(fuzzer_bucket(v), (int)b);
		if (b > 0)
			assert_true(v > cov_export_bucket_value(b - 1));
	}
}

/* ---- the tracker's budgets (cov.h) -------------------------------------------- */

enum { BUF = 0x100000 };

/* A site's first COV_SITE_CELLS granules are tracked, the rest not: an
 * event there has no predecessor (no pair), while another site still
 * gets its own cells; a new execution has the whole budget again. */
static void test_cells_per_site(void **state)
{
	char out[256];
	uintptr_t past = BUF + 8 * (COV_SITE_CELLS + 20);
	begin(COV_HAPSET);
	for (uintptr_t i = 0; i < COV_SITE_CELLS + 100; i++)
		ev(1, COV_WRITE, BUF + 8 * i, 8, 1);
	ev(2, COV_READ, BUF + 8 * 10, 8, 2); /* tracked: 1>2 */
	ev(2, COV_READ, past, 8, 3);         /* untracked write before it: no pair */
	ev(1, COV_WRITE, past, 8, 4);        /* site 3 made the cell: 3>4 */
	pairs_text(out, sizeof out);
assert_string_equal(out, "1>2 3>4");

	begin(COV_HAPSET);
	ev(1, COV_WRITE, past, 8, 1);
	ev(2, COV_READ, past, 8, 2);
	pairs_text(out, sizeof out);
	assert_string_equal(out, "1>2");
}

/* Past COV_MAX_CELLS granules in an execution, no site gets a new one. */
static void test_cells_in_all(void **state)
{
	char out[256];
	uint32_t sites = COV_MAX_CELLS / COV_SITE_CELLS;
	uintptr_t past = BUF + 8 * (uintptr_t)COV_MAX_CELLS + 8 * 5;
	begin(COV_HAPSET);
	for (uint32_t s = 0; s <= sites; s++) /* one site more than fit */
		for (uintptr_t i = 0; i < COV_SITE_CELLS; i++)
			ev(1, COV_WRITE, BUF + 8 * (s * COV_SITE_CELLS + i), 8, 100 + s);
	ev(2, COV_READ, BUF, 8, 2); /* the first site's first granule: 100>2 */
	ev(2, COV_READ, past, 8, 3);
	ev(1, COV_WRITE, past, 8, 4); /* no cell for site 3 either: no 3>4 */
	pairs_text(out, sizeof out);
assert_string_equal(out, "100>2");
}

/* The table's cells never move once made (chunks), so a cell found early
 * is the same cell after thousands more; a reset forgets every key, and
 * a key's new cell is empty again, in the chunks already made. */
static void test_shadow_cells_stay(void **state)
{
	(void)state;
	struct cov_shadow sh = { 0 };
	enum { KEYS = 5 * COV_CHUNK_CELLS + 7 };
	struct cov_cell *first = cov_shadow_get(&sh, 8, 11);
	assert_non_null(first);
	first->seq = 42;
	for (uintptr_t k = 2; k <= KEYS; k++) {
		struct cov_cell *c = cov_shadow_get(&sh, 8 * k, (uint32_t)k);
		assert_non_null(c);
		assert_int_equal(c->seq, 0);
		c->seq = (uint32_t)k;
	}
	assert_ptr_equal(cov_shadow_find(&sh, 8), first);
	assert_int_equal(first->seq, 42);
	assert_int_equal(first->first_site, 11);
	for (uintptr_t k = 2; k <= KEYS; k++)
		assert_int_equal(cov_shadow_find(&sh, 8 * k)->seq, k);
	assert_null(cov_shadow_find(&sh, 8 * (KEYS + 1)));
	uint32_t chunks = sh.chunks;
	cov_shadow_reset(&sh);
	assert_null(cov_shadow_find(&sh, 8 * 3));
	struct cov_cell *again = cov_shadow_get(&sh, 8 * 3, 5);
	assert_int_equal(again->seq, 0);
	assert_int_equal(again->first_site, 5);
	assert_int_equal(sh.chunks, chunks);
	cov_shadow_free(&sh);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hapset_fig2),
		cmocka_unit_test(test_hapset_features_are_abstract),
		cmocka_unit_test(test_hapset_busy_wait),
		cmocka_unit_test(test_hapset_sync_conflicts),
		cmocka_unit_test(test_granule_bytes),
		cmocka_unit_test(test_once_per_execution),
		cmocka_unit_test(test_none_emits_nothing),
		cmocka_unit_test(test_map_log4j),
		cmocka_unit_test(test_map_every_pattern),
		cmocka_unit_test(test_map_windows),
		cmocka_unit_test(test_map_bytes),
		cmocka_unit_test(test_map_repeats),
		cmocka_unit_test(test_map_total),
		cmocka_unit_test(test_reads_from_worked),
		cmocka_unit_test(test_reads_from_order_violation),
		cmocka_unit_test(test_reads_from_once_and_abstract),
		cmocka_unit_test(test_reads_from_occurrences),
		cmocka_unit_test(test_reads_from_chains),
		cmocka_unit_test(test_export_bucket_values),
		cmocka_unit_test(test_cells_per_site),
		cmocka_unit_test(test_cells_in_all),
		cmocka_unit_test(test_shadow_cells_stay),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
