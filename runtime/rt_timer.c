/* rt_timer.c - timer_create's timers that send a signal, in virtual time.
 *
 * A SIGEV_SIGNAL timer on CLOCK_REALTIME or CLOCK_MONOTONIC (and their
 * variants) created by a controlled thread is a timer of the execution's
 * virtual clock (rt_alarm.c): it fires as alarm's does, its signal goes to
 * the process as kill's does (rt_kill.c), with its sigev_value. An
 * absolute expiry (TIMER_ABSTIME) is due at once, as clock_nanosleep's
 * is: the virtual clock does not follow the real ones. Other timers
 * (SIGEV_THREAD, SIGEV_NONE, SIGEV_THREAD_ID, CPU-time clocks) and every
 * call from outside an execution stay real. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <time.h>

#include "rt_internal.h"
#include "rt_lifecycle.h"

#define NEXT(type, name) ((type)dlsym(RTLD_NEXT, name))
#define NS 1000000000ull
/* A virtual timer's id: far from the kernel's ids (small integers), which
 * glibc hands out as timer_t. */
#define ID_BASE 0x5cf10000u

static int slot_of(timer_t id)
{
	uintptr_t v = (uintptr_t)id;
	if (!rt_modelled_self() || v <= ID_BASE || v >= ID_BASE + RT_VTIMERS)
		return -1;
	int slot = (int)(v - ID_BASE);
	return rt_vtime_timer_valid(slot) ? slot : -1;
}

static bool modelled_clock(clockid_t clk)
{
	switch (clk) {
	case CLOCK_REALTIME:
	case CLOCK_MONOTONIC:
	case CLOCK_BOOTTIME:
	case CLOCK_REALTIME_ALARM:
	case CLOCK_BOOTTIME_ALARM:
		return true;
	default:
		return false;
	}
}

RT_INTERPOSE int timer_create(clockid_t clk, struct sigevent *sev, timer_t *id)
{
	static int (*real)(clockid_t, struct sigevent *, timer_t *);
	if (!real)
		real = NEXT(int (*)(clockid_t, struct sigevent *, timer_t *), "timer_create");
	if (!rt_modelled_self() || !modelled_clock(clk) || (sev && sev->sigev_notify != SIGEV_SIGNAL))
		return real(clk, sev, id);
	int sig = sev ? sev->sigev_signo : SIGALRM;
	if (sig < 1 || sig > 64) {
		errno = EINVAL;
		return -1;
	}
	int slot = rt_vtime_timer_new(sig);
	if (slot < 0) {
		errno = EAGAIN;
		return -1;
	}
	*id = (timer_t)(uintptr_t)(ID_BASE + (unsigned)slot);
	/* Without a sigevent the value is the timer's id, as POSIX says. */
	rt_vtime_timer_value(slot, sev ? sev->sigev_value : (union sigval){ .sival_ptr = *id });
	return 0;
}

static uint64_t ns_of(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * NS + (uint64_t)ts->tv_nsec;
}

static struct timespec ts_of(uint64_t ns)
{
	return (struct timespec){ .tv_sec = (time_t)(ns / NS), .tv_nsec = (long)(ns % NS) };
}

static void current(int slot, struct itimerspec *out)
{
	uint64_t value, interval;
	rt_vtime_timer_get(slot, &value, &interval);
	out->it_value = ts_of(value);
	out->it_interval = ts_of(interval);
}

RT_INTERPOSE int timer_settime(timer_t id, int flags, const struct itimerspec *v, struct itimerspec *old)
{
	int slot = slot_of(id);
	if (slot < 0)
		return NEXT(int (*)(timer_t, int, const struct itimerspec *, struct itimerspec *),
			    "timer_settime")(id, flags, v, old);
	if (!v || !rt_timespec_valid(&v->it_value) || !rt_timespec_valid(&v->it_interval) ||
	    v->it_value.tv_sec < 0 || v->it_interval.tv_sec < 0) {
		errno = EINVAL;
		return -1;
	}
	if (old)
		current(slot, old);
	uint64_t value = ns_of(&v->it_value);
	if (value && (flags & TIMER_ABSTIME))
		value = 1; /* due at once */
	rt_vtime_timer_set(slot, value, ns_of(&v->it_interval));
	return 0;
}

RT_INTERPOSE int timer_gettime(timer_t id, struct itimerspec *out)
{
	int slot = slot_of(id);
	if (slot < 0)
		return NEXT(int (*)(timer_t, struct itimerspec *), "timer_gettime")(id, out);
	current(slot, out);
	return 0;
}

RT_INTERPOSE int timer_getoverrun(timer_t id)
{
	int slot = slot_of(id);
	if (slot < 0)
		return NEXT(int (*)(timer_t), "timer_getoverrun")(id);
	return rt_vtime_timer_overrun(slot);
}

RT_INTERPOSE int timer_delete(timer_t id)
{
	int slot = slot_of(id);
	if (slot < 0)
		return NEXT(int (*)(timer_t), "timer_delete")(id);
	rt_vtime_timer_delete(slot);
	return 0;
}
