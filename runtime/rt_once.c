/* rt_once.c - one-time initialisation: pthread_once, C11 call_once and
 * C++ function-local statics (__cxa_guard_*), modelled.
 *
 * The initialiser runs under control like any other code; other threads
 * that arrive meanwhile wait for it as for a lock. Completion is written
 * into the real object so that it stays done after the execution, as the
 * process-wide semantics require: glibc marks a finished pthread_once_t
 * with bit 1 (__PTHREAD_ONCE_DONE), and the Itanium C++ ABI a finished
 * guard with a nonzero first byte. */
#define _GNU_SOURCE
#include <errno.h>

#include "rt_internal.h"
#include "rt_observer.h"
#include "rt_race.h"

#define ONCE_DONE 2

/* Wait until nobody runs o's initialiser; true if self must run it. */
static bool claim(struct rt_thread *self, struct rt_obj *o, bool (*done)(void *), void *p,
		  const void *site)
{
	rt_point(self, EV_ONCE, o->addr, o, 0, site);
	for (;;) {
		if (done(p)) {
			rt_race_acquire(self, o->addr); /* the initialiser's work precedes */
			return false;
		}
		if (!o->once.runner) {
			rt_observe_sync(self, o, RT_SYNC_ONCE);
			o->once.runner = self;
			rt_changed();
			return true;
		}
		self->wait = W_ONCE;
		self->wobj = o;
		rt_block(self, EV_COUNT, site);
	}
}

static void unclaim(struct rt_obj *o)
{
	rt_observe_sync(rt_self, o, RT_SYNC_ONCE);
	rt_race_release(rt_self, o->addr);
	o->once.runner = NULL;
	rt_changed();
}

static bool once_done(void *p)
{
	return __atomic_load_n((int *)p, __ATOMIC_ACQUIRE) & ONCE_DONE;
}

int rt_once(struct rt_thread *self, pthread_once_t *once, void (*init)(void), const void *site)
{
	if (once_done(once)) { /* done before: its initialiser's work precedes */
		rt_race_acquire(self, (uintptr_t)once);
		return 0;
	}
	struct rt_obj *o = rt_obj_get(once, O_ONCE);
	if (claim(self, o, once_done, once, site)) {
		init();
		__atomic_store_n((int *)once, ONCE_DONE, __ATOMIC_RELEASE);
		unclaim(o);
	}
	return 0;
}

RT_INTERPOSE int pthread_once(pthread_once_t *once, void (*init)(void))
{
	struct rt_thread *self = rt_self;
	return self ? rt_once(self, once, init, RT_CALLER()) : REAL(pthread_once)(once, init);
}

/* ---- C++ function-local statics ------------------------------------------------ */

static bool guard_done(void *p)
{
	return __atomic_load_n((const char *)p, __ATOMIC_ACQUIRE) != 0;
}

RT_INTERPOSE int __cxa_guard_acquire(uint64_t *g)
{
	struct rt_thread *self = rt_self;
	if (!self) {
		if (!rt_real.cxa_guard_acquire)
			rt_real_init();
		return rt_real.cxa_guard_acquire(g);
	}
	if (guard_done(g)) {
		rt_race_acquire(self, (uintptr_t)g);
		return 0;
	}
	return claim(self, rt_obj_get(g, O_GUARD), guard_done, g, RT_CALLER());
}

RT_INTERPOSE void __cxa_guard_release(uint64_t *g)
{
	if (!rt_self) {
		rt_real.cxa_guard_release(g);
		return;
	}
	__atomic_store_n((char *)g, 1, __ATOMIC_RELEASE);
	struct rt_obj *o = rt_obj_find(g);
	if (o)
		unclaim(o);
}

RT_INTERPOSE void __cxa_guard_abort(uint64_t *g)
{
	if (!rt_self) {
		rt_real.cxa_guard_abort(g);
		return;
	}
	struct rt_obj *o = rt_obj_find(g);
	if (o)
		unclaim(o);
}
