/* rt_sem.c - POSIX semaphores and barriers, modelled.
 *
 * Both report errors the way POSIX says: semaphores through errno and -1,
 * barriers through the return value. A semaphore or barrier initialised
 * before the execution starts it with the value (or count) it has then. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>

#include "rt_internal.h"
#include "rt_own.h"
#include "rt_race.h"
#include "rt_lifecycle.h"

static struct rt_obj *sem_obj(sem_t *s)
{
	struct rt_obj *o = rt_obj_get(s, O_SEM);
	if (!o->ready) {
		int v = 0;
		REAL(sem_getvalue)(s, &v);
		o->sem.value = v > 0 ? (unsigned)v : 0;
		o->ready = true;
	}
	return o;
}

static int fail_errno(int e)
{
	errno = e;
	return -1;
}

static int sem_take(struct rt_thread *self, sem_t *s, enum rt_how how, const struct timespec *abs,
		    const void *site)
{
	struct rt_obj *o = sem_obj(s);
	if (how == HOW_TRY) {
		rt_point_try(self, EV_SEM_WAIT, o, site);
		if (o->sem.value == 0)
			return fail_errno(EAGAIN);
		rt_progress(self);
	} else {
		if (how == HOW_TIMED && o->sem.value == 0 && !rt_timespec_valid(abs))
			return fail_errno(EINVAL);
		rt_cancel_point(self);
		self->wait = W_SEM;
		self->wobj = o;
		self->timed = how == HOW_TIMED;
		int r = rt_block(self, EV_SEM_WAIT, site);
		rt_cancel_point(self); /* before it takes a token */
		if (r)
			return fail_errno(ETIMEDOUT);
	}
	o->sem.value--;
	rt_race_acquire(self, o->addr); /* every post before this take */
	rt_changed();
	return 0;
}

RT_INTERPOSE int sem_init(sem_t *s, int pshared, unsigned value)
{
	int r = REAL(sem_init)(s, pshared, value);
	if (r == 0 && rt_self) {
		rt_obj_forget(s);
		struct rt_obj *o = rt_obj_get(s, O_SEM);
		o->sem.value = value;
		o->ready = true;
	}
	return r;
}

RT_INTERPOSE int sem_destroy(sem_t *s)
{
	if (rt_self)
		rt_obj_forget(s);
	return REAL(sem_destroy)(s);
}

RT_INTERPOSE int sem_wait(sem_t *s)
{
	struct rt_thread *self = rt_self;
	return self ? sem_take(self, s, HOW_BLOCK, NULL, RT_CALLER()) : REAL(sem_wait)(s);
}

RT_INTERPOSE int sem_trywait(sem_t *s)
{
	struct rt_thread *self = rt_self;
	return self ? sem_take(self, s, HOW_TRY, NULL, RT_CALLER()) : REAL(sem_trywait)(s);
}

RT_INTERPOSE int sem_timedwait(sem_t *s, const struct timespec *abs)
{
	struct rt_thread *self = rt_self;
	return self ? sem_take(self, s, HOW_TIMED, abs, RT_CALLER()) : REAL(sem_timedwait)(s, abs);
}

RT_INTERPOSE int sem_clockwait(sem_t *s, clockid_t clk, const struct timespec *abs)
{
	struct rt_thread *self = rt_self;
	return self ? sem_take(self, s, HOW_TIMED, abs, RT_CALLER())
		    : REAL(sem_clockwait)(s, clk, abs);
}

RT_INTERPOSE int sem_post(sem_t *s)
{
	struct rt_thread *self = rt_self;
	if (!self)
		return REAL(sem_post)(s);
	struct rt_obj *o = sem_obj(s);
	rt_point(self, EV_SEM_POST, o->addr, o, 0, RT_CALLER());
	rt_race_release(self, o->addr);
	if (o->sem.value >= SEM_VALUE_MAX)
		return fail_errno(EOVERFLOW);
	o->sem.value++;
	rt_changed();
	return 0;
}

RT_INTERPOSE int sem_getvalue(sem_t *s, int *value)
{
	if (!rt_self)
		return REAL(sem_getvalue)(s, value);
	*value = (int)sem_obj(s)->sem.value;
	return 0;
}

/* ---- barriers ------------------------------------------------------------------- */

static struct rt_obj *barrier_obj(pthread_barrier_t *b)
{
	struct rt_obj *o = rt_obj_get(b, O_BARRIER);
	if (!o->ready) {
		/* glibc's struct pthread_barrier: in, current_round, count, ...
		 * Only a barrier initialised before the execution needs this. */
		o->barrier.count = ((const unsigned *)(const void *)b)[2];
		o->ready = true;
	}
	return o;
}

RT_INTERPOSE int pthread_barrier_init(pthread_barrier_t *b, const pthread_barrierattr_t *attr,
				   unsigned count)
{
	int r = REAL(pthread_barrier_init)(b, attr, count);
	if (r == 0 && rt_self) {
		rt_obj_forget(b);
		struct rt_obj *o = rt_obj_get(b, O_BARRIER);
		o->barrier.count = count;
		o->ready = true;
	}
	return r;
}

RT_INTERPOSE int pthread_barrier_destroy(pthread_barrier_t *b)
{
	if (rt_self) {
		struct rt_obj *o = rt_obj_find(b);
		if (o && o->type == O_BARRIER && o->barrier.arrived)
			return EBUSY;
		rt_obj_forget(b);
	}
	return REAL(pthread_barrier_destroy)(b);
}

RT_INTERPOSE int pthread_barrier_wait(pthread_barrier_t *b)
{
	struct rt_thread *self = rt_self;
	if (!self)
		return REAL(pthread_barrier_wait)(b);
	struct rt_obj *o = barrier_obj(b);
	rt_point(self, EV_BARRIER_WAIT, o->addr, o, 0, RT_CALLER());
	/* Every arrival of a round precedes every departure. */
	rt_race_release(self, o->addr);
	if (++o->barrier.arrived >= o->barrier.count) {
		rt_race_acquire(self, o->addr);
		/* The last to arrive opens the round and is the serial thread. */
		o->barrier.arrived = 0;
		o->barrier.round++;
		rt_own_settle(); /* a phase ends: its accesses precede the next */
		rt_changed();
		return PTHREAD_BARRIER_SERIAL_THREAD;
	}
	self->wait = W_BARRIER;
	self->wobj = o;
	self->wait_round = o->barrier.round;
	rt_block(self, EV_COUNT, RT_CALLER());
	rt_race_acquire(self, o->addr);
	return 0;
}
