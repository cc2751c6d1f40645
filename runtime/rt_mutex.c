/* rt_mutex.c - mutexes and spinlocks, modelled.
 *
 * During an execution the real lock word is never touched: ownership lives
 * in the shadow object, and a thread waiting for a held lock is simply not
 * a candidate until the owner releases it. The mutex type (normal,
 * recursive, errorcheck) is read from the real object on first touch, so
 * mutexes initialised before the execution keep their type. */
#define _GNU_SOURCE
#include <errno.h>

#include "rt_internal.h"
#include "rt_warn.h"

/* The robust bit of glibc's __kind (PTHREAD_MUTEX_ROBUST_NORMAL_NP in its
 * own headers). */
#define GLIBC_KIND_ROBUST 16

bool rt_timespec_valid(const struct timespec *ts)
{
	return ts && ts->tv_nsec >= 0 && ts->tv_nsec < 1000000000L;
}

static struct rt_obj *mutex_obj(pthread_mutex_t *m)
{
	struct rt_obj *o = rt_obj_get(m, O_MUTEX);
	if (!o->ready) {
		/* glibc keeps the type in __kind; the low two bits are the
		 * PTHREAD_MUTEX_* type, adaptive (3) behaves as normal. */
		int kind = m->__data.__kind & 3;
		o->mutex.kind = kind == PTHREAD_MUTEX_ADAPTIVE_NP ? PTHREAD_MUTEX_NORMAL : kind;
		o->ready = true;
	}
	return o;
}

static struct rt_obj *spin_obj(pthread_spinlock_t *s);

/* The object at addr after a scheduling point: other threads ran meanwhile
 * and may have destroyed, re-initialised or freed it; looking it up again
 * reports a misuse (rt_objects.c). */
static struct rt_obj *again(struct rt_obj *o, uintptr_t addr, enum rt_otype type)
{
	if (rt_obj_still(o, addr))
		return o;
	return type == O_MUTEX ? mutex_obj((pthread_mutex_t *)addr)
			       : spin_obj((pthread_spinlock_t *)addr);
}

static int acquire(struct rt_thread *self, struct rt_obj *o, enum rt_how how,
		   const struct timespec *abs, const void *site)
{
	uintptr_t addr = o->addr;
	enum rt_otype type = o->type;
	if (o->mutex.owner == self) {
		switch (o->mutex.kind) {
		case PTHREAD_MUTEX_RECURSIVE:
			rt_point(self, EV_MUTEX_LOCK, o->addr, o, 0, site);
			o->mutex.count++; /* glibc counts a user once per hold */
			rt_held_add(self, o, false);
			return 0;
		case PTHREAD_MUTEX_ERRORCHECK:
			return how == HOW_TRY ? EBUSY : EDEADLK;
		default:
			if (how == HOW_TRY)
				return EBUSY;
			break; /* a normal mutex relocked: the thread deadlocks */
		}
	}
	if (how == HOW_TRY) {
		rt_point(self, EV_MUTEX_TRYLOCK, o->addr, o, 0, site);
		o = again(o, addr, type);
		if (o->mutex.owner)
			return EBUSY;
	} else {
		if (how == HOW_TIMED && o->mutex.owner && !rt_timespec_valid(abs))
			return EINVAL;
		self->wait = W_MUTEX;
		self->wobj = o;
		self->timed = how == HOW_TIMED;
		int r = rt_block(self, EV_MUTEX_LOCK, site);
		if (r)
			return r;
		o = again(o, addr, type);
	}
	o->mutex.owner = self;
	o->mutex.count = 1;
	o->mutex.users++;
	rt_held_add(self, o, false);
	rt_changed();
	return 0;
}

static const char *lock_name(const struct rt_obj *o)
{
	return o->type == O_SPIN ? "spinlock S#" : "mutex M#";
}

