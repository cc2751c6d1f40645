/* rt_cancel.c - deferred thread cancellation, modelled.
 *
 * pthread_cancel marks the target; the target acts on it at its next
 * cancellation point that the runtime models (rt_lifecycle.h lists what
 * makes one): the moment is fixed by the schedule, so it replays. A
 * target blocked in a cancellable wait becomes a candidate, and when the
 * schedule picks it, its wait ends in the cancel.
 *
 * Acting on it is pthread_exit(PTHREAD_CANCELED) on the target's own
 * thread: glibc 2.36 then runs what a real cancel runs, the same way. In
 * C, pthread_cleanup_push registers a buffer (__pthread_register_cancel)
 * that the forced unwind (__pthread_unwind through libgcc's
 * _Unwind_ForcedUnwind) longjmps into as it passes the frame; in C++ and
 * with -fexceptions the handlers are destructors and cleanup attributes
 * that the same forced unwind runs, and catch (...) sees
 * abi::__forced_unwind. Joiners get PTHREAD_CANCELED from the result. The
 * real cancel machinery is never armed: the real thread's cancel state
 * mirrors the modelled one only so that glibc's own calls behave alike.
 *
 * Asynchronous cancellation is not modelled (a thread could be stopped
 * between any two instructions): a cancel that would act asynchronously
 * stops the run with a one-line reason. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>

#include "rt_internal.h"
#include "rt_lifecycle.h"

#define NEXT(type, name) ((type)dlsym(RTLD_NEXT, name))

/* The waits that are cancellation points (POSIX 2.9.5.2): a cancel ends
 * them. A new blocking call that is one lists its wait kind here. */
static const bool cancellable[W_COUNT] = {
	[W_COND] = true,   /* pthread_cond_wait, timedwait, clockwait */
	[W_SEM] = true,	   /* sem_wait, timedwait, clockwait */
	[W_JOIN] = true,   /* pthread_join, timedjoin */
	[W_SIGNAL] = true, /* sigwait, sigwaitinfo, sigtimedwait, pause, sigsuspend */
	[W_CHILD] = true,  /* waitpid, wait, waitid */
};

bool rt_cancel_wakes(const struct rt_thread *t)
{
	if (t->wait == W_EXTERNAL) /* a call on a descriptor is one, a futex wait is not */
		return !t->cancel_off && t->ext && t->ext->cancel_point;
	return !t->cancel_off && t->wait < W_COUNT && cancellable[t->wait];
}

static RT_NORETURN void async_unsupported(void)
{
	rt_unsupported("pthread_cancel", "asynchronous cancellation (PTHREAD_CANCEL_ASYNCHRONOUS) "
					 "is not modelled; deferred cancellation is");
}

void rt_cancel_act(struct rt_thread *self)
{
	self->cancel_pending = false;
	self->cancelled = true;
	self->cancel_site = self->site;
	rt_changed();
	rt_thread_exit(self, PTHREAD_CANCELED, self->site);
}

RT_INTERPOSE int pthread_cancel(pthread_t th)
{
	struct rt_thread *self = rt_modelled_self();
	if (!self)
		return NEXT(int (*)(pthread_t), "pthread_cancel")(th);
	struct rt_thread *t = rt_thread_by_real(th);
	if (!t) /* a thread outside the schedule: its real cancel */
		return NEXT(int (*)(pthread_t), "pthread_cancel")(th);
	rt_point(self, EV_CANCEL, 0, NULL, 0, RT_CALLER());
	if (t->state != T_LIVE)
		return 0; /* glibc: a thread that has ended is no error */
	if (t->cancel_async && !t->cancel_off)
		async_unsupported();
	t->cancel_pending = true;
	rt_changed();
	return 0;
}

RT_INTERPOSE void pthread_testcancel(void)
{
	struct rt_thread *self = rt_modelled_self();
	if (!self) {
		NEXT(void (*)(void), "pthread_testcancel")();
		return;
	}
	rt_point(self, EV_TESTCANCEL, 0, NULL, 0, RT_CALLER());
	rt_cancel_point(self);
}

/* Neither call is a cancellation point (POSIX), not even when it enables
 * cancellation with one pending; but turning asynchronous with one
 * pending would act at once, which is not modelled. */
RT_INTERPOSE int pthread_setcancelstate(int state, int *old)
{
	struct rt_thread *self = rt_modelled_self();
	int r = NEXT(int (*)(int, int *), "pthread_setcancelstate")(state, old);
	if (!self || r != 0)
		return r;
	if (old)
		*old = self->cancel_off ? PTHREAD_CANCEL_DISABLE : PTHREAD_CANCEL_ENABLE;
	self->cancel_off = state == PTHREAD_CANCEL_DISABLE;
	if (self->cancel_pending && !self->cancel_off && self->cancel_async)
		async_unsupported();
	rt_changed();
	return 0;
}

RT_INTERPOSE int pthread_setcanceltype(int type, int *old)
{
	struct rt_thread *self = rt_modelled_self();
	int r = NEXT(int (*)(int, int *), "pthread_setcanceltype")(type, old);
	if (!self || r != 0)
		return r;
	if (old)
		*old = self->cancel_async ? PTHREAD_CANCEL_ASYNCHRONOUS : PTHREAD_CANCEL_DEFERRED;
	self->cancel_async = type == PTHREAD_CANCEL_ASYNCHRONOUS;
	if (self->cancel_pending && !self->cancel_off && self->cancel_async)
		async_unsupported();
	return 0;
}

/* Cancellation enabled and deferred again, in glibc: a pooled kernel
 * thread's next thread starts so (rt_thread_run_pooled). */
void rt_cancel_defaults(void)
{
	NEXT(int (*)(int, int *), "pthread_setcancelstate")(PTHREAD_CANCEL_ENABLE, NULL);
	NEXT(int (*)(int, int *), "pthread_setcanceltype")(PTHREAD_CANCEL_DEFERRED, NULL);
}
