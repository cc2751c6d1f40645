/* rt_search.c - the execution's log for the systematic search
 * (search_log.h): each transition with the objects it touched, each
 * decision with its options and the pending operation of every candidate.
 *
 * Only a child of the search explorer logs (rt.search is its shared
 * log). Transitions begin where the scheduler lets a thread execute the
 * operation it was parked on: every rt_point, a new thread's start, a
 * thread resuming from a wait whose operation was recorded before it
 * blocked. Everything else the thread changes before its next point (its
 * exit, a lock it drops inside a condition wait) is added to the
 * transition it is in. */
#include "cov.h"
#include "rt_internal.h"
#include "rt_observer.h"
#include "rt_lifecycle.h"

static struct sx_trans *current_trans(void)
{
	struct sx_log *l = rt.search;
	return l->ntrans ? &sx_log_trans(l)[l->ntrans - 1] : NULL;
}

static void search_begin(void)
{
	struct sx_log *l = rt.search;
	l->ntrans = l->ndec = l->ncand = l->nhap = 0;
	l->overflow = 0;
}

static void add_item(struct sx_trans *t, uint64_t key, uint8_t op, uint8_t mask)
{
	for (int i = 0; i < t->nitems; i++)
		if (t->item[i].key == key && t->item[i].op == op) {
			t->item[i].mask |= mask;
			return;
		}
	if (t->nitems == SX_MAX_ITEMS) {
		t->global = 1;
		rt.search->overflow = 1;
		return;
	}
	t->item[t->nitems++] = (struct sx_item){ key, op, mask };
}

/* What ev does, as items; n <= 3. */
static int items_of(const struct rt_thread *self, enum rt_ev ev, uintptr_t addr,
		    const struct rt_obj *obj, uint32_t size, struct sx_item *out)
{
	uint64_t sync = sx_sync_key(obj ? obj->addr : addr);
	uint8_t op;
	switch (ev) {
	case EV_READ:
	case EV_ATOMIC_LOAD:
	case EV_WRITE:
	case EV_ATOMIC_STORE:
	case EV_ATOMIC_RMW:
	case EV_ATOMIC_CAS: {
		op = ev == EV_READ || ev == EV_ATOMIC_LOAD ? SX_READ : SX_WRITE;
		int n = 0;
		uintptr_t end = addr + (size ? size : 1);
		for (uintptr_t g = cov_granule(addr); g < end && n < 3; g += 8, n++) {
			uint8_t mask = 0;
			for (uintptr_t b = g; b < g + 8; b++)
				if (b >= addr && b < end)
					mask |= (uint8_t)(1u << (b - g));
			out[n] = (struct sx_item){ g, op, mask };
		}
		return n;
	}
	case EV_MUTEX_LOCK:
	case EV_RW_WRLOCK:
	case EV_COND_WAKE: op = SX_ACQ; break;
	case EV_RW_RDLOCK: op = SX_ACQ_SHARED; break;
	case EV_MUTEX_TRYLOCK: op = SX_TRY; break;
	case EV_MUTEX_UNLOCK:
	case EV_RW_UNLOCK: op = SX_REL; break;
	case EV_COND_WAIT: op = SX_WAKE; break; /* registered as a waiter earlier */
	case EV_SEM_WAIT: op = SX_WAIT; break;
	case EV_COND_SIGNAL:
	case EV_COND_BROADCAST: op = SX_NOTIFY; break;
	case EV_SEM_POST: op = SX_POST; break;
	case EV_BARRIER_WAIT:
	case EV_ONCE: op = SX_SYNC; break;
	case EV_FD_IO: /* descriptors are not told apart: every call conflicts */
		out[0] = (struct sx_item){ sx_sync_key(1), SX_SYNC, 0 };
		return 1;
	case EV_FUTEX_WAIT:
	case EV_FUTEX_WAKE: op = SX_SYNC; break;
	case EV_COUNT: /* resuming from a wait recorded before it blocked */
		if (!self->wobj)
			return 0;
		out[0] = (struct sx_item){ sx_sync_key(self->wobj->addr), SX_WAKE, 0 };
		return 1;
	case EV_THREAD_EXIT:
		out[0] = (struct sx_item){ sx_thread_key((unsigned)self->tid), SX_EXIT, 0 };
		return 1;
	case EV_PROC_EXIT:
		out[0] = (struct sx_item){ 0, SX_END, 0 };
		return 1;
	case EV_THREAD_JOIN:
		if (self->wait == W_JOIN && self->join_target)
			out[0] = (struct sx_item){ sx_thread_key((unsigned)self->join_target->tid), SX_JOIN,
						   0 };
		else if (self->wait == W_OTHERS)
			out[0] = (struct sx_item){ 0, SX_JOIN_ALL, 0 };
		else /* a tryjoin: its outcome depends on the order of exits */
			out[0] = (struct sx_item){ 0, SX_JOIN_TRY, 0 };
		return 1;
	default:
		return 0;
	}
	out[0] = (struct sx_item){ sync, op, 0 };
	return 1;
}

static void stmt_of(const struct rt_thread *self, enum rt_ev ev, const struct rt_obj *obj,
		    const void *site, struct sx_stmt *out)
{
	out->site = rt_stable_site(site);
	out->hapset = ev != EV_COUNT && rt_cov_op(ev, obj) != COV_OP_COUNT;
	out->nctx = rt_cov_context(self, out->ctx);
}

