/* rt_c11.c - C11 <threads.h> under control.
 *
 * glibc implements thrd_*, mtx_*, cnd_* and call_once on its internal
 * pthread functions, bypassing the ones we interpose, so they need entry
 * points of their own. Each maps onto the same modelled operation as its
 * pthread twin; uncontrolled callers get glibc's. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <threads.h>

#include "rt_internal.h"
#include "rt_lifecycle.h"

#define REAL_C11(type, name, ...)                                       \
	do {                                                            \
		static __typeof__((type)0) real_;                                      \
		if (!real_)                                             \
			real_ = (type)dlsym(RTLD_NEXT, #name);          \
		return real_(__VA_ARGS__);                              \
	} while (0)

static int c11_result(int err)
{
	switch (err) {
	case 0:
		return thrd_success;
	case EBUSY:
		return thrd_busy;
	case ETIMEDOUT:
		return thrd_timedout;
	case ENOMEM:
	case EAGAIN:
		return thrd_nomem;
	default:
		return thrd_error;
	}
}

RT_INTERPOSE int thrd_create(thrd_t *thr, thrd_start_t fn, void *arg)
{
	struct rt_thread *self = rt_self;
	if (!self)
		REAL_C11(int (*)(thrd_t *, thrd_start_t, void *), thrd_create, thr, fn, arg);
	return c11_result(rt_thread_create(self, thr, NULL, NULL, fn, arg, RT_CALLER()));
}

RT_INTERPOSE int thrd_join(thrd_t thr, int *res)
{
	struct rt_thread *self = rt_self;
	if (!self)
		REAL_C11(int (*)(thrd_t, int *), thrd_join, thr, res);
	void *ret = NULL;
	int r = rt_thread_join(self, thr, &ret, HOW_BLOCK, RT_CALLER());
	if (r == 0 && res)
		*res = (int)(intptr_t)ret;
	return c11_result(r);
}

RT_INTERPOSE int thrd_detach(thrd_t thr)
{
	struct rt_thread *self = rt_self;
	if (!self)
		REAL_C11(int (*)(thrd_t), thrd_detach, thr);
	return c11_result(rt_thread_detach(self, thr));
}

RT_INTERPOSE _Noreturn void thrd_exit(int res)
{
	struct rt_thread *self = rt_self;
	if (!self) {
		static void (*real)(int);
		if (!real)
			real = (void (*)(int))dlsym(RTLD_NEXT, "thrd_exit");
		real(res);
		__builtin_unreachable();
	}
	rt_thread_exit(self, (void *)(intptr_t)res, RT_CALLER());
}

RT_INTERPOSE void thrd_yield(void)
{
	struct rt_thread *self = rt_self;
	if (!self) {
		REAL(sched_yield)();
		return;
	}
	rt_yield(self, EV_YIELD, RT_CALLER());
}

RT_INTERPOSE int thrd_sleep(const struct timespec *req, struct timespec *rem)
{
	struct rt_thread *self = rt_self;
	if (!self)
		REAL_C11(int (*)(const struct timespec *, struct timespec *), thrd_sleep, req, rem);
	if (!rt_timespec_valid(req) || req->tv_sec < 0)
		return -2;
	/* C11: -1 when a signal interrupted it, as glibc's thrd_sleep */
	return rt_sleep(self, rt_timespec_ns(req), RT_CALLER(), rem);
}

RT_INTERPOSE int mtx_init(mtx_t *m, int type)
{
	pthread_mutexattr_t attr;
	pthread_mutexattr_init(&attr);
	pthread_mutexattr_settype(&attr, (type & mtx_recursive) ? PTHREAD_MUTEX_RECURSIVE
								 : PTHREAD_MUTEX_NORMAL);
	if (rt_self)
		rt_obj_forget(m);
	int r = REAL(pthread_mutex_init)((pthread_mutex_t *)m, &attr);
	pthread_mutexattr_destroy(&attr);
	return c11_result(r);
}

RT_INTERPOSE void mtx_destroy(mtx_t *m)
{
	struct rt_thread *self = rt_self;
	if (self)
		rt_mutex_destroy(self, (pthread_mutex_t *)m);
	else
		REAL(pthread_mutex_destroy)((pthread_mutex_t *)m);
}

