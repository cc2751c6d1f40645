/* rt_alarm.c - alarm and setitimer(ITIMER_REAL) in virtual time.
 *
 * A controlled program's timer does not follow the wall clock, which
 * would make when it fires depend on the machine: it follows a virtual
 * clock that starts at 0 with each execution and moves by the length of
 * every sleep (rt_time.c) and by RT_STEP_NS with every scheduling point
 * (rt_internal.h), so that a thread that computes until its alarm stops
 * it (`alarm(1); while (!stop) n++;`) gets it. Steps are the measure
 * because they replay: a point is at least one instrumented access, and a
 * clock that ran far ahead of a native run would fire a program's safety
 * alarm where natively it never fires. When the clock passes the timer, SIGALRM is
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
	uint64_t slept;    /* ns of sleeps and jumps since the execution began */
	uint64_t due;      /* when the timer fires, if armed */
	uint64_t interval; /* re-armed by this much after it fires; 0: once */
	bool armed;
} vt;

uint64_t rt_timer_step = UINT64_MAX;

/* ns since the execution began: its sleeps, and its steps at RT_STEP_NS. */
static uint64_t now(void)
{
	return vt.slept + rt.step * RT_STEP_NS;
}

/* The step at which the clock reaches the timer if nobody sleeps first:
 * point() looks at it, so that an execution without a timer pays one
 * comparison that always fails. */
static void schedule_step(void)
{
	if (!vt.armed) {
		rt_timer_step = UINT64_MAX;
		return;
	}
	uint64_t t = now();
	rt_timer_step = vt.due <= t ? rt.step : rt.step + (vt.due - t + RT_STEP_NS - 1) / RT_STEP_NS;
}

void rt_vtime_reset(void)
{
	rt_memset(&vt, 0, sizeof vt);
	rt_timer_step = UINT64_MAX;
}

static void fire(void)
{
	if (vt.interval) {
		uint64_t late = now() - vt.due; /* signals do not queue: one for all missed */
		vt.due = now() + vt.interval - late % vt.interval;
	} else {
		vt.armed = false;
	}
	schedule_step();
	rt_signal_to_process(SIGALRM);
}

/* How often a timer that computation alone may not fire is looked at
 * again (its signal's action may have changed). */
#define RECHECK_STEPS (1u << 20)

void rt_vtime_steps(void)
{
	if (!vt.armed || now() < vt.due) {
		schedule_step();
	} else if (rt_signal_would_end(SIGALRM)) {
		/* A safety alarm that ends the process: steps only approximate
		 * native time, so computation alone never fires it (a sleep, or
		 * every thread waiting, still does). */
		rt_timer_step = rt.step + RECHECK_STEPS;
	} else {
		fire();
	}
}

bool rt_vtime_armed(void)
{
	return vt.armed;
}

void rt_vtime_advance(uint64_t ns)
{
	vt.slept += ns;
	rt_vtime_steps();
}

bool rt_vtime_jump(void)
{
	if (!vt.armed)
		return false;
	if (now() < vt.due)
		vt.slept += vt.due - now();
	fire();
	return true;
}

/* Steps only approximate time: a thread about to wait for a signal may
 * have taken long enough to get there that the timer is past due. A
 * schedule decision says whether it is, so that a signal handled between
 * a check of its flag and the pause (the lost alarm of `if (!fired)
 * pause();`) is tried, as it can happen natively on a busy machine. */
void rt_vtime_before_signal_wait(void)
{
	if (!vt.armed || rt_signal_would_end(SIGALRM) || rt_choose(STRAT_CHOOSE_WAKER, 2) == 0)
		return;
	rt_vtime_jump();
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
	uint64_t t = now();
	out->it_value = tv_of(vt.armed ? (vt.due > t ? vt.due - t : 1000) : 0);
}

static void arm(const struct itimerval *v)
{
	uint64_t value = ns_of(&v->it_value);
	vt.armed = value != 0;
	vt.due = now() + value;
	vt.interval = ns_of(&v->it_interval);
	schedule_step();
}

RT_EXPORT unsigned alarm(unsigned seconds)
{
	if (!rt_modelled_self())
		return NEXT(unsigned (*)(unsigned), "alarm")(seconds);
	unsigned left = 0;
	uint64_t t = now();
	if (vt.armed) /* rounded as the kernel does: half a second up, never 0 */
		left = (unsigned)((vt.due - (vt.due > t ? t : vt.due) + NS / 2) / NS);
	if (vt.armed && left == 0)
		left = 1;
	arm(&(struct itimerval){ .it_value = { .tv_sec = seconds } });
	return left;
}

RT_EXPORT int setitimer(__itimer_which_t which, const struct itimerval *v, struct itimerval *old)
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

RT_EXPORT int getitimer(__itimer_which_t which, struct itimerval *out)
{
	if (!rt_modelled_self() || which != ITIMER_REAL)
		return NEXT(int (*)(__itimer_which_t, struct itimerval *), "getitimer")(which, out);
	current(out);
	return 0;
}
