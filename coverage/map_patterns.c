/* map_patterns.c - MAP's 17 memory access patterns
 * (docs/design/algorithms.md, MAP; paper 002 Table I), matched as an
 * execution runs.
 *
 * A pattern is a sequence of steps (thread a or b, variable x or y, read or
 * write). Steps match in execution order, not necessarily adjacent, with
 * the last step being the access just executed. What is matched, and what
 * is not (the bound):
 *   - patterns 1-8 (one variable): among the last COV_HIST accesses to the
 *     same granule whose bytes overlap the new access;
 *   - patterns 9-17 (two variables): among the last COV_WINDOW accesses of
 *     the whole execution, whatever their variable.
 * Instances whose earlier steps fell out of these windows are not seen.
 * Two accesses are to the same variable when they overlap in one granule.
 *
 * A covered instance is the pattern id and its sites in step order;
 * threads and addresses are abstracted away. */
#include <stdbool.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "cov_hash.h"
#include "cov_internal.h"

static const char *const pattern_text[COV_MAP_PATTERNS + 1] = {
	[1] = "a:R x, b:W x",
	[2] = "a:W x, b:R x",
	[3] = "a:W x, b:W x",
	[4] = "a:R x, b:W x, a:R x",
	[5] = "a:W x, b:W x, a:R x",
	[6] = "a:W x, b:R x, a:W x",
	[7] = "a:R x, b:W x, a:W x",
	[8] = "a:W x, b:W x, a:W x",
	[9] = "a:W x, b:W x, b:W y, a:W y",
	[10] = "a:W x, b:W y, b:W x, a:W y",
	[11] = "a:W x, b:W y, a:W y, b:W x",
	[12] = "a:W x, b:R x, b:R y, a:W y",
	[13] = "a:W x, b:R y, b:R x, a:W y",
	[14] = "a:R x, b:W x, b:W y, a:R y",
	[15] = "a:R x, b:W y, b:W x, a:R y",
	[16] = "a:R x, b:W y, a:R y, b:W x",
	[17] = "a:W x, b:R y, a:W y, b:R x",
};

const char *cov_map_pattern_text(int p)
{
	return p >= 1 && p <= COV_MAP_PATTERNS ? pattern_text[p] : "?";
}

/* A sequence of n steps as a number: per step, bit 0 = thread b, bit 1 =
 * variable y, bit 2 = write; threads and variables named by first use. */
#define SIG(n, bits) ((unsigned)((n) - 2) << 12 | (bits))
static uint8_t sig_pattern[3 << 12];
/* Patterns 1-8 read off sig_pattern by their steps' kinds (1 a write),
 * every step on one variable: pair_pattern[a][b] for "a, b",
 * triple_pattern[a][b][a2] for "a, b, a". 0: no pattern (two reads...). */
static uint8_t pair_pattern[2][2], triple_pattern[2][2][2];

void cov_map_init(void)
{
	static bool built;
	if (built)
		return;
	for (int p = 1; p <= COV_MAP_PATTERNS; p++) {
		unsigned bits = 0, n = 0;
		for (const char *t = pattern_text[p]; *t; t++) {
			if (t[1] != ':')
				continue;
			unsigned step = (t[0] == 'b') | (t[4] == 'y') << 1 | (t[2] == 'W') << 2;
			bits |= step << (3 * n++);
		}
		sig_pattern[SIG(n, bits)] = (uint8_t)p;
	}
	/* Steps: a (thread bit 0) then b (bit 1), each its write bit (4). */
	for (unsigned a = 0; a < 2; a++)
		for (unsigned b = 0; b < 2; b++) {
			unsigned ab = a << 2 | (1u | b << 2) << 3;
			pair_pattern[a][b] = sig_pattern[SIG(2, ab)];
			for (unsigned c = 0; c < 2; c++)
				triple_pattern[a][b][c] = sig_pattern[SIG(3, ab | (c << 2) << 6)];
		}
	built = true;
}

