/* dpor.c - dynamic partial-order reduction over one execution's log
 * (docs/design/algorithms.md, Systematic search; Flanagan-Godefroid as
 * paper 000's Algorithms 2-5 restate it).
 *
 * After each execution, for every transition k of thread p and every
 * state s_i before it where p was enabled, FG's updateBacktrack looks for
 * the latest transition j < i of another thread that is dependent with k
 * and does not happen before p. Reversing j and k gives an interleaving
 * that is not equivalent to this one, so s_j's backtrack set gets p, or a
 * thread whose later step happens before p (a persistent set), or, when
 * there is none, everything enabled at s_j. Done once per execution over
 * the whole log, this adds what the recursive algorithm adds on its way.
 *
 * Races are dependent pairs that may be co-enabled: memory accesses to the
 * same bytes, one of them a write; lock acquires of one lock (a read
 * lock only with exclusive ones); a trylock or tryjoin with anything that
 * changes its outcome; becoming a condition's waiter with a notify; two
 * semaphore waits; barrier and once operations with each other.
 * Happens-before is program order, thread creation, races in execution
 * order, and the pairs where one step enables the other, which can never
 * be reordered: release -> acquire, post -> semaphore wait, exit -> join,
 * and anything -> the wakeup it ended. Reordering critical sections is the
 * reversal of their acquires, and the accesses inside follow.
 *
 * Sleep sets (Godefroid) remove what persistent sets alone explore twice:
 * a thread already explored from a state sleeps in the states after it
 * until a step dependent with its next one runs, and is not explored from
 * them. The child runs default decisions past its prefix and cannot know
 * who sleeps, so the sleep sets are worked out here afterwards: where the
 * execution ran a sleeping thread, what follows is equivalent to a schedule
 * already explored, and the analysis stops there, giving that decision a
 * thread that was awake instead.
 *
 * Guided (dpor+hapset): a race j, k counts only if the order it would
 * create, stmt(k) right before stmt(j), is not in the learned HaPSets. */
#include <stdlib.h>
#include <string.h>

#include "search_internal.h"

#define K_ALL 6u /* the key every thread's exit is also filed under, for SX_JOIN_ALL */

static uint8_t race_table[SX_OP_COUNT][SX_OP_COUNT];

static void pair(enum sx_op a, enum sx_op b)
{
	race_table[a][b] = race_table[b][a] = 1;
}

static void init_tables(void)
{
	static bool done;
	if (done)
		return;
	done = true;
	pair(SX_READ, SX_WRITE);
	pair(SX_WRITE, SX_WRITE);
	pair(SX_ACQ, SX_ACQ);
	pair(SX_ACQ, SX_ACQ_SHARED);
	pair(SX_TRY, SX_ACQ);
	pair(SX_TRY, SX_ACQ_SHARED);
	pair(SX_TRY, SX_TRY);
	pair(SX_TRY, SX_REL);
	pair(SX_WAIT, SX_WAIT);
	pair(SX_WAIT, SX_NOTIFY);
	pair(SX_NOTIFY, SX_NOTIFY);
	pair(SX_SYNC, SX_SYNC);
	pair(SX_EXIT, SX_JOIN_TRY);
	for (int op = 0; op < SX_OP_COUNT; op++)
		pair(SX_END, (enum sx_op)op);
}

static bool races(uint8_t a, uint8_t b)
{
	return race_table[a][b];
}

/* Does an earlier a happen before a later b on the same object? */
static bool ordered(uint8_t a, uint8_t b)
{
	return races(a, b) || b == SX_WAKE ||
	       (a == SX_REL && (b == SX_ACQ || b == SX_ACQ_SHARED)) ||
	       (a == SX_POST && b == SX_WAIT) ||
	       (a == SX_EXIT && (b == SX_JOIN || b == SX_JOIN_ALL));
}

/* Operations filed under K_ALL alone. */
static bool on_all(uint8_t op)
{
	return op == SX_JOIN_ALL || op == SX_JOIN_TRY || op == SX_END;
}

static bool ends(const struct sx_item *a, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (a[i].op == SX_END)
			return true;
	return false;
}

/* Can steps with these items not be swapped, or does one enable the
 * other? (Sleep sets need the full relation, enabling included.) */
