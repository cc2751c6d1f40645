/* rt_alarm.c - the virtual clock of timers: alarm and
 * setitimer(ITIMER_REAL) here, timer_create's timers (rt_timer.c).
 *
 * A controlled program's timer does not follow the wall clock, which
 * would make when it fires depend on the machine: it follows a virtual
 * clock that starts at 0 with each execution and moves by the length of
 * every sleep (rt_time.c) and by RT_STEP_NS with every scheduling point
 * (rt_lifecycle.h), so that a thread that computes until its alarm stops
 * it (`alarm(1); while (!stop) n++;`) gets it. Steps are the measure
 * because they replay; since they only approximate native time,
 * computation alone never fires a timer whose signal would end the
 * process (a safety alarm). When the clock passes a timer, its signal is
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

/* One timer of the virtual clock: slot 0 is alarm/setitimer's, the
 * others timer_create's (rt_timer.c). */
struct vtimer {
	uint64_t due;      /* when it fires, if armed */
	uint64_t interval; /* re-armed by this much after it fires; 0: once */
	int sig;           /* what it sends to the process */
	bool armed, used, has_value;
	union sigval value; /* timer_create's sigev_value */
	int overrun;        /* periods missed at the last expiry */
};

/* Only the running thread touches it (rt_internal.h's invariant). */
static struct {
	uint64_t slept; /* ns of sleeps and jumps since the execution began */
	struct vtimer t[RT_VTIMERS];
} vt;

uint64_t rt_timer_step = UINT64_MAX;

/* ns since the execution began: its sleeps, and its steps at RT_STEP_NS. */
static uint64_t now(void)
{
	return vt.slept + rt.step * RT_STEP_NS;
}

/* The armed timer due first, or NULL; with computation_fires, only among
 * those whose signal would not end the process. */
static struct vtimer *first_due(bool computation_fires)
{
	struct vtimer *first = NULL;
	for (int i = 0; i < RT_VTIMERS; i++) {
		struct vtimer *t = &vt.t[i];
		if (t->armed && (!first || t->due < first->due) &&
		    (!computation_fires || !rt_signal_would_end(t->sig)))
			first = t;
	}
	return first;
}

/* How often a timer that computation alone may not fire is looked at
 * again (its signal's action may have changed). */
#define RECHECK_STEPS (1u << 20)

/* The step at which the clock reaches the first timer that computation
 * may fire if nobody sleeps first: point() looks at it, so that an
 * execution without a timer pays one comparison that always fails. */
static void schedule_step(void)
{
	uint64_t step = UINT64_MAX, t = now();
	for (int i = 0; i < RT_VTIMERS; i++) {
		const struct vtimer *v = &vt.t[i];
		if (!v->armed)
			continue;
		uint64_t s = rt_signal_would_end(v->sig) ? rt.step + RECHECK_STEPS
			     : v->due <= t		    ? rt.step
							    : rt.step + (v->due - t + RT_STEP_NS - 1) / RT_STEP_NS;
		if (s < step)
			step = s;
	}
	rt_timer_step = step;
}

void rt_vtime_reset(void)
{
	rt_memset(&vt, 0, sizeof vt);
	vt.t[0].used = true;
	vt.t[0].sig = SIGALRM;
	rt_timer_step = UINT64_MAX;
}

static void fire(struct vtimer *t)
{
	t->overrun = 0;
	if (t->interval) {
		uint64_t late = now() - t->due; /* signals do not queue: one for all missed */
		t->overrun = (int)(late / t->interval);
		t->due = now() + t->interval - late % t->interval;
	} else {
		t->armed = false;
	}
	schedule_step();
	rt_signal_queue_to_process(t->sig, t->has_value ? &t->value : NULL);
}

/* Fire what the clock passed. A timer whose signal would end the process
 * (no handler, nobody waiting: a safety alarm) is not fired by
 * computation alone, since steps only approximate native time: a sleep,
 * or every thread waiting, still fires it. */
static void fire_passed(bool by_steps)
{
	for (int i = 0; i < RT_VTIMERS; i++) {
		struct vtimer *t = &vt.t[i];
		if (t->armed && now() >= t->due && !(by_steps && rt_signal_would_end(t->sig)))
			fire(t);
	}
}