_Static_assert((COV_WINDOW & (COV_WINDOW - 1)) == 0 && (COV_HIST & (COV_HIST - 1)) == 0,
	       "the rings index by mask");

static bool same_var(const struct cov_wstep *a, const struct cov_wstep *b)
{
	return a->granule == b->granule && (a->mask & b->mask);
}

/* The pattern that steps st[0..n-1] (in execution order) form, 0 if none. */
static int classify(const struct cov_wstep *const *st, int n)
{
	const struct cov_wstep *x = st[0], *y = NULL;
	uint16_t ta = st[0]->tid, tb = 0;
	bool has_b = false;
	unsigned bits = 0;
	for (int i = 0; i < n; i++) {
		unsigned thr, var;
		if (st[i]->tid == ta) {
			thr = 0;
		} else if (!has_b || st[i]->tid == tb) {
			has_b = true;
			tb = st[i]->tid;
			thr = 1;
		} else {
			return 0; /* a third thread */
		}
		if (same_var(st[i], x)) {
			var = 0;
		} else if (!y || same_var(st[i], y)) {
			y = y ? y : st[i];
			var = 1;
		} else {
			return 0; /* a third variable */
		}
		bits |= (thr | var << 1 | (unsigned)st[i]->write << 2) << (3 * i);
	}
	return has_b ? sig_pattern[SIG(n, bits)] : 0;
}

/* The feature's identity: the pattern and its sites in step order. */
static uint64_t instance_hash(int p, const uint32_t *site, int n)
{
	struct {
		uint32_t tag, pattern, site[COV_MAX_STEPS];
	} id = { 0x4d415000u /* "MAP" */, (uint32_t)p, { 0 } };
	for (int i = 0; i < n; i++)
		id.site[i] = site[i];
	return cov_hash64(&id, sizeof id, 0);
}

static void emit_instance(struct cov_state *s, int p, const struct cov_wstep *const *st, int n)
{
	uint32_t site[COV_MAX_STEPS];
	for (int i = 0; i < n; i++)
		site[i] = st[i]->site;
	uint64_t hash = instance_hash(p, site, n);
	if (!cov_first(s, hash))
		return; /* emitted already: most are, so nothing is built first */
	struct cov_feature f = { .hash = hash, .kind = COV_MAP, .pattern = (uint8_t)p,
				 .nsteps = (uint8_t)n };
	f.var[0] = st[0]->granule;
	f.nvars = 1;
	for (int i = 0; i < n; i++) {
		f.site[i] = site[i];
		f.write[i] = st[i]->write;
		if (!same_var(st[i], st[0]) && f.nvars == 1) {
			f.var[1] = st[i]->granule;
			f.nvars = 2;
		}
	}
	s->emit(s->arg, &f);
}

static void match(struct cov_state *s, const struct cov_wstep *const *st, int n)
{
	int p = classify(st, n);
	if (p)
		emit_instance(s, p, st, n);
}

/* An instance of pattern p (1-8) on one granule. */
static void emit_one_variable(struct cov_state *s, int p, uintptr_t granule, int n,
			      const uint32_t *site, const uint8_t *write)
{
	uint64_t hash = instance_hash(p, site, n);
	if (!cov_first(s, hash))
		return;
	struct cov_feature f = { .hash = hash, .kind = COV_MAP, .pattern = (uint8_t)p,
				 .nsteps = (uint8_t)n, .nvars = 1 };
	f.var[0] = granule;
	for (int i = 0; i < n; i++) {
		f.site[i] = site[i];
		f.write[i] = write[i];
	}
	s->emit(s->arg, &f);
}

/* Patterns 1-8 ending with e, from the granule's history (oldest first),
 * limited to steps on e's bytes: "b, e" for every step b of another
 * thread, and "a, b, e" for every earlier step a of e's thread on b's
 * bytes too (else a and b are two variables: no pattern of 1-8). Every
 * step is then on one variable with two threads, so the kinds alone name
 * the pattern, with no classify().
 *
 * An instance is its sites and kinds, not its threads: a step that
 * repeats an earlier one of its side (e's thread, or any other; same
 * site, kind and bytes) forms only instances that the earlier one formed
 * already, except as b with an a between the two. It is skipped before
 * any hash is computed. */
