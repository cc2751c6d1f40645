/* rt_cond.c - condition variables, modelled.
 *
 * A wait releases the mutex and leaves the thread out of the candidates
 * until a signal moves it to "reacquire the mutex". Three things that the
 * real implementation leaves open are schedule decisions: which waiter a
 * signal wakes, whether a wait returns spuriously (rare, see the
 * strategies), and whether a timed wait times out (a timed waiter is
 * always a candidate; picking it before a signal is the timeout). */
#define _GNU_SOURCE
#include <errno.h>

#include "rt_internal.h"
#include "rt_observer.h"
#include "rt_lifecycle.h"
#include "rt_warn.h"

static struct rt_obj *mutex_of(pthread_mutex_t *m)
{
	struct rt_obj *o = rt_obj_find(m);
	return o && o->type == O_MUTEX ? o : NULL;
}

/* Own the (free) mutex again, restoring a recursive depth. */
static void retake(struct rt_thread *self, struct rt_obj *mo, int depth)
{
	mo->mutex.owner = self;
	mo->mutex.count = depth;
	for (int i = 0; i < depth; i++)
		rt_held_add(self, mo, false);
	rt_changed();
}

/* Wait for the mutex after a timeout or a spurious wakeup, then own it. */
static void reacquire(struct rt_thread *self, struct rt_obj *mo, int depth, const void *site)
{
	if (mo->mutex.owner) {
		self->wait = W_MUTEX;
		self->wobj = mo;
		rt_block(self, EV_COND_WAKE, site);
	}
	retake(self, mo, depth);
}

int rt_cond_wait(struct rt_thread *self, pthread_cond_t *c, pthread_mutex_t *m,
		 const struct timespec *abs, bool timed, const void *site)
{
	struct rt_obj *mo = mutex_of(m);
	if (!mo || mo->mutex.owner != self)
		return EPERM;
	if (timed && !rt_timespec_valid(abs))
		return EINVAL;
	rt_cancel_point(self); /* with the mutex held, as glibc does */
	struct rt_obj *co = rt_obj_get(c, O_COND);

	int depth = mo->mutex.count;
	while (rt_held_drop(self, mo) > 0)
		;
	mo->mutex.owner = NULL;
	mo->mutex.count = 0;
	rt_changed();

	int r = 0;
	/* Off (SF_FLAG_NO_SPURIOUS): the strategy is not even asked, so the
	 * setting is part of the input and its replay. */
	if (!(rt.plan.flags & SF_FLAG_NO_SPURIOUS) && rt_choose(STRAT_CHOOSE_SPURIOUS, 2)) {
		rt_point(self, EV_COND_WAIT, co->addr, co, 0, site);
		struct rt_event *e = &rt.trace[rt.step & (RT_TRACE_SIZE - 1)];
		if (e->tid == self->tid && e->kind == EV_COND_WAIT) /* recorded: reports name it */
			e->flags |= RT_EVF_SPURIOUS;
		rt_observe_sync(self, co, RT_SYNC_SPURIOUS);
		rt.spurious++;
	} else {
		rt_observe_sync(self, co, RT_SYNC_WAIT); /* a signal from now on wakes it */
		self->wait = W_COND;
		self->wobj = co;
		self->cond_mutex = mo;
		self->timed = timed;
		self->signalled = false;
		r = rt_block(self, EV_COND_WAIT, site);
		if (self->signalled) {
			/* rt_block returned once the mutex was free: take it. */
			self->signalled = false;
			retake(self, mo, depth);
			return 0;
		}
	}
	/* Not signalled: a cancel may have ended the wait. It acts with the
	 * mutex taken again, as POSIX says, and has consumed no signal. */
	reacquire(self, mo, depth, site);
	rt_cancel_point(self);
	return r;
}

static void wake(struct rt_thread *w)
{
	w->wait = W_MUTEX;
	w->wobj = w->cond_mutex;
	w->timed = false;
	w->signalled = true;
	rt_changed();
}

