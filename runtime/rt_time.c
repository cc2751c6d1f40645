/* rt_time.c - yields and sleeps under virtual time.
 *
 * Nothing sleeps: a sleep or a yield is a scheduling point at which the
 * thread says it is waiting for somebody else. It is no progress (the
 * fairness rule of rt_sched.c), so a thread that keeps yielding or
 * sleeping gives way to the others, and sleep- and yield-based waiting
 * loops end under every schedule. The lengths of sleeps are what moves
 * the virtual clock of timers (rt_alarm.c). glibc's pthread_yield is a redirect to
 * sched_yield, so it arrives here too. */
#define _GNU_SOURCE
#include <errno.h>

#include "rt_internal.h"
#include "rt_lifecycle.h"

void rt_yield(struct rt_thread *self, enum rt_ev ev, const void *site)
{
	rt_point(self, ev, 0, NULL, 0, site);
}

/* A sleep is a cancellation point, and its length passes in virtual
 * time (timers armed by alarm or setitimer fire when it passes them). */
void rt_sleep(struct rt_thread *self, uint64_t ns, const void *site)
{
	rt_cancel_point(self);
	rt_yield(self, EV_SLEEP, site);
	rt_vtime_advance(ns);
	rt_cancel_point(self);
}

RT_INTERPOSE int sched_yield(void)
{
	struct rt_thread *self = rt_self;
	if (!self)
		return REAL(sched_yield)();
	rt_yield(self, EV_YIELD, RT_CALLER());
	return 0;
}

RT_INTERPOSE unsigned sleep(unsigned seconds)
{
	struct rt_thread *self = rt_self;
	if (!self)
		return REAL(sleep)(seconds);
	rt_sleep(self, (uint64_t)seconds * 1000000000u, RT_CALLER());
	return 0;
}

RT_INTERPOSE int usleep(useconds_t usec)
{
	struct rt_thread *self = rt_self;
	if (!self)
		return REAL(usleep)(usec);
	rt_sleep(self, (uint64_t)usec * 1000u, RT_CALLER());
	return 0;
}

RT_INTERPOSE int nanosleep(const struct timespec *req, struct timespec *rem)
{
	struct rt_thread *self = rt_self;
	if (!self)
		return REAL(nanosleep)(req, rem);
	if (!rt_timespec_valid(req) || req->tv_sec < 0) {
		errno = EINVAL;
		return -1;
	}
	rt_sleep(self, (uint64_t)req->tv_sec * 1000000000u + (uint64_t)req->tv_nsec, RT_CALLER());
	if (rem)
		rem->tv_sec = rem->tv_nsec = 0;
	return 0;
}

RT_INTERPOSE int clock_nanosleep(clockid_t clk, int flags, const struct timespec *req,
			      struct timespec *rem)
{
	struct rt_thread *self = rt_self;
	if (!self)
		return REAL(clock_nanosleep)(clk, flags, req, rem);
	if (!rt_timespec_valid(req))
		return EINVAL;
	/* An absolute time is taken as a relative one: the virtual clock
	 * does not follow the real clocks the program reads. */
	uint64_t ns = req->tv_sec < 0 ? 0 : (uint64_t)req->tv_sec * 1000000000u + (uint64_t)req->tv_nsec;
	rt_sleep(self, flags & TIMER_ABSTIME ? 0 : ns, RT_CALLER());
	if (rem)
		rem->tv_sec = rem->tv_nsec = 0;
	return 0;
}