static void match_one_variable(struct cov_state *s, const struct cov_cell *c,
			       const struct cov_wstep *e)
{
	const struct cov_step *h[COV_HIST];
	int8_t dup[COV_HIST]; /* the latest earlier step of its side it repeats, else -1 */
	uint64_t key[COV_HIST]; /* site, kind, bytes, and the side in place of the thread */
	int nh = 0;
	for (unsigned k = 0; k < c->nhist; k++) {
		const struct cov_step *st = &c->hist[(c->hnext - c->nhist + k) & (COV_HIST - 1)];
		if (!(st->mask & e->mask))
			continue;
		key[nh] = (uint64_t)st->site << 32 | (uint32_t)st->write << 16 | (uint32_t)st->mask << 8 |
			  (st->tid == e->tid);
		dup[nh] = -1;
		for (int r = nh - 1; r >= 0; r--)
			if (key[r] == key[nh]) {
				dup[nh] = (int8_t)r;
				break;
			}
		h[nh++] = st;
	}
	for (int j = 0; j < nh; j++) {
		const struct cov_step *b = h[j];
		if (b->tid == e->tid)
			continue;
		int p = pair_pattern[b->write][e->write];
		if (p && dup[j] < 0)
			emit_one_variable(s, p, e->granule, 2, (const uint32_t[]){ b->site, e->site },
					  (const uint8_t[]){ b->write, e->write });
		for (int i = dup[j] + 1; i < j; i++) { /* before dup[j]: formed with it */
			const struct cov_step *a = h[i];
			if (a->tid != e->tid || dup[i] >= 0 || !(a->mask & b->mask))
				continue;
			p = triple_pattern[a->write][b->write][e->write];
			if (p)
				emit_one_variable(s, p, e->granule, 3,
						  (const uint32_t[]){ a->site, b->site, e->site },
						  (const uint8_t[]){ a->write, b->write, e->write });
		}
	}
}

/* The fields of a window position's who. */
static uint16_t who_tid(uint32_t who)
{
	return (uint16_t)who;
}

static uint8_t who_write(uint32_t who)
{
	return (uint8_t)(who >> 16);
}

static uint8_t who_mask(uint32_t who)
{
	return (uint8_t)(who >> 24);
}

/* Window position i (of the run starting at o) as a step. */
static struct cov_wstep step_at(const struct cov_window *w, int i)
{
	uint32_t who = w->who[i];
	return (struct cov_wstep){ (uintptr_t)w->granule_hi[i] << 32 | w->granule_lo[i], w->site[i],
				   who_tid(who), who_write(who), who_mask(who) };
}

/* Bits 0 to n - 1. */
static uint32_t first_bits(int n)
{
	return (uint32_t)((1ull << n) - 1);
}

/* The window's passes run over all COV_WINDOW positions from o, which
 * stay inside the arrays (o + COV_WINDOW <= 2 * COV_WINDOW: before the
 * ring wraps, next is count), without branches, so that the compiler
 * makes vector compares of them; bits past the count are dropped. */
_Static_assert(COV_WINDOW == 16, "bits() gathers 16 flags");

/* Bit i: flag[i] (each 0 or 1). With SSE2 (every x86-64), the sign bits
 * of the negated bytes; else a multiplication moves each byte's low bit
 * to its place in the top byte, and no two terms meet, so nothing
 * carries. */
static uint32_t bits(const uint8_t flag[16])
{
#ifdef __SSE2__
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)flag);
	return (uint32_t)_mm_movemask_epi8(_mm_sub_epi8(_mm_setzero_si128(), v));