void rt_vtime_steps(void)
{
	fire_passed(true);
	schedule_step();
}

bool rt_vtime_armed(void)
{
	return first_due(false) != NULL;
}

void rt_vtime_advance(uint64_t ns)
{
	vt.slept = ns > UINT64_MAX - vt.slept ? UINT64_MAX : vt.slept + ns; /* TIME_T_MAX s */
	fire_passed(false);
	schedule_step();
}

uint64_t rt_vtime_sleep(uint64_t ns)
{
	uint64_t start = now();
	uint64_t end = ns > UINT64_MAX - start ? UINT64_MAX : start + ns;
	struct vtimer *first = first_due(false);
	if (!first || first->due > end) {
		vt.slept += end - start;
		fire_passed(false);
		schedule_step();
		return ns;
	}
	if (now() < first->due)
		vt.slept += first->due - now();
	fire_passed(false);
	schedule_step();
	return now() - start;
}

/* Time passes to t's expiry and fires it. */
static void jump_to(struct vtimer *t)
{
	if (now() < t->due)
		vt.slept += t->due - now();
	fire_passed(false);
	schedule_step();
}

bool rt_vtime_jump(void)
{
	struct vtimer *first = first_due(false);
	if (!first)
		return false;
	jump_to(first);
	return true;
}

/* Steps only approximate time: a thread about to wait for a signal may
 * have taken long enough to get there that the first timer is past due.
 * A schedule decision says whether it is, so that a signal handled
 * between a check of its flag and the pause (the lost alarm of `if
 * (!fired) pause();`) is tried, as it can happen natively on a busy
 * machine. */
void rt_vtime_before_signal_wait(void)
{
	struct vtimer *first = first_due(true);
	if (first && rt_choose(STRAT_CHOOSE_WAKER, 2) == 1)
		jump_to(first);
}

/* ---- the timers' calls ----------------------------------------------------- */

int rt_vtime_timer_new(int sig)
{
	for (int i = 1; i < RT_VTIMERS; i++)
		if (!vt.t[i].used) {
			vt.t[i] = (struct vtimer){ .used = true, .sig = sig };
			return i;
		}
	return -1;
}

void rt_vtime_timer_value(int slot, union sigval value)
{
	vt.t[slot].has_value = true;
	vt.t[slot].value = value;
}

bool rt_vtime_timer_valid(int slot)
{
	return slot >= 0 && slot < RT_VTIMERS && vt.t[slot].used;
}

void rt_vtime_timer_delete(int slot)
{
	vt.t[slot] = (struct vtimer){ 0 };
	schedule_step();
}

void rt_vtime_timer_get(int slot, uint64_t *value, uint64_t *interval)
{
	struct vtimer *t = &vt.t[slot];
	uint64_t n = now();
	*interval = t->interval;
	*value = t->armed ? (t->due > n ? t->due - n : 1) : 0;
}

void rt_vtime_timer_set(int slot, uint64_t value, uint64_t interval)
{
	struct vtimer *t = &vt.t[slot];
	t->armed = value != 0;
	t->due = now() + value;
	t->interval = interval;
	schedule_step();
}

int rt_vtime_timer_overrun(int slot)
{
	return vt.t[slot].overrun;
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
	uint64_t value, interval;
	rt_vtime_timer_get(0, &value, &interval);
	out->it_interval = tv_of(interval);
	out->it_value = tv_of(value ? (value < 1000 ? 1000 : value) : 0);
}

static void arm(const struct itimerval *v)
{
	rt_vtime_timer_set(0, ns_of(&v->it_value), ns_of(&v->it_interval));
}

RT_INTERPOSE unsigned alarm(unsigned seconds)
{
	if (!rt_modelled_self())
		return NEXT(unsigned (*)(unsigned), "alarm")(seconds);
	uint64_t value, interval;
	rt_vtime_timer_get(0, &value, &interval);
	/* rounded as the kernel does: half a second up, never 0 */
	unsigned left = (unsigned)((value + NS / 2) / NS);
	if (value && left == 0)
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