static bool steps_dependent(const struct sx_item *a, uint32_t na, const struct sx_item *b,
			    uint32_t nb)
{
	if (ends(a, na) || ends(b, nb))
		return true; /* nothing happens after the process ends */
	for (uint32_t i = 0; i < na; i++)
		for (uint32_t j = 0; j < nb; j++) {
			const struct sx_item *x = &a[i], *y = &b[j];
			bool same = x->key == y->key || (on_all(x->op) && y->op == SX_EXIT) ||
				    (on_all(y->op) && x->op == SX_EXIT);
			bool mem = x->op <= SX_WRITE && y->op <= SX_WRITE;
			if (same && (!mem || (x->mask & y->mask)) &&
			    (ordered(x->op, y->op) || ordered(y->op, x->op)))
				return true;
		}
	return false;
}


/* ---- per-execution scratch ------------------------------------------------------ */

struct access {
	uint32_t trans;
	uint16_t tid;
	uint8_t op;
	uint8_t mask; /* memory: the granule's bytes */
};

/* Memory accesses meet only on common bytes; other objects always. */
static bool meet(uint8_t op, uint8_t mask_a, uint8_t mask_b)
{
	return (op != SX_READ && op != SX_WRITE) || (mask_a & mask_b);
}

/* An earlier a that everything earlier on the object, touching the bytes
 * of mask, happens before. */
static bool covers(const struct access *a, uint8_t mask)
{
	if (a->op == SX_WRITE)
		return (a->mask & mask) == mask;
	return a->op == SX_ACQ || a->op == SX_SYNC;
}

struct key_list {
	uint64_t key;
	struct access *a;
	uint32_t n, cap;
};

struct run {
	struct sx_search *s;
	const struct sx_log *log;
	const struct sx_trans *tr;
	uint32_t m;      /* transitions */
	uint32_t nthr;   /* thread ids below this */
	int32_t *vc;     /* m rows of nthr: per thread, its latest transition that happens before */
	int32_t *none;   /* a row of -1 */
	uint32_t *next;  /* the same thread's next transition, SX_NONE */
	uint32_t *upcoming; /* per thread: its first transition not yet passed (next_step) */
	uint32_t cut;    /* where a sleeping thread ran: the analysis ends there */
	uint32_t *dec_of; /* the pick decision before each transition, SX_NONE */
	uint32_t **enabled; /* per thread: states where it was enabled, ascending */
	uint32_t *nenabled;
	struct key_list *keys; /* open addressing on key */
	uint32_t kcap, kcount;
	uint32_t *found; /* racing transitions of the transition being looked at */
	uint32_t nfound, cap_found;
	bool ok;
};

static void *grow_array(void *p, uint32_t *cap, uint32_t need, size_t elem, bool *ok)
{
	if (need <= *cap)
		return p;
	uint32_t n = *cap ? *cap * 2 : 16;
	while (n < need)
		n *= 2;
	void *q = realloc(p, (size_t)n * elem);
	if (!q) {
		*ok = false;
		return p;
	}
	*cap = n;
	return q;
}

static uint64_t key_hash(uint64_t k)
{
	k ^= k >> 29;
	k *= 0xbf58476d1ce4e5b9ull;
	return k ^ (k >> 32);
}

static struct key_list *key_find(struct run *r, uint64_t key, bool create)
{
	if (create && (r->kcount + 1) * 2 > r->kcap) {
		uint32_t ncap = r->kcap ? r->kcap * 2 : 256;
		struct key_list *nk = calloc(ncap, sizeof *nk);
		if (!nk) {
			r->ok = false;
			return NULL;
		}
		for (uint32_t i = 0; i < r->kcap; i++) {
			if (!r->keys[i].key)
				continue;
			uint32_t j = (uint32_t)key_hash(r->keys[i].key) & (ncap - 1);
			while (nk[j].key)
				j = (j + 1) & (ncap - 1);
			nk[j] = r->keys[i];
		}
		free(r->keys);
		r->keys = nk;
		r->kcap = ncap;
	}
	if (!r->kcap)
		return NULL;
	for (uint32_t i = (uint32_t)key_hash(key) & (r->kcap - 1);; i = (i + 1) & (r->kcap - 1)) {
		if (r->keys[i].key == key)
			return &r->keys[i];
		if (!r->keys[i].key) {
			if (!create)
				return NULL;
			r->keys[i].key = key;
			r->kcount++;
			return &r->keys[i];
		}
	}
}

