/* rt_time.c - yields and sleeps under virtual time.
 *
 * Nothing sleeps: a sleep or a yield is a scheduling point at which the
 * thread says it is waiting for somebody else. It is no progress (the
 * fairness rule of rt_sched.c), so a thread that keeps yielding or
 * sleeping gives way to the others, and sleep- and yield-based waiting
 * loops end under every schedule. The lengths of sleeps are what moves
 * the virtual clock of timers (rt_alarm.c). glibc's pthread_yield is a redirect to
 * sched_yield, so it arrives here too.
 *
 * Except once the program has started a process of its own in this
 * execution (fork, system, popen, posix_spawn): that process runs on the
 * wall clock, and a program that sleeps to let it act (a child that
 * signals back within a second, as in gnulib's pthread_sigmask check)
 * must find it has acted. From then on a sleep also sleeps for real,
 * with the other threads parked, and returns what the real call returns
 * (EINTR with the time left when a real signal's handler ran). */
#define _GNU_SOURCE
#include <errno.h>

#include "rt_internal.h"
#include "rt_lifecycle.h"

void rt_yield(struct rt_thread *self, enum rt_ev ev, const void *site)
{
	rt_point(self, ev, 0, NULL, 0, site);
}

uint64_t rt_timespec_ns(const struct timespec *ts)
{
	if (ts->tv_sec < 0)
		return 0;
	if ((uint64_t)ts->tv_sec >= (UINT64_MAX - 999999999u) / 1000000000u)
		return UINT64_MAX;
	return (uint64_t)ts->tv_sec * 1000000000u + (uint64_t)ts->tv_nsec;
}

static bool outside_runs; /* a process of the program's own has started */

void rt_sleep_outside(void)
{
	outside_runs = true;
}

void rt_sleep_reset(void)
{
	outside_runs = false;
}

/* A sleep is a cancellation point, and its length passes in virtual
 * time (timers armed by alarm or setitimer fire when it passes them).
 * 0, or -1 with errno EINTR and *rem (if rem) the time left. */
int rt_sleep(struct rt_thread *self, uint64_t ns, const void *site, struct timespec *rem)
{
	rt_cancel_point(self);
	rt_yield(self, EV_SLEEP, site);
	if (outside_runs && ns) {
		struct timespec req = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };
		rt.busy++; /* no hang while it sleeps for real */
		int r = REAL(nanosleep)(&req, rem);
		int e = errno;
		rt.busy--;
		rt_vtime_advance(ns);
		rt_cancel_point(self);
		errno = e;
		return r;
	}
	/* A timer that falls due meanwhile and sends self a signal cuts the
	 * sleep short, as the kernel's: the handler runs, and the call
	 * returns EINTR with the time left. */
	uint64_t left = ns;
	do { /* once for a sleep of 0: it fires what is past due */
		left -= rt_vtime_sleep(left);
		if (left && rt_signal_ready(self)) {
			rt_signal_deliver(self);
			if (rem) {
				rem->tv_sec = (time_t)(left / 1000000000u);
				rem->tv_nsec = (long)(left % 1000000000u);
			}
			rt_cancel_point(self);
			errno = EINTR;
			return -1;
		}
	} while (left);
	if (rem)
		rem->tv_sec = rem->tv_nsec = 0;
	rt_cancel_point(self);
	return 0;
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
	struct timespec rem;
	if (rt_sleep(self, (uint64_t)seconds * 1000000000u, RT_CALLER(), &rem) == 0)
		return 0;
	return (unsigned)rem.tv_sec + (rem.tv_nsec >= 500000000L); /* glibc's rounding */
}

RT_INTERPOSE int usleep(useconds_t usec)
{
	struct rt_thread *self = rt_self;
	if (!self)
		return REAL(usleep)(usec);
	return rt_sleep(self, (uint64_t)usec * 1000u, RT_CALLER(), NULL);
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
	return rt_sleep(self, rt_timespec_ns(req), RT_CALLER(), rem);
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
	uint64_t ns = rt_timespec_ns(req);
	if (rt_sleep(self, flags & TIMER_ABSTIME ? 0 : ns, RT_CALLER(), flags & TIMER_ABSTIME ? NULL : rem))
		return errno;
	return 0;
}
