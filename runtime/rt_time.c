/* rt_time.c - yields and sleeps under virtual time.
 *
 * Nothing sleeps: a sleep or a yield is a scheduling point at which the
 * thread says it is waiting for somebody else. It is no progress (the
 * fairness rule of rt_sched.c), so a thread that keeps yielding or
 * sleeping gives way to the others, and sleep- and yield-based waiting
 * loops end under every schedule. glibc's pthread_yield is a redirect to
 * sched_yield, so it arrives here too. */
#define _GNU_SOURCE
#include <errno.h>

#include "rt_internal.h"

void rt_yield(struct rt_thread *self, enum rt_ev ev, const void *site)
{
	rt_point(self, ev, 0, NULL, 0, site);
}

RT_EXPORT int sched_yield(void)
{
	struct rt_thread *self = rt_self;
	if (!self)
		return REAL(sched_yield)();
	rt_yield(self, EV_YIELD, RT_CALLER());
	return 0;
}

RT_EXPORT unsigned sleep(unsigned seconds)
{
	struct rt_thread *self = rt_self;
	if (!self)
		return REAL(sleep)(seconds);
	rt_yield(self, EV_SLEEP, RT_CALLER());
	return 0;
}

RT_EXPORT int usleep(useconds_t usec)
{
	struct rt_thread *self = rt_self;
	if (!self)
		return REAL(usleep)(usec);
	rt_yield(self, EV_SLEEP, RT_CALLER());
	return 0;
}

RT_EXPORT int nanosleep(const struct timespec *req, struct timespec *rem)
{
	struct rt_thread *self = rt_self;
	if (!self)
		return REAL(nanosleep)(req, rem);
	if (!rt_timespec_valid(req) || req->tv_sec < 0) {
		errno = EINVAL;
		return -1;
	}
	rt_yield(self, EV_SLEEP, RT_CALLER());
	if (rem)
		rem->tv_sec = rem->tv_nsec = 0;
	return 0;
}

RT_EXPORT int clock_nanosleep(clockid_t clk, int flags, const struct timespec *req,
			      struct timespec *rem)
{
	struct rt_thread *self = rt_self;
	if (!self)
		return REAL(clock_nanosleep)(clk, flags, req, rem);
	if (!rt_timespec_valid(req))
		return EINVAL;
	rt_yield(self, EV_SLEEP, RT_CALLER());
	if (rem)
		rem->tv_sec = rem->tv_nsec = 0;
	return 0;
}