static void key_append(struct run *r, uint64_t key, uint32_t trans, uint16_t tid, uint8_t op,
		       uint8_t mask)
{
	struct key_list *l = key_find(r, key, true);
	if (!l)
		return;
	l->a = grow_array(l->a, &l->cap, l->n + 1, sizeof *l->a, &r->ok);
	if (l->n < l->cap)
		l->a[l->n++] = (struct access){ trans, tid, op, mask };
}

static int32_t *row(struct run *r, uint32_t k)
{
	return r->vc + (size_t)k * r->nthr;
}

/* A thread's clock before its transition: its previous transition's, or
 * its creator's for a first one. */
static const int32_t *clock_before(struct run *r, int32_t prev, uint32_t creator)
{
	if (prev >= 0)
		return row(r, (uint32_t)prev);
	if (creator != SX_NONE && creator < r->m)
		return row(r, creator);
	return r->none;
}

/* The first state after `after` where tid was enabled, or UINT32_MAX. */
static uint32_t first_enabled_after(const struct run *r, uint32_t tid, int64_t after)
{
	const uint32_t *e = r->enabled[tid];
	uint32_t a = 0, b = r->nenabled[tid];
	while (a < b) {
		uint32_t mid = (a + b) / 2;
		if ((int64_t)e[mid] <= after)
			a = mid + 1;
		else
			b = mid;
	}
	return a < r->nenabled[tid] ? e[a] : UINT32_MAX;
}

/* Is there a state in (lo, hi] where tid was enabled? */
static bool enabled_within(const struct run *r, uint32_t tid, uint32_t lo, uint32_t hi)
{
	return first_enabled_after(r, tid, lo) <= hi;
}

/* ---- FG's backtrack sets --------------------------------------------------------- */

/* Race j -> (p's next transition): give the decision before j what it
 * needs, C being p's clock. */
static void backtrack_at(struct run *r, uint32_t j, uint32_t p, const int32_t *C)
{
	uint32_t d = r->dec_of[j];
	if (d == SX_NONE || d >= r->s->depth)
		return; /* a state with one enabled thread has nothing else to run */
	struct sx_node *n = &r->s->node[d];
	struct sx_set e = { { 0, 0 } };
	struct sx_set opts = n->options;
	while (!sx_set_empty(&opts)) {
		unsigned q = sx_set_first(opts);
		opts.w[q >> 6] &= ~(1ull << (q & 63));
		if (q == p || (q < r->nthr && C[q] > (int32_t)j))
			sx_set_add(&e, q);
	}
	if (sx_set_empty(&e)) {
		n->todo = sx_set_or(n->todo, n->options);
		return;
	}
	struct sx_set have = sx_set_and(e, sx_set_or(n->todo, n->done));
	if (!sx_set_empty(&have))
		return;
	sx_set_add(&n->todo, sx_set_has(&e, p) ? p : sx_set_first(e));
}

static bool learned(const struct run *r, const struct sx_stmt *k, const struct sx_stmt *j)
{
	return r->s->spec.mode == SX_DPOR_HAPSET && k->hapset && j->hapset &&
	       sx_hashset_has(&r->s->pairs, sx_pair_hash(k, j));
}

static void found_add(struct run *r, uint32_t trans)
{
	r->found = grow_array(r->found, &r->cap_found, r->nfound + 1, sizeof *r->found, &r->ok);
	if (r->nfound < r->cap_found)
		r->found[r->nfound++] = trans;
}

/* Collect into r->found the transitions before `k` that race with items
 * (of thread p, clock C) and may be the latest such at a state from i0 on. */
static void scan_key(struct run *r, uint64_t key, uint8_t op, uint8_t mask, uint32_t p,
		     const int32_t *C, uint32_t i0, const struct sx_stmt *stmt)
{
	struct key_list *l = key_find(r, key, false);
	if (!l)
		return;
	for (uint32_t x = l->n; x-- > 0;) {
		const struct access *a = &l->a[x];
		if (a->tid == p || !races(a->op, op) || !meet(op, a->mask, mask))
			continue;
		bool before = a->tid < r->nthr && C[a->tid] >= (int32_t)a->trans;
		if (before) {
			if (covers(a, mask))
				return;
			continue;
		}
		if (learned(r, stmt, &r->tr[a->trans].stmt))
			continue;
		found_add(r, a->trans);
		if (a->trans < i0)
			return; /* anything earlier is never the latest */
	}
}