/* o is no longer its owner's, though the owner did not release it. */
static void disown(struct rt_obj *o)
{
	struct rt_thread *owner = o->mutex.owner;
	struct rt_held *h = rt_held_find(owner, o);
	if (h)
		*h = owner->held[--owner->nheld];
	if (owner->state == T_FINISHED)
		rt_release_slot(owner); /* a lock it held kept its slot */
}

/* An unlock of a normal mutex (or spinlock) the caller does not hold:
 * glibc does not look at the owner, clears the lock word and wakes a
 * waiter, and returns 0. The owner, if any, goes on as if it still held
 * the lock; its own unlock later is one more of these. */
static void release_foreign(struct rt_thread *self, struct rt_obj *o, const void *site)
{
	struct rt_thread *owner = o->mutex.owner;
	if (!owner) {
		rt_warn(site, "unlock of an unlocked %s%u: undefined; glibc returns 0 and the "
			      "execution goes on", lock_name(o), o->id);
		return;
	}
	rt_warn(site, "unlock of %s%u by T%d, which does not hold it (T%d does): undefined; "
		      "glibc returns 0 and unlocks it, and the execution goes on",
		lock_name(o), o->id, self->tid, owner->tid);
	disown(o);
}

static int release(struct rt_thread *self, struct rt_obj *o, const void *site)
{
	uintptr_t addr = o->addr;
	rt_point(self, EV_MUTEX_UNLOCK, o->addr, o, 0, site);
	o = again(o, addr, (enum rt_otype)o->type);
	if (o->mutex.owner != self) {
		/* Recursive, error-checking: glibc checks the owner. */
		if (o->mutex.kind != PTHREAD_MUTEX_NORMAL)
			return EPERM;
		release_foreign(self, o, site);
	} else {
		rt_held_drop(self, o);
		if (--o->mutex.count > 0)
			return 0;
	}
	o->mutex.owner = NULL;
	o->mutex.count = 0;
	o->mutex.users--;
	rt_changed();
	return 0;
}

int rt_mutex_lock(struct rt_thread *self, pthread_mutex_t *m, enum rt_how how,
		  const struct timespec *abs, const void *site)
{
	return acquire(self, mutex_obj(m), how, abs, site);
}

int rt_mutex_unlock(struct rt_thread *self, pthread_mutex_t *m, const void *site)
{
	return release(self, mutex_obj(m), site);
}

/* glibc refuses (EBUSY) while its count of users is not 0, but for a
 * robust mutex: a mutex held, or one unlocked once more than it was
 * locked (the count went below 0, and its next lock brings it back). */
int rt_mutex_destroy(struct rt_thread *self, pthread_mutex_t *m)
{
	(void)self;
	struct rt_obj *o = rt_obj_find(m);
	if (o && o->type == O_MUTEX && o->mutex.users != 0 &&
	    !(m->__data.__kind & GLIBC_KIND_ROBUST)) {
		const char *entry;
		const void *site = rt_program_caller(&entry);
		if (o->mutex.owner)
			rt_warn(site, "pthread_mutex_destroy of mutex M#%u, which T%d holds: undefined; "
				      "glibc returns EBUSY and leaves it locked", o->id,
				o->mutex.owner->tid);
		else
			rt_warn(site, "pthread_mutex_destroy of mutex M#%u, unlocked once more than "
				      "locked: glibc counts its users below 0 and returns EBUSY", o->id);
		return EBUSY;
	}
	if (o && o->type == O_MUTEX && o->mutex.owner) {
		const char *entry;
		rt_warn(rt_program_caller(&entry), "pthread_mutex_destroy of mutex M#%u, which T%d "
			"holds: undefined; glibc counts no user of it (a robust mutex, or one "
			"unlocked more often than locked), returns 0 and destroys it", o->id, o->mutex.owner->tid);
		disown(o);
	}
	rt_obj_forget(m);
	return REAL(pthread_mutex_destroy)(m);
}

RT_INTERPOSE int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *attr)
{
	if (rt_self)
		rt_obj_forget(m);
	return REAL(pthread_mutex_init)(m, attr);
}

