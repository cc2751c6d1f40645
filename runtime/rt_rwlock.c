/* rt_rwlock.c - reader-writer locks, modelled with glibc's default
 * preference for readers: a waiting writer does not hold back new readers.
 * Locks created with a writer preference are modelled the same way, which
 * can miss the deadlocks that preference adds (noted in the README). */
#define _GNU_SOURCE
#include <errno.h>

#include "rt_internal.h"
#include "rt_warn.h"

static int rdlock(struct rt_thread *self, pthread_rwlock_t *l, enum rt_how how,
		  const struct timespec *abs, const void *site)
{
	struct rt_obj *o = rt_obj_get(l, O_RWLOCK);
	if (o->rw.writer == self)
		return how == HOW_TRY ? EBUSY : EDEADLK;
	if (how == HOW_TRY) {
		rt_point(self, EV_RW_RDLOCK, o->addr, o, 0, site);
		if (o->rw.writer)
			return EBUSY;
	} else {
		if (how == HOW_TIMED && o->rw.writer && !rt_timespec_valid(abs))
			return EINVAL;
		self->wait = W_RDLOCK;
		self->wobj = o;
		self->timed = how == HOW_TIMED;
		int r = rt_block(self, EV_RW_RDLOCK, site);
		if (r)
			return r;
	}
	o->rw.readers++;
	rt_held_add(self, o, false);
	rt_changed();
	return 0;
}

static int wrlock(struct rt_thread *self, pthread_rwlock_t *l, enum rt_how how,
		  const struct timespec *abs, const void *site)
{
	struct rt_obj *o = rt_obj_get(l, O_RWLOCK);
	if (o->rw.writer == self)
		return how == HOW_TRY ? EBUSY : EDEADLK;
	if (how == HOW_TRY) {
		rt_point(self, EV_RW_WRLOCK, o->addr, o, 0, site);
		if (o->rw.writer || o->rw.readers)
			return EBUSY;
	} else {
		if (how == HOW_TIMED && (o->rw.writer || o->rw.readers) && !rt_timespec_valid(abs))
			return EINVAL;
		self->wait = W_WRLOCK;
		self->wobj = o;
		self->timed = how == HOW_TIMED;
		int r = rt_block(self, EV_RW_WRLOCK, site);
		if (r)
			return r;
	}
	o->rw.writer = self;
	rt_held_add(self, o, true);
	rt_changed();
	return 0;
}

static int unlock(struct rt_thread *self, pthread_rwlock_t *l, const void *site)
{
	struct rt_obj *o = rt_obj_get(l, O_RWLOCK);
	rt_point(self, EV_RW_UNLOCK, o->addr, o, 0, site);
	if (o->rw.writer == self) {
		o->rw.writer = NULL;
	} else if (rt_held_find(self, o)) {
		o->rw.readers--;
	} else {
		/* glibc: whoever is not the writer is a reader, whose unlock
		 * takes one from the count of readers (below zero it wraps:
		 * no writer gets the lock until as many more read locks were
		 * taken), and returns 0. */
		rt_warn(site, "unlock of rwlock L#%u by T%d, which holds no lock on it: undefined; "
			      "glibc returns 0 and counts one reader less, and the execution goes on",
			o->id, self->tid);
		o->rw.readers--;
	}
	rt_held_drop(self, o);
	rt_changed();
	return 0;
}

#define SELF_OR_REAL(call, real_call)                                  \
	do {                                                           \
		struct rt_thread *self = rt_self;                      \
		return self ? (call) : (real_call);                    \
	} while (0)

RT_INTERPOSE int pthread_rwlock_init(pthread_rwlock_t *l, const pthread_rwlockattr_t *attr)
{
	if (rt_self)
		rt_obj_forget(l);
	return REAL(pthread_rwlock_init)(l, attr);
}

RT_INTERPOSE int pthread_rwlock_destroy(pthread_rwlock_t *l)
{
	if (rt_self) {
		struct rt_obj *o = rt_obj_find(l);
		if (o && o->type == O_RWLOCK && (o->rw.writer || o->rw.readers))
			return EBUSY;
		rt_obj_forget(l);
	}
	return REAL(pthread_rwlock_destroy)(l);
}

RT_INTERPOSE int pthread_rwlock_rdlock(pthread_rwlock_t *l)
{
	SELF_OR_REAL(rdlock(self, l, HOW_BLOCK, NULL, RT_CALLER()), REAL(pthread_rwlock_rdlock)(l));
}

RT_INTERPOSE int pthread_rwlock_tryrdlock(pthread_rwlock_t *l)
{
	SELF_OR_REAL(rdlock(self, l, HOW_TRY, NULL, RT_CALLER()), REAL(pthread_rwlock_tryrdlock)(l));
}

RT_INTERPOSE int pthread_rwlock_timedrdlock(pthread_rwlock_t *l, const struct timespec *abs)
{
	SELF_OR_REAL(rdlock(self, l, HOW_TIMED, abs, RT_CALLER()),
		     REAL(pthread_rwlock_timedrdlock)(l, abs));
}

RT_INTERPOSE int pthread_rwlock_clockrdlock(pthread_rwlock_t *l, clockid_t clk,
					 const struct timespec *abs)
{
	SELF_OR_REAL(rdlock(self, l, HOW_TIMED, abs, RT_CALLER()),
		     REAL(pthread_rwlock_clockrdlock)(l, clk, abs));
}

RT_INTERPOSE int pthread_rwlock_wrlock(pthread_rwlock_t *l)
{
	SELF_OR_REAL(wrlock(self, l, HOW_BLOCK, NULL, RT_CALLER()), REAL(pthread_rwlock_wrlock)(l));
}

RT_INTERPOSE int pthread_rwlock_trywrlock(pthread_rwlock_t *l)
{
	SELF_OR_REAL(wrlock(self, l, HOW_TRY, NULL, RT_CALLER()), REAL(pthread_rwlock_trywrlock)(l));
}

RT_INTERPOSE int pthread_rwlock_timedwrlock(pthread_rwlock_t *l, const struct timespec *abs)
{
	SELF_OR_REAL(wrlock(self, l, HOW_TIMED, abs, RT_CALLER()),
		     REAL(pthread_rwlock_timedwrlock)(l, abs));
}

RT_INTERPOSE int pthread_rwlock_clockwrlock(pthread_rwlock_t *l, clockid_t clk,
					 const struct timespec *abs)
{
	SELF_OR_REAL(wrlock(self, l, HOW_TIMED, abs, RT_CALLER()),
		     REAL(pthread_rwlock_clockwrlock)(l, clk, abs));
}

RT_INTERPOSE int pthread_rwlock_unlock(pthread_rwlock_t *l)
{
	SELF_OR_REAL(unlock(self, l, RT_CALLER()), REAL(pthread_rwlock_unlock)(l));
}