/* Collect the latest transition before hi of every thread but p that
 * does not happen before p's step (clock C): what ending the process
 * races with. */
static void scan_threads(struct run *r, uint32_t p, const int32_t *C, uint32_t hi)
{
	uint64_t seen[4] = { 0 };
	for (uint32_t x = hi; x-- > 0;) {
		uint32_t q = r->tr[x].tid;
		if (q == p || q >= 256 || (seen[q >> 6] >> (q & 63) & 1))
			continue;
		seen[q >> 6] |= 1ull << (q & 63);
		if (!(q < r->nthr && C[q] >= (int32_t)x))
			found_add(r, x);
	}
}

static int by_descending(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? 1 : x > y ? -1 : 0;
}

/* updateBacktrack for p's next transition (items, stmt), which it was
 * waiting to take over the states (prev, hi]. */
static void races_of(struct run *r, uint32_t p, int32_t prev, uint32_t hi, const int32_t *C,
		     const struct sx_item *items, uint32_t nitems, const struct sx_stmt *stmt)
{
	uint32_t i0 = first_enabled_after(r, p, prev);
	if (i0 == UINT32_MAX || i0 > hi)
		return;
	r->nfound = 0;
	/* Any step, one without items too (a thread's start), races with
	 * an earlier end of the process: it would not happen after it. */
	scan_key(r, K_ALL, SX_SYNC, 0, p, C, i0, stmt);
	for (uint32_t i = 0; i < nitems; i++) {
		const struct sx_item *it = &items[i];
		if (it->op == SX_END) {
			scan_threads(r, p, C, hi);
			continue;
		}
		if (on_all(it->op)) {
			scan_key(r, K_ALL, it->op, 0, p, C, i0, stmt);
			continue;
		}
		scan_key(r, it->key, it->op, it->mask, p, C, i0, stmt);
		if (it->op == SX_EXIT)
			scan_key(r, K_ALL, it->op, 0, p, C, i0, stmt);
	}
	qsort(r->found, r->nfound, sizeof *r->found, by_descending);
	uint32_t upper = hi;
	for (uint32_t x = 0; x < r->nfound; x++) {
		uint32_t j = r->found[x];
		if (x > 0 && j == r->found[x - 1])
			continue;
		/* j is the latest racing transition at the states (j, upper].
		 * After the end of the process there is no state: p races
		 * with the end if it was enabled just before it. */
		bool before_end = ends(r->tr[j].item, r->tr[j].nitems) &&
				  first_enabled_after(r, p, (int64_t)j - 1) == j;
		if (enabled_within(r, p, j, upper) || before_end)
			backtrack_at(r, j, p, C);
		upper = j;
	}
}

/* ---- the pass ------------------------------------------------------------------ */

static void join_into(struct run *r, int32_t *v, uint32_t j)
{
	const int32_t *w = row(r, j);
	for (uint32_t t = 0; t < r->nthr; t++)
		if (w[t] > v[t])
			v[t] = w[t];
}

/* Transition k's clock: its thread's, joined with every earlier transition
 * on its objects that is ordered before it. */
static void order_key(struct run *r, uint64_t key, uint8_t op, uint8_t mask, int32_t *v)
{
	struct key_list *l = key_find(r, key, false);
	if (!l)
		return;
	for (uint32_t x = l->n; x-- > 0;) {
		const struct access *a = &l->a[x];
		if (!ordered(a->op, op) || !meet(op, a->mask, mask))
			continue;
		if (v[a->tid] < (int32_t)a->trans)
			join_into(r, v, a->trans);
		if (covers(a, mask))
			return;
	}
}