#else
	uint64_t lo, hi;
	memcpy(&lo, flag, 8);
	memcpy(&hi, flag + 8, 8);
	const uint64_t gather = 0x0102040810204080ull;
	return (uint32_t)((lo * gather) >> 56 | ((hi * gather) >> 56) << 8);
#endif
}

/* Bit i: position o + i is on the variable of (granule, mask), that is
 * the same granule with a byte in common. */
static uint32_t on_variable(const struct cov_window *w, int o, uintptr_t granule, uint8_t mask)
{
	uint32_t lo = (uint32_t)granule, hi = (uint32_t)((uint64_t)granule >> 32);
	uint8_t flag[COV_WINDOW];
	for (int i = 0; i < COV_WINDOW; i++)
		flag[i] = (uint8_t)((w->granule_lo[o + i] == lo) & (w->granule_hi[o + i] == hi) &
				    ((who_mask(w->who[o + i]) & mask) != 0));
	return bits(flag);
}

/* Bit i: position o + i is thread tid's. */
static uint32_t of_thread(const struct cov_window *w, int o, uint16_t tid)
{
	uint8_t flag[COV_WINDOW];
	for (int i = 0; i < COV_WINDOW; i++)
		flag[i] = who_tid(w->who[o + i]) == tid;
	return bits(flag);
}

/* Patterns 9-17 ending with e, from the window (oldest first). Every one
 * has two steps of each thread, each thread touching x and y once: so e's
 * thread has one earlier step on the other variable, and another thread
 * has two, one on each variable. Most accesses have no step of another
 * thread on their variable in the window, or no earlier step of their own
 * thread on another one: one pass over the window finds that out before
 * the search over triples (half of a libFuzzer execution's CPU otherwise,
 * docs/cost.md).
 *
 * A step that repeats an earlier one (same site, variable, thread and
 * kind; a loop's next iteration) with no step of the other side in
 * between stands in the same order to every step of the other side, so it
 * forms the instances the earlier one formed, which are emitted already:
 * it is skipped, as own (no other thread's step between), as the other
 * thread's first step or as its second (no step of e's thread between). */
static void match_two_variables(struct cov_state *s, const struct cov_wstep *e)
{
	const struct cov_window *w = &s->window;
	int nw = (int)w->count, o = (int)(w->next + COV_WINDOW - w->count);
	uint32_t in = first_bits(nw);
	uint32_t mine_set = of_thread(w, o, e->tid) & in; /* bit i: e's thread's */
	uint32_t var_e = on_variable(w, o, e->granule, e->mask) & in;
	uint32_t on_e = var_e & ~mine_set, own_other = mine_set & ~var_e;
	if (!on_e || !own_other)
		return;
	/* repeat[i]: the position of the latest earlier same step if no step
	 * of the other side lies between the two, else -1 (an earlier same
	 * step has that step between too). */
	uint64_t first = w->total - (uint64_t)nw; /* the number of position o */
	int8_t repeat[COV_WINDOW];
	for (int i = 0; i < nw; i++) {
		uint64_t same = w->same[o + i];
		repeat[i] = -1;
		if (same <= first)
			continue; /* none, or fallen out of the window */
		int r = (int)(same - 1 - first);
		uint32_t between = ((1u << i) - 1) & ~((2u << r) - 1);
		uint32_t other = mine_set >> i & 1 ? ~mine_set : mine_set;
		if (!(between & other))
			repeat[i] = (int8_t)r;
	}
	struct {
		uintptr_t granule;
		uint8_t mask;
		uint32_t on; /* other threads' steps on it */
	} vars[COV_WINDOW];
	int nvars = 0;
	for (uint32_t ks = own_other; ks; ks &= ks - 1) {
		int k = __builtin_ctz(ks);
		/* In every pattern of 9-17 each thread's two steps are of one
		 * kind, and not both threads read: other combinations are no
		 * instance, and are dropped before classify(). */
		if (repeat[k] >= 0 || who_write(w->who[o + k]) != e->write)
			continue;
		/* Other threads' steps on own's variable; e's thread mostly
		 * repeats a few variables, so each is looked at once. */
		uintptr_t kg = (uintptr_t)w->granule_hi[o + k] << 32 | w->granule_lo[o + k];
		uint8_t km = who_mask(w->who[o + k]);
		int c = 0;
		while (c < nvars && (vars[c].granule != kg || vars[c].mask != km))
			c++;
		if (c == nvars) {
			vars[nvars].granule = kg;
			vars[nvars].mask = km;
			vars[nvars].on = on_variable(w, o, kg, km) & in & ~mine_set;
			nvars++;
		}
		uint32_t on_own = vars[c].on;
		const struct cov_wstep own = step_at(w, o + k);
		for (uint32_t ps = on_own | on_e; ps; ps &= ps - 1) {
			int i = __builtin_ctz(ps);
			if (repeat[i] >= 0 || (!who_write(w->who[o + i]) && !e->write))
				continue;
			bool p_on_own = on_own >> i & 1;
			uint32_t later = ~0u << i << 1;
			for (uint32_t qs = (p_on_own ? on_e : on_own) & later; qs; qs &= qs - 1) {
				int j = __builtin_ctz(qs);
				/* q: p's thread and kind (who's bits 0-23) */
				if (((w->who[o + j] ^ w->who[o + i]) & 0xffffffu) || repeat[j] > i)
					continue;
				const struct cov_wstep p = step_at(w, o + i), q = step_at(w, o + j);
				/* Steps in execution order: own goes before, between
				 * or after the other thread's two. */
				const struct cov_wstep *st[4];
				if (k < i) {
					st[0] = &own, st[1] = &p, st[2] = &q;
				} else if (k < j) {
					st[0] = &p, st[1] = &own, st[2] = &q;
				} else {
					st[0] = &p, st[1] = &q, st[2] = &own;
				}
				st[3] = e;
				match(s, st, 4);
			}
		}
	}
}