int rt_cond_wake(struct rt_thread *self, pthread_cond_t *c, bool all, const void *site)
{
	struct rt_obj *co = rt_obj_get(c, O_COND);
	rt_point(self, all ? EV_COND_BROADCAST : EV_COND_SIGNAL, co->addr, co, 0, site);
	if (!rt_obj_still(co, (uintptr_t)c)) /* destroyed meanwhile: reported */
		co = rt_obj_get(c, O_COND);
	struct rt_thread *waiters[RT_MAX_THREADS];
	uint32_t n = 0;
	for (int i = 0; i < rt.nthreads; i++) {
		struct rt_thread *t = &rt.threads[i];
		if (t->state == T_LIVE && t->wait == W_COND && t->wobj == co)
			waiters[n++] = t;
	}
	if (n == 0)
		return 0;
	if (all) {
		for (uint32_t i = 0; i < n; i++)
			wake(waiters[i]);
	} else {
		wake(waiters[n == 1 ? 0 : rt_choose(STRAT_CHOOSE_WAKER, n)]);
	}
	return 0;
}

static bool has_waiters(const struct rt_obj *co)
{
	for (int i = 0; i < rt.nthreads; i++)
		if (rt.threads[i].state == T_LIVE && rt.threads[i].wait == W_COND &&
		    rt.threads[i].wobj == co)
			return true;
	return false;
}

/* glibc's destroy waits until every waiter has woken (a signal, a
 * timeout) and left the condition variable; nothing wakes them for it.
 * So does the model, as a thread that retries: if nothing ever signals
 * them, the execution hangs, as the program does. */
int rt_cond_destroy(struct rt_thread *self, pthread_cond_t *c)
{
	struct rt_obj *co = rt_obj_find(c);
	if (co && co->type == O_COND && has_waiters(co)) {
		const char *entry;
		const void *site = rt_program_caller(&entry);
		rt_warn(site, "pthread_cond_destroy of condition variable C#%u while threads wait "
			      "on it: undefined; glibc waits until they have been woken, and so "
			      "does the execution", co->id);
		do
			rt_point_try(self, EV_YIELD, co, site);
		while (rt_obj_still(co, (uintptr_t)c) && has_waiters(co));
	}
	rt_obj_forget(c);
	return REAL(pthread_cond_destroy)(c);
}

RT_INTERPOSE int pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *attr)
{
	if (rt_self)
		rt_obj_forget(c);
	return REAL(pthread_cond_init)(c, attr);
}

RT_INTERPOSE int pthread_cond_destroy(pthread_cond_t *c)
{
	struct rt_thread *self = rt_self;
	return self ? rt_cond_destroy(self, c) : REAL(pthread_cond_destroy)(c);
}

RT_INTERPOSE int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
	struct rt_thread *self = rt_self;
	return self ? rt_cond_wait(self, c, m, NULL, false, RT_CALLER())
		    : REAL(pthread_cond_wait)(c, m);
}

RT_INTERPOSE int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m,
				     const struct timespec *abs)
{
	struct rt_thread *self = rt_self;
	return self ? rt_cond_wait(self, c, m, abs, true, RT_CALLER())
		    : REAL(pthread_cond_timedwait)(c, m, abs);
}

RT_INTERPOSE int pthread_cond_clockwait(pthread_cond_t *c, pthread_mutex_t *m, clockid_t clk,
				     const struct timespec *abs)
{
	struct rt_thread *self = rt_self;
	return self ? rt_cond_wait(self, c, m, abs, true, RT_CALLER())
		    : REAL(pthread_cond_clockwait)(c, m, clk, abs);
}

RT_INTERPOSE int pthread_cond_signal(pthread_cond_t *c)
{
	struct rt_thread *self = rt_self;
	return self ? rt_cond_wake(self, c, false, RT_CALLER()) : REAL(pthread_cond_signal)(c);
}

RT_INTERPOSE int pthread_cond_broadcast(pthread_cond_t *c)
{
	struct rt_thread *self = rt_self;
	return self ? rt_cond_wake(self, c, true, RT_CALLER()) : REAL(pthread_cond_broadcast)(c);
}