static bool setup(struct run *r)
{
	const struct sx_log *log = r->log;
	const struct sx_cand *cand = sx_log_cand(log);
	const struct sx_decision *dec = sx_log_dec(log);
	r->nthr = 1;
	for (uint32_t k = 0; k < r->m; k++)
		if (r->tr[k].tid + 1u > r->nthr)
			r->nthr = r->tr[k].tid + 1u;
	for (uint32_t c = 0; c < log->ncand; c++)
		if (cand[c].tid + 1u > r->nthr)
			r->nthr = cand[c].tid + 1u;
	size_t rows = (size_t)(r->m + 1) * r->nthr;
	r->vc = malloc(rows * sizeof *r->vc);
	r->none = malloc(r->nthr * sizeof *r->none);
	r->next = malloc((r->m + 1) * sizeof *r->next);
	r->upcoming = malloc(r->nthr * sizeof *r->upcoming);
	r->dec_of = malloc((r->m + 1) * sizeof *r->dec_of);
	r->enabled = calloc(r->nthr, sizeof *r->enabled);
	r->nenabled = calloc(r->nthr, sizeof *r->nenabled);
	uint32_t *cap_en = calloc(r->nthr, sizeof *cap_en);
	if (!r->vc || !r->none || !r->next || !r->upcoming || !r->dec_of || !r->enabled ||
	    !r->nenabled || !cap_en) {
		free(cap_en);
		return false;
	}
	for (uint32_t t = 0; t < r->nthr; t++) {
		r->none[t] = -1;
		r->upcoming[t] = SX_NONE;
	}
	for (uint32_t k = 0; k <= r->m; k++)
		r->dec_of[k] = SX_NONE;
	for (uint32_t d = 0; d < log->ndec; d++)
		if (dec[d].pick && dec[d].trans < r->m && r->dec_of[dec[d].trans] == SX_NONE)
			r->dec_of[dec[d].trans] = d;
	/* Each thread's transitions as a chain: its first in upcoming[], the
	 * rest through next[], walked backwards so each link is known. */
	for (uint32_t k = r->m; k-- > 0;) {
		uint32_t t = r->tr[k].tid;
		r->next[k] = r->upcoming[t];
		r->upcoming[t] = k;
	}
	/* Who was enabled where: a decision's candidates, else the thread that ran. */
	for (uint32_t k = 0; k < r->m; k++) {
		uint32_t d = r->dec_of[k];
		uint32_t n = d == SX_NONE ? 1 : dec[d].nopt;
		for (uint32_t i = 0; i < n; i++) {
			uint32_t t = d == SX_NONE ? r->tr[k].tid : cand[dec[d].first_cand + i].tid;
			r->enabled[t] = grow_array(r->enabled[t], &cap_en[t], r->nenabled[t] + 1,
						   sizeof **r->enabled, &r->ok);
			if (r->nenabled[t] < cap_en[t])
				r->enabled[t][r->nenabled[t]++] = k;
		}
	}
	free(cap_en);
	return r->ok;
}

static void teardown(struct run *r)
{
	free(r->vc);
	free(r->none);
	free(r->next);
	free(r->upcoming);
	free(r->dec_of);
	for (uint32_t t = 0; r->enabled && t < r->nthr; t++)
		free(r->enabled[t]);
	free(r->enabled);
	free(r->nenabled);
	for (uint32_t i = 0; i < r->kcap; i++)
		free(r->keys[i].a);
	free(r->keys);
	free(r->found);
}

/* Thread t's next step from state i on: the one the log shows it taking,
 * else the operation it was pending on in decision d; false if unknown.
 * Asked with i never decreasing, so each thread's chain is walked once. */
static bool next_step(struct run *r, uint32_t t, uint32_t i, uint32_t d,
		      const struct sx_item **items, uint32_t *n, const struct sx_stmt **stmt)
{
	uint32_t k = r->upcoming[t];
	while (k != SX_NONE && k < i)
		k = r->next[k];
	r->upcoming[t] = k;
	if (k != SX_NONE) {
		*items = r->tr[k].item;
		*n = r->tr[k].nitems;
		*stmt = &r->tr[k].stmt;
		return true;
	}
	if (d == SX_NONE)
		return false;
	const struct sx_decision *dec = &sx_log_dec(r->log)[d];
	const struct sx_cand *c = sx_log_cand(r->log) + dec->first_cand;
	for (uint32_t x = 0; x < dec->nopt; x++)
		if (c[x].tid == t) {
			*items = &c[x].item;
			*n = c[x].has_item;
			*stmt = &c[x].stmt;
			return true;
		}
	return false;
}

/* Sleep sets along the execution: each decision's, and where the
 * execution first ran a sleeping thread (r->cut, else m). */