static void search_event(struct rt_thread *self, enum rt_ev ev, uintptr_t addr, struct rt_obj *obj,
			 uint32_t size, const void *site, uint8_t flags)
{
	(void)flags;
	struct sx_log *l = rt.search;
	struct sx_item items[3];
	int n = items_of(self, ev, addr, obj, size, items);
	struct sx_trans *t = current_trans();
	if (ev == EV_THREAD_EXIT && t && t->tid == self->tid) {
		add_item(t, items[0].key, items[0].op, 0);
		return;
	}
	if (l->ntrans == l->cap_trans) {
		l->overflow = 1;
		return;
	}
	t = &sx_log_trans(l)[l->ntrans++];
	t->tid = (uint16_t)self->tid;
	t->nitems = 0;
	t->global = 0;
	t->creator = ev == EV_THREAD_START ? self->born_in : SX_NONE;
	stmt_of(self, ev, obj, site, &t->stmt);
	for (int i = 0; i < n; i++)
		add_item(t, items[i].key, items[i].op, items[i].mask);
	if (RT_UNLIKELY(rt_lifecycle_global(ev))) /* races every step, as an end does */
		add_item(t, 0, SX_END, 0);
}

static void search_resume(struct rt_thread *self)
{
	search_event(self, EV_COUNT, 0, NULL, 0, self->wait_site, 0);
}

static void touch(struct rt_thread *self, const struct rt_obj *obj, enum sx_op op)
{
	struct sx_trans *t = current_trans();
	if (!t || t->tid != self->tid) {
		/* Changed before its first transition: one of its own. */
		search_event(self, EV_YIELD, 0, NULL, 0, self->site, 0);
		t = current_trans();
		if (!t)
			return;
	}
	add_item(t, sx_sync_key(obj->addr), (uint8_t)op, 0);
}

static void search_thread_created(struct rt_thread *t)
{
	t->pend_ev = EV_THREAD_START;
	t->born_in = rt.search->ntrans ? rt.search->ntrans - 1 : SX_NONE;
}

static void candidate(const struct strat_candidate *c, struct sx_cand *out)
{
	const struct rt_thread *t = &rt.threads[c->tid];
	struct sx_item items[3];
	int n = items_of(t, (enum rt_ev)t->pend_ev, t->pend_addr, t->pend_obj, t->pend_size, items);
	out->tid = c->tid;
	out->timeout = c->timeout;
	out->has_item = n > 0;
	if (n > 0)
		out->item = items[0];
	stmt_of(t, (enum rt_ev)t->pend_ev, t->pend_obj, t->pend_site, &out->stmt);
}

static void search_pick(const struct strat_candidate *cand, int n, int chosen, int dflt, int current)
{
	struct sx_log *l = rt.search;
	if (l->ndec == l->cap_dec || l->ncand + (uint32_t)n > l->cap_cand) {
		l->overflow = 1;
		return;
	}
	int cur = -1;
	for (int i = 0; i < n; i++) {
		candidate(&cand[i], &sx_log_cand(l)[l->ncand + (uint32_t)i]);
		if (cand[i].tid == current)
			cur = current;
	}
	sx_log_dec(l)[l->ndec++] = (struct sx_decision){
		.trans = l->ntrans,
		.first_cand = l->ncand,
		.nopt = (uint16_t)n,
		.value = cand[chosen].tid,
		.dflt = cand[dflt].tid,
		.current = (int16_t)cur,
		.pick = 1,
	};
	l->ncand += (uint32_t)n;
}

static void search_choice(uint32_t n, uint32_t value)
{
	struct sx_log *l = rt.search;
	if (l->ndec == l->cap_dec) {
		l->overflow = 1;
		return;
	}
	sx_log_dec(l)[l->ndec++] = (struct sx_decision){
		.trans = l->ntrans ? l->ntrans - 1 : 0,
		.nopt = (uint16_t)n,
		.value = (uint16_t)value,
		.dflt = 0,
		.current = -1,
	};
}

void rt_search_hapset(uint64_t pair)
{
	struct sx_log *l = rt.search;
	if (l->nhap < l->cap_hap)
		sx_log_hap(l)[l->nhap++] = pair;
}

/* ---- as an observer of the execution ------------------------------------------------ */

static bool search_on(void)
{
	return rt.search != NULL;
}

static void search_begin_if_on(void)
{
	if (rt.search)
		search_begin();
}

static void search_decision(const struct rt_decision *d)
{
	if (d->choice)
		search_choice(d->n, d->value);
	else
		search_pick(d->cand, (int)d->n, d->chosen, d->dflt, d->current);
}

static void search_sync(struct rt_thread *self, const struct rt_obj *obj, enum rt_sync what)
{
	static const uint8_t op[] = {
		[RT_SYNC_ACQ] = SX_ACQ,	  [RT_SYNC_ACQ_SHARED] = SX_ACQ_SHARED,
		[RT_SYNC_REL] = SX_REL,	  [RT_SYNC_WAIT] = SX_WAIT,
		[RT_SYNC_ONCE] = SX_SYNC, [RT_SYNC_SPURIOUS] = SX_OP_COUNT,
	};
	if (op[what] != SX_OP_COUNT)
		touch(self, obj, (enum sx_op)op[what]);
}

const struct rt_observer rt_search_observer = {
	.name = "search",
	.on = search_on,
	.begin = search_begin_if_on,
	.event = search_event,
	.decision = search_decision,
	.resume = search_resume,
	.sync = search_sync,
	.thread_created = search_thread_created,
};
