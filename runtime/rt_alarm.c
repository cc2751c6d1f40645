/* rt_alarm.c - alarm and setitimer(ITIMER_REAL) in virtual time.
 *
 * A controlled program's timer does not follow the wall clock, which
 * would make when it fires depend on the machine: it follows a virtual
 * clock that starts at 0 with each execution and moves by the length of
 * every sleep (rt_time.c). When the clock passes the timer, SIGALRM is
 * sent to the process (rt_kill.c picks the thread that takes it), and an
 * interval timer is armed again. When no thread can run and a timer is
 * armed, time jumps to it: a program that waits in pause, sigwait or a
 * blocking call for its alarm gets it, as it would from the kernel.
 * Other timers (ITIMER_VIRTUAL, ITIMER_PROF: CPU time, used by profilers)
 * and every call from outside an execution stay real. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <sys/time.h>

#include "rt_internal.h"
#include "rt_lifecycle.h"

#define NEXT(type, name) ((type)dlsym(RTLD_NEXT, name))
#define NS 1000000000ull

/* Only the running thread touches it (rt_internal.h's invariant). */
static struct {
	uint64_t now;      /* ns since the execution began */
	uint64_t due;      /* when the timer fires, if armed */
	uint64_t interval; /* re-armed by this much after it fires; 0: once */
	bool armed;
} vt;

void rt_vtime_reset(void)
{
	rt_memset(&vt, 0, sizeof vt);
}

static void fire(void)
{
	if (vt.interval) {
		uint64_t late = vt.now - vt.due; /* signals do not queue: one for all missed */
		vt.due = vt.now + vt.interval - late % vt.interval;
	} else {
		vt.armed = false;
	}
	rt_signal_to_process(SIGALRM);
}

bool rt_vtime_armed(void)
{
	return vt.armed;
}

void rt_vtime_advance(uint64_t ns)
{
	vt.now += ns;
	if (vt.armed && vt.now >= vt.due)
		fire();
}

bool rt_vtime_jump(void)
{
	if (!vt.armed)
		return false;
	if (vt.now < vt.due)
		vt.now = vt.due;
	fire();
	return true;
}

static uint64_t ns_of(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * NS + (uint64_t)tv->tv_usec * 1000u;
}

static struct timeval tv_of(uint64_t ns)
{
	return (struct timeval){ .tv_sec = (time_t)(ns / NS), .tv_usec = (suseconds_t)(ns % NS / 1000) };
}

static void current(struct itimerval *out)
{
	out->it_interval = tv_of(vt.interval);
	out->it_value = tv_of(vt.armed ? (vt.due > vt.now ? vt.due - vt.now : 1000) : 0);
}

static void arm(const struct itimerval *v)
{
	uint64_t value = ns_of(&v->it_value);
	vt.armed = value != 0;
	vt.due = vt.now + value;
	vt.interval = ns_of(&v->it_interval);
}

RT_INTERPOSE unsigned alarm(unsigned seconds)
{
	if (!rt_modelled_self())
		return NEXT(unsigned (*)(unsigned), "alarm")(seconds);
	unsigned left = 0;
	if (vt.armed) /* rounded as the kernel does: half a second up, never 0 */
		left = (unsigned)((vt.due - (vt.due > vt.now ? vt.now : vt.due) + NS / 2) / NS);
	if (vt.armed && left == 0)
		left = 1;
	arm(&(struct itimerval){ .it_value = { .tv_sec = seconds } });
	return left;
}

RT_INTERPOSE int setitimer(__itimer_which_t which, const struct itimerval *v, struct itimerval *old)
{
	if (!rt_modelled_self() || which != ITIMER_REAL)
		return NEXT(int (*)(__itimer_which_t, const struct itimerval *, struct itimerval *),
			    "setitimer")(which, v, old);
	if (!v || v->it_value.tv_usec < 0 || v->it_value.tv_usec >= 1000000 ||
	    v->it_interval.tv_usec < 0 || v->it_interval.tv_usec >= 1000000 ||
	    v->it_value.tv_sec < 0 || v->it_interval.tv_sec < 0) {
		errno = EINVAL;
		return -1;
	}
	if (old)
		current(old);
	arm(v);
	return 0;
}

RT_INTERPOSE int getitimer(__itimer_which_t which, struct itimerval *out)
{
	if (!rt_modelled_self() || which != ITIMER_REAL)
		return NEXT(int (*)(__itimer_which_t, struct itimerval *), "getitimer")(which, out);
	current(out);
	return 0;
}