static void sleep_pass(struct run *r)
{
	struct sx_set z = { { 0, 0 } };
	r->cut = r->m;
	for (uint32_t i = 0; i < r->m; i++) {
		uint32_t d = r->dec_of[i];
		uint32_t p = r->tr[i].tid;
		if (d != SX_NONE && d < r->s->depth) {
			struct sx_node *n = &r->s->node[d];
			n->sleep = z;
			struct sx_set others = n->done;
			others.w[n->sel >> 6] &= ~(1ull << (n->sel & 63));
			z = sx_set_or(z, others);
		}
		if (sx_set_has(&z, p)) {
			r->cut = i;
			if (d == SX_NONE || d >= r->s->depth)
				return;
			struct sx_node *n = &r->s->node[d];
			struct sx_set awake = sx_set_minus(n->options, sx_set_or(z, n->done));
			if (!sx_set_empty(&awake))
				sx_set_add(&n->todo, sx_set_first(awake));
			return;
		}
		/* A step dependent with a sleeper's next one wakes it. */
		struct sx_set still = z;
		while (!sx_set_empty(&still)) {
			unsigned t = sx_set_first(still);
			still.w[t >> 6] &= ~(1ull << (t & 63));
			const struct sx_item *items;
			const struct sx_stmt *stmt;
			uint32_t n;
			if (!next_step(r, t, i + 1, d, &items, &n, &stmt) ||
			    steps_dependent(items, n, r->tr[i].item, r->tr[i].nitems))
				z.w[t >> 6] &= ~(1ull << (t & 63));
		}
	}
}

/* updateBacktrack at the last state analysed: every thread enabled there,
 * with the step it would take next. */
static void end_races(struct run *r, const int32_t *last)
{
	const struct sx_log *log = r->log;
	const struct sx_decision *dec = sx_log_dec(log);
	const struct sx_cand *cand = sx_log_cand(log);
	uint32_t d = SX_NONE, hi = r->cut;
	if (r->cut < r->m) {
		d = r->dec_of[r->cut];
	} else {
		/* The execution ended: enabled at its end are at most the
		 * candidates of its last decision that never ran again. */
		for (uint32_t x = log->ndec; x-- > 0;)
			if (dec[x].pick && dec[x].trans < r->m) {
				d = x;
				break;
			}
		hi = r->m ? r->m - 1 : 0;
	}
	if (d == SX_NONE)
		return;
	for (uint32_t x = 0; x < dec[d].nopt; x++) {
		uint32_t t = cand[dec[d].first_cand + x].tid;
		if (t >= r->nthr || (r->cut == r->m && last[t] >= (int32_t)dec[d].trans))
			continue;
		const struct sx_item *items;
		const struct sx_stmt *stmt;
		uint32_t n;
		if (!next_step(r, t, r->cut, d, &items, &n, &stmt))
			continue;
		const int32_t *C = clock_before(r, last[t], SX_NONE);
		races_of(r, t, last[t], hi, C, items, n, stmt);
	}
}

void sx_dpor_analyse(struct sx_search *s, const struct sx_log *log)
{
	init_tables();
	struct run r = { .s = s, .log = log, .tr = sx_log_trans(log), .m = log->ntrans, .ok = true };
	if (!setup(&r)) {
		teardown(&r);
		return;
	}
	int32_t *last = malloc(r.nthr * sizeof *last);
	if (!last) {
		teardown(&r);
		return;
	}
	for (uint32_t t = 0; t < r.nthr; t++)
		last[t] = -1;
	sleep_pass(&r);
	for (uint32_t k = 0; k < r.cut && r.ok; k++) {
		const struct sx_trans *t = &r.tr[k];
		uint32_t p = t->tid;
		int32_t *v = row(&r, k);
		memcpy(v, clock_before(&r, last[p], t->creator), r.nthr * sizeof *v);

		races_of(&r, p, last[p], k, v, t->item, t->nitems, &t->stmt);
		for (uint32_t i = 0; i < t->nitems; i++) {
			const struct sx_item *it = &t->item[i];
			order_key(&r, on_all(it->op) ? K_ALL : it->key, it->op, it->mask, v);
			if (it->op == SX_EXIT)
				order_key(&r, K_ALL, it->op, 0, v);
		}
		v[p] = (int32_t)k;
		for (uint32_t i = 0; i < t->nitems; i++) {
			const struct sx_item *it = &t->item[i];
			key_append(&r, on_all(it->op) ? K_ALL : it->key, k, (uint16_t)p, it->op, it->mask);
			if (it->op == SX_EXIT)
				key_append(&r, K_ALL, k, (uint16_t)p, it->op, 0);
		}
		last[p] = (int32_t)k;
	}
	if (r.ok && r.m)
		end_races(&r, last);
	s->redundant += r.cut < r.m;
	free(last);
	teardown(&r);
}
