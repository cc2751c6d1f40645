/* rt_real.c - finds the real functions behind the ones we interpose.
 *
 * The runtime defines pthread_mutex_lock & co. in the executable, so the
 * dynamic linker binds every caller to ours; the real ones are the next
 * definitions in lookup order (glibc, libstdc++). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "rt_internal.h"
#include "rt_libc.h"

struct rt_real_fns rt_real;

static void *next(const char *name)
{
#ifdef RT_BESIDE_ASAN
	/* ASan intercepts pthread_create, pthread_join, the mutex and
	 * semaphore calls and more, to keep its thread registry, stacks and
	 * TLS right. Ours take the symbol's name, so its interceptor is only
	 * reachable by its own name; everything it does not intercept is next
	 * in lookup order as usual. */
	char chained[96] = "__interceptor_";
	size_t len = __builtin_strlen(name);
	if (len < sizeof chained - 15) {
		__builtin_memcpy(chained + 14, name, len + 1);
		void *p = dlsym(RTLD_DEFAULT, chained);
		if (p)
			return p;
	}
#endif
	return dlsym(RTLD_NEXT, name);
}

/* The byte functions come from libc itself: the runtime's own copies are
 * not the program's accesses, for ASan no more than for us. */
static void *libc(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

/* The condition variable calls have two versions in glibc; plain dlsym can
 * hand back the pre-2.3.2 ones, whose object layout differs. */
static void *next_cond(const char *name)
{
	void *p = dlvsym(RTLD_NEXT, name, "GLIBC_2.3.2");
	return p ? p : next(name);
}

static void require(void *p, const char *name)
{
	if (!p) {
		static const char msg[] = "schedfuzz: cannot find the real ";
		(void)!write(2, msg, sizeof msg - 1);
		(void)!write(2, name, __builtin_strlen(name));
		(void)!write(2, "\n", 1);
		_exit(3);
	}
}

#define LOAD(field, sym) (rt_real.field = next(sym))
#define NEED(field, sym) (LOAD(field, sym), require((void *)rt_real.field, sym))
#define NEED_LIBC(field, sym) (rt_real.field = libc(sym), require((void *)rt_real.field, sym))

void rt_real_init(void)
{
	NEED(pthread_create, "pthread_create");
	NEED(pthread_join, "pthread_join");
	NEED(pthread_detach, "pthread_detach");
	NEED(pthread_exit, "pthread_exit");
	NEED(pthread_key_create, "pthread_key_create");
	NEED(pthread_key_delete, "pthread_key_delete");
	NEED(pthread_mutex_init, "pthread_mutex_init");
	NEED(pthread_mutex_destroy, "pthread_mutex_destroy");
	NEED(pthread_mutex_lock, "pthread_mutex_lock");
	NEED(pthread_mutex_trylock, "pthread_mutex_trylock");
	NEED(pthread_mutex_timedlock, "pthread_mutex_timedlock");
	LOAD(pthread_mutex_clocklock, "pthread_mutex_clocklock");
	NEED(pthread_mutex_unlock, "pthread_mutex_unlock");
	rt_real.pthread_cond_init = next_cond("pthread_cond_init");
	rt_real.pthread_cond_destroy = next_cond("pthread_cond_destroy");
	rt_real.pthread_cond_wait = next_cond("pthread_cond_wait");
	rt_real.pthread_cond_timedwait = next_cond("pthread_cond_timedwait");
	rt_real.pthread_cond_signal = next_cond("pthread_cond_signal");
	rt_real.pthread_cond_broadcast = next_cond("pthread_cond_broadcast");
	require((void *)rt_real.pthread_cond_wait, "pthread_cond_wait");
	LOAD(pthread_cond_clockwait, "pthread_cond_clockwait");
	NEED(pthread_rwlock_init, "pthread_rwlock_init");
	NEED(pthread_rwlock_destroy, "pthread_rwlock_destroy");
	NEED(pthread_rwlock_rdlock, "pthread_rwlock_rdlock");
	NEED(pthread_rwlock_tryrdlock, "pthread_rwlock_tryrdlock");
	NEED(pthread_rwlock_timedrdlock, "pthread_rwlock_timedrdlock");
	LOAD(pthread_rwlock_clockrdlock, "pthread_rwlock_clockrdlock");
	NEED(pthread_rwlock_wrlock, "pthread_rwlock_wrlock");
	NEED(pthread_rwlock_trywrlock, "pthread_rwlock_trywrlock");
	NEED(pthread_rwlock_timedwrlock, "pthread_rwlock_timedwrlock");
	LOAD(pthread_rwlock_clockwrlock, "pthread_rwlock_clockwrlock");
	NEED(pthread_rwlock_unlock, "pthread_rwlock_unlock");
	NEED(pthread_spin_init, "pthread_spin_init");
	NEED(pthread_spin_destroy, "pthread_spin_destroy");
	NEED(pthread_spin_lock, "pthread_spin_lock");
	NEED(pthread_spin_trylock, "pthread_spin_trylock");
	NEED(pthread_spin_unlock, "pthread_spin_unlock");
	NEED(pthread_barrier_init, "pthread_barrier_init");
	NEED(pthread_barrier_destroy, "pthread_barrier_destroy");
	NEED(pthread_barrier_wait, "pthread_barrier_wait");
	NEED(pthread_once, "pthread_once");
	NEED(sem_init, "sem_init");
	NEED(sem_destroy, "sem_destroy");
	NEED(sem_wait, "sem_wait");
	NEED(sem_trywait, "sem_trywait");
	NEED(sem_timedwait, "sem_timedwait");
	LOAD(sem_clockwait, "sem_clockwait");
	NEED(sem_post, "sem_post");
	NEED(sem_getvalue, "sem_getvalue");
	NEED(sched_yield, "sched_yield");
	NEED(sleep, "sleep");
	NEED(usleep, "usleep");
	NEED(nanosleep, "nanosleep");
	NEED(clock_nanosleep, "clock_nanosleep");
	NEED(exit, "exit");
	NEED(assert_fail, "__assert_fail");
	/* Only present when libstdc++ is loaded, and only needed then. */
	LOAD(cxa_guard_acquire, "__cxa_guard_acquire");
	LOAD(cxa_guard_release, "__cxa_guard_release");
	LOAD(cxa_guard_abort, "__cxa_guard_abort");
	LOAD(call_tls_dtors, "__call_tls_dtors");
	NEED_LIBC(memcpy, "memcpy");
	NEED_LIBC(memmove, "memmove");
	NEED_LIBC(memset, "memset");
}

/* For the other tables of real functions (rt_io.h): the same lookup. */
void *rt_real_next(const char *name)
{
	return next(name);
}