RT_INTERPOSE int pthread_mutex_destroy(pthread_mutex_t *m)
{
	struct rt_thread *self = rt_self;
	return self ? rt_mutex_destroy(self, m) : REAL(pthread_mutex_destroy)(m);
}

RT_INTERPOSE int pthread_mutex_lock(pthread_mutex_t *m)
{
	struct rt_thread *self = rt_self;
	return self ? rt_mutex_lock(self, m, HOW_BLOCK, NULL, RT_CALLER())
		    : REAL(pthread_mutex_lock)(m);
}

RT_INTERPOSE int pthread_mutex_trylock(pthread_mutex_t *m)
{
	struct rt_thread *self = rt_self;
	return self ? rt_mutex_lock(self, m, HOW_TRY, NULL, RT_CALLER())
		    : REAL(pthread_mutex_trylock)(m);
}

RT_INTERPOSE int pthread_mutex_timedlock(pthread_mutex_t *m, const struct timespec *abs)
{
	struct rt_thread *self = rt_self;
	return self ? rt_mutex_lock(self, m, HOW_TIMED, abs, RT_CALLER())
		    : REAL(pthread_mutex_timedlock)(m, abs);
}

RT_INTERPOSE int pthread_mutex_clocklock(pthread_mutex_t *m, clockid_t clk, const struct timespec *abs)
{
	struct rt_thread *self = rt_self;
	if (!self)
		return REAL(pthread_mutex_clocklock)(m, clk, abs);
	return rt_mutex_lock(self, m, HOW_TIMED, abs, RT_CALLER());
}

RT_INTERPOSE int pthread_mutex_unlock(pthread_mutex_t *m)
{
	struct rt_thread *self = rt_self;
	return self ? rt_mutex_unlock(self, m, RT_CALLER()) : REAL(pthread_mutex_unlock)(m);
}

/* ---- spinlocks: mutexes that nobody sleeps on, modelled the same way ---- */

static struct rt_obj *spin_obj(pthread_spinlock_t *s)
{
	struct rt_obj *o = rt_obj_get((void *)s, O_SPIN);
	if (!o->ready) {
		o->mutex.kind = PTHREAD_MUTEX_NORMAL;
		o->ready = true;
	}
	return o;
}

RT_INTERPOSE int pthread_spin_init(pthread_spinlock_t *s, int pshared)
{
	if (rt_self)
		rt_obj_forget((void *)s);
	return REAL(pthread_spin_init)(s, pshared);
}

RT_INTERPOSE int pthread_spin_destroy(pthread_spinlock_t *s)
{
	if (rt_self) {
		struct rt_obj *o = rt_obj_find((void *)s);
		if (o && o->type == O_SPIN && o->mutex.owner) {
			/* glibc's destroy does nothing: the lock stays taken. */
			const char *entry;
			rt_warn(rt_program_caller(&entry), "pthread_spin_destroy of spinlock S#%u, "
				"which T%d holds: undefined; glibc returns 0 and leaves it locked",
				o->id, o->mutex.owner->tid);
			return 0;
		}
		rt_obj_forget((void *)s);
	}
	return REAL(pthread_spin_destroy)(s);
}

RT_INTERPOSE int pthread_spin_lock(pthread_spinlock_t *s)
{
	struct rt_thread *self = rt_self;
	return self ? acquire(self, spin_obj(s), HOW_BLOCK, NULL, RT_CALLER())
		    : REAL(pthread_spin_lock)(s);
}

RT_INTERPOSE int pthread_spin_trylock(pthread_spinlock_t *s)
{
	struct rt_thread *self = rt_self;
	return self ? acquire(self, spin_obj(s), HOW_TRY, NULL, RT_CALLER())
		    : REAL(pthread_spin_trylock)(s);
}

RT_INTERPOSE int pthread_spin_unlock(pthread_spinlock_t *s)
{
	struct rt_thread *self = rt_self;
	return self ? release(self, spin_obj(s), RT_CALLER()) : REAL(pthread_spin_unlock)(s);
}
