/* rt_lifecycle.h - what the rest of the runtime calls of cancellation
 * (rt_cancel.c), signals between controlled threads and virtual-time
 * timers (rt_kill.c, rt_alarm.c) and child processes (rt_process.c).
 *
 * A blocking call that is a cancellation point does two things:
 *   - it calls rt_cancel_point(self) on entry and again once its wait
 *     ended (before it consumes anything: a token, a byte, a child), and
 *   - its wait kind is listed in rt_cancel.c's cancellable[] table, so
 *     that a cancel wakes a thread blocked in it (rt_can_complete asks
 *     rt_cancel_wakes first).
 * That is all a new wait kind needs to be cancellable. */
#ifndef SCHEDFUZZ_RT_LIFECYCLE_H
#define SCHEDFUZZ_RT_LIFECYCLE_H

#include <signal.h>

#include "rt_internal.h"

/* The calling thread, if its calls are to be modelled: a controlled
 * thread of a running execution, and no report being written (the
 * runtime's own symbolizer starts a child, waits for it and for signals). */
static inline struct rt_thread *rt_modelled_self(void)
{
	struct rt_thread *self = rt_self;
	return self && rt.active && !rt.reported ? self : NULL;
}

/* ---- rt_cancel.c ---------------------------------------------------------- */

/* Act on a pending cancel of self, if its cancellation is enabled: the
 * thread ends as by pthread_exit(PTHREAD_CANCELED) (cleanup handlers and
 * C++ forced unwinding run, under control). Returns if there is none. */
static inline void rt_cancel_point(struct rt_thread *self);
RT_HIDDEN RT_NORETURN void rt_cancel_act(struct rt_thread *self);
/* Does a pending cancel end t's wait (enabled, and t waits in a
 * cancellation point)? */
RT_HIDDEN bool rt_cancel_wakes(const struct rt_thread *t);

static inline void rt_cancel_point(struct rt_thread *self)
{
	if (RT_UNLIKELY(self->cancel_pending) && !self->cancel_off)
		rt_cancel_act(self);
}

/* ---- rt_kill.c ------------------------------------------------------------ */

/* Signals sent to the process that every thread blocks: any thread's
 * sigwait may take them, any thread that unblocks one runs its handler
 * (bit sig - 1). */
extern uint64_t rt_proc_sig_pending RT_HIDDEN;
static inline bool rt_signal_waiting(const struct rt_thread *t)
{
	return ((t->sig_pending | rt_proc_sig_pending) & t->sig_waitset) != 0;
}

/* Self is at a scheduling point and not waiting, with signals pending:
 * run the handlers of those its mask lets through, on this thread. */
RT_HIDDEN void rt_signal_deliver(struct rt_thread *self);
/* Is t blocked in a modelled wait (not sigwait) with a signal pending that
 * its mask lets through? Then it is a candidate: picked, it runs the
 * handler inside its wait, as the kernel interrupts a blocked thread. */
RT_HIDDEN bool rt_signal_interrupts(const struct rt_thread *t);
/* A process-directed signal (a timer's): pend it on the thread that
 * would take it (one waiting for it in sigwait, else the first whose mask
 * lets it through, else the first). */
RT_HIDDEN void rt_signal_to_process(int sig);
/* The same with sigqueue's or a timer's value (NULL: none), which an
 * SA_SIGINFO handler and sigwaitinfo then see. */
RT_HIDDEN void rt_signal_queue_to_process(int sig, const union sigval *value);
/* Would sig sent to the process now end it (its default action ends it,
 * no thread waits for it, and some thread lets it through)? */
RT_HIDDEN bool rt_signal_would_end(int sig);

/* ---- rt_exit.c ------------------------------------------------------------ */

/* The process ends: every exit handler has run on the exiting thread, which
 * is still controlled. A scheduling point at which the other threads may
 * still run, as they do until the kernel ends them. */
RT_HIDDEN void rt_exit_last_point(void);

/* ---- rt_time.c ------------------------------------------------------------ */

/* A sleep of ns: a cancellation point, a scheduling point, and ns of
 * virtual time; and a real sleep once a process of the program's own has
 * started. 0, or -1 with errno EINTR and *rem (if rem) the time left. */