/* Append e to the window, with the latest same step before it. */
static void window_add(struct cov_window *w, const struct cov_wstep *e)
{
	int nw = (int)w->count, o = (int)(w->next + COV_WINDOW - w->count);
	uint32_t lo = (uint32_t)e->granule, hi = (uint32_t)((uint64_t)e->granule >> 32);
	uint32_t who = (uint32_t)e->tid | (uint32_t)e->write << 16 | (uint32_t)e->mask << 24;
	uint8_t flag[COV_WINDOW];
	for (int r = 0; r < COV_WINDOW; r++)
		flag[r] = (uint8_t)((w->granule_lo[o + r] == lo) & (w->granule_hi[o + r] == hi) &
				    (w->site[o + r] == e->site) & (w->who[o + r] == who));
	uint32_t hits = bits(flag);
	hits &= first_bits(nw);
	uint64_t same = hits ? w->total - (uint64_t)nw + (uint64_t)(31 - __builtin_clz(hits)) + 1 : 0;
	for (uint32_t at = w->next; at < 2 * COV_WINDOW; at += COV_WINDOW) {
		w->granule_lo[at] = lo;
		w->granule_hi[at] = hi;
		w->who[at] = who;
		w->site[at] = e->site;
		w->same[at] = same;
	}
	w->next = (w->next + 1) & (COV_WINDOW - 1);
	if (w->count < COV_WINDOW)
		w->count++;
	w->total++;
}

void cov_map_access(struct cov_state *s, struct cov_cell *c, const struct cov_event *ev,
		    uintptr_t granule, uint8_t mask)
{
	const struct cov_wstep e = { granule, ev->site, ev->tid, ev->op == COV_WRITE, mask };

	match_one_variable(s, c, &e);
	match_two_variables(s, &e);

	c->hist[c->hnext] = (struct cov_step){ e.site, e.tid, e.write, e.mask };
	c->hnext = (uint8_t)((c->hnext + 1) & (COV_HIST - 1));
	if (c->nhist < COV_HIST)
		c->nhist++;
	window_add(&s->window, &e);
}