RT_INTERPOSE int mtx_lock(mtx_t *m)
{
	struct rt_thread *self = rt_self;
	if (!self)
		return c11_result(REAL(pthread_mutex_lock)((pthread_mutex_t *)m));
	return c11_result(rt_mutex_lock(self, (pthread_mutex_t *)m, HOW_BLOCK, NULL, RT_CALLER()));
}

RT_INTERPOSE int mtx_trylock(mtx_t *m)
{
	struct rt_thread *self = rt_self;
	if (!self)
		return c11_result(REAL(pthread_mutex_trylock)((pthread_mutex_t *)m));
	return c11_result(rt_mutex_lock(self, (pthread_mutex_t *)m, HOW_TRY, NULL, RT_CALLER()));
}

RT_INTERPOSE int mtx_timedlock(mtx_t *restrict m, const struct timespec *restrict abs)
{
	struct rt_thread *self = rt_self;
	if (!self)
		return c11_result(REAL(pthread_mutex_timedlock)((pthread_mutex_t *)m, abs));
	return c11_result(rt_mutex_lock(self, (pthread_mutex_t *)m, HOW_TIMED, abs, RT_CALLER()));
}

RT_INTERPOSE int mtx_unlock(mtx_t *m)
{
	struct rt_thread *self = rt_self;
	if (!self)
		return c11_result(REAL(pthread_mutex_unlock)((pthread_mutex_t *)m));
	return c11_result(rt_mutex_unlock(self, (pthread_mutex_t *)m, RT_CALLER()));
}

RT_INTERPOSE int cnd_init(cnd_t *c)
{
	if (rt_self)
		rt_obj_forget(c);
	return c11_result(REAL(pthread_cond_init)((pthread_cond_t *)c, NULL));
}

RT_INTERPOSE void cnd_destroy(cnd_t *c)
{
	struct rt_thread *self = rt_self;
	if (self)
		rt_cond_destroy(self, (pthread_cond_t *)c);
	else
		REAL(pthread_cond_destroy)((pthread_cond_t *)c);
}

RT_INTERPOSE int cnd_signal(cnd_t *c)
{
	struct rt_thread *self = rt_self;
	if (!self)
		return c11_result(REAL(pthread_cond_signal)((pthread_cond_t *)c));
	return c11_result(rt_cond_wake(self, (pthread_cond_t *)c, false, RT_CALLER()));
}

RT_INTERPOSE int cnd_broadcast(cnd_t *c)
{
	struct rt_thread *self = rt_self;
	if (!self)
		return c11_result(REAL(pthread_cond_broadcast)((pthread_cond_t *)c));
	return c11_result(rt_cond_wake(self, (pthread_cond_t *)c, true, RT_CALLER()));
}

RT_INTERPOSE int cnd_wait(cnd_t *c, mtx_t *m)
{
	struct rt_thread *self = rt_self;
	if (!self)
		return c11_result(REAL(pthread_cond_wait)((pthread_cond_t *)c, (pthread_mutex_t *)m));
	return c11_result(rt_cond_wait(self, (pthread_cond_t *)c, (pthread_mutex_t *)m, NULL,
				       false, RT_CALLER()));
}

RT_INTERPOSE int cnd_timedwait(cnd_t *restrict c, mtx_t *restrict m,
			    const struct timespec *restrict abs)
{
	struct rt_thread *self = rt_self;
	if (!self)
		return c11_result(REAL(pthread_cond_timedwait)((pthread_cond_t *)c,
							       (pthread_mutex_t *)m, abs));
	return c11_result(rt_cond_wait(self, (pthread_cond_t *)c, (pthread_mutex_t *)m, abs, true,
				       RT_CALLER()));
}

RT_INTERPOSE void call_once(once_flag *flag, void (*fn)(void))
{
	struct rt_thread *self = rt_self;
	if (self)
		rt_once(self, (pthread_once_t *)flag, fn, RT_CALLER());
	else
		REAL(pthread_once)((pthread_once_t *)flag, fn);
}

RT_INTERPOSE int tss_create(tss_t *key, tss_dtor_t dtor)
{
	return c11_result(rt_key_create((pthread_key_t *)key, dtor));
}