RT_HIDDEN int rt_sleep(struct rt_thread *self, uint64_t ns, const void *site, struct timespec *rem);
/* A valid, non-negative relative time in ns, UINT64_MAX past that (a
 * sleep of TIME_T_MAX seconds). */
RT_HIDDEN uint64_t rt_timespec_ns(const struct timespec *ts);
/* A process of the program's own has started: sleeps are real from now
 * on in this execution; and a new execution. */
RT_HIDDEN void rt_sleep_outside(void);
RT_HIDDEN void rt_sleep_reset(void);

/* ---- rt_alarm.c: alarm and setitimer(ITIMER_REAL) in virtual time -------- */

/* Virtual ns per scheduling point: the clock of timers moves with
 * computation too, 10 million points a virtual second (docs/lifecycle.md). */
#define RT_STEP_NS 100u
/* The step at which the armed timer is due if nobody sleeps before;
 * UINT64_MAX with none armed. point() calls rt_vtime_steps once rt.step
 * reaches it. */
extern uint64_t rt_timer_step RT_HIDDEN;
RT_HIDDEN void rt_vtime_steps(void);
/* The virtual timers: slot 0 is alarm/setitimer's, the others
 * timer_create's (rt_timer.c), SIGEV_SIGNAL ones, per execution. */
#define RT_VTIMERS 33
/* A free slot for a timer that sends sig, or -1; and the value it sends
 * with it. */
RT_HIDDEN int rt_vtime_timer_new(int sig);
RT_HIDDEN void rt_vtime_timer_value(int slot, union sigval value);
RT_HIDDEN bool rt_vtime_timer_valid(int slot);
RT_HIDDEN void rt_vtime_timer_delete(int slot);
/* ns until it fires (0: disarmed) and its interval. */
RT_HIDDEN void rt_vtime_timer_get(int slot, uint64_t *value, uint64_t *interval);
/* Armed to fire in value ns (0: disarm), then every interval ns. */
RT_HIDDEN void rt_vtime_timer_set(int slot, uint64_t value, uint64_t interval);
/* Expiries missed at its last one. */
RT_HIDDEN int rt_vtime_timer_overrun(int slot);
/* Self is about to wait for a signal: the schedule decides whether the
 * armed timer is past due already, and fires it then. */
RT_HIDDEN void rt_vtime_before_signal_wait(void);
/* Virtual time passes by ns (a sleep): fire timers it passed. */
RT_HIDDEN void rt_vtime_advance(uint64_t ns);
/* A thread sleeps ns: time passes to the end of the sleep or to the first
 * timer due before it, which fires; the ns that passed. */
RT_HIDDEN uint64_t rt_vtime_sleep(uint64_t ns);
/* A signal pending on t that t does not block: its handler would cut a
 * sleep short. */
RT_HIDDEN bool rt_signal_ready(const struct rt_thread *t);
/* No thread can run: if a timer is armed, let time jump to it and fire
 * it; false if none is armed. */
RT_HIDDEN bool rt_vtime_jump(void);
/* A new execution: no timer, time 0. */
RT_HIDDEN void rt_vtime_reset(void);
RT_HIDDEN bool rt_vtime_armed(void);

/* A new execution: no signal pending, T0's mask read (rt_kill.c). */
RT_HIDDEN void rt_signal_reset(void);
/* A new execution: no timer, no signal pending. */
static inline void rt_lifecycle_reset(void)
{
	rt_vtime_reset();
	rt_signal_reset();
	rt_sleep_reset();
}

/* For the systematic search (rt_search.c): does ev's transition depend on
 * every other? A cancel or a signal acts at whichever point of its target
 * comes next, a child process and a spawned command are outside the
 * model, and while a timer is armed every step moves the clock that
 * fires it, at the point of whichever thread takes that step: DPOR must
 * try them everywhere. */
static inline bool rt_lifecycle_global(enum rt_ev ev)
{
	switch (ev) {
	case EV_CANCEL:
	case EV_TESTCANCEL:
	case EV_KILL:
	case EV_SIGNAL:
	case EV_SIGWAIT:
	case EV_FORK:
	case EV_WAITPID:
	case EV_SPAWN:
		return true;
	default:
		return rt_vtime_armed();
	}
}

#endif
