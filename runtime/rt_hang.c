/* rt_hang.c - when an execution that does not end is a hang, and how it
 * is reported.
 *
 * Steps alone never make a hang: a long computation, or a thread that
 * waits for a flag while nobody else can run, only runs out of time (the
 * watchdog's deadline). What steps can show is a livelock: threads take
 * turns retrying (yields, failed updates and try-operations) and none
 * makes progress (rt_sched.c says what progress is) for SCHEDFUZZ_MAX_STEPS
 * retries, e.g. two threads that yield to each other forever. Reads alone
 * never count: a long computation repeats them too. A hang that is out of
 * time is reported by the thread that runs: at its next scheduling point if
 * it passes them, else from the watchdog's signal, with its stack, since
 * its site says nothing then. */
#include "rt_internal.h"

/* The hang about to be reported ends where the clock ran out. */
static void out_of_time(void)
{
	if (rt.result)
		rt.result->out_of_time = 1;
}

void rt_livelock_limit_passed(void)
{
	if (rt_watchdog_expired()) {
		out_of_time();
		rt_fail(F_HANG, NULL,
			"still running after %llu ms (%s; %llu scheduling points): an endless "
			"loop, or a program this slow under this schedule (--timeout sets the "
			"limit)",
			(unsigned long long)rt_watchdog_deadline_ms(), rt_watchdog_deadline_source(),
			(unsigned long long)rt.step);
	}
	if (rt.retries >= rt.cfg.livelock_steps) {
		if (rt.retry_switches > 0)
			rt_fail(F_HANG, NULL,
				"livelock: %llu retries and no progress by any thread, while "
				"threads took turns %llu times (SCHEDFUZZ_MAX_STEPS)",
				(unsigned long long)rt.retries,
				(unsigned long long)rt.retry_switches);
		rt.retries = 0; /* one thread alone: only the clock can tell that it hangs */
		return;
	}
	rt.livelock_limit = rt.cfg.livelock_steps; /* lowered for an execution that has ended */
}

void rt_fail_timeout_at(const void *pc)
{
	struct rt_thread *self = rt_self;
	void *frames[RT_STACK_MAX];
	int n = rt_interrupted_stack(pc, frames, RT_STACK_MAX);
	if (n == 0) {
		frames[0] = (void *)pc;
		n = 1;
	}
	/* The program's frames only: the thread's start in the runtime, and
	 * glibc's beneath it, say nothing. */
	int end = 1;
	while (end < n && !rt_in_runtime_code(frames[end]))
		end++;
	rt_report_stack(self->tid, frames, end);
	out_of_time();
	rt_fail(F_HANG, pc,
		"T%d reached no scheduling point since the execution ran out of time (%s): "
		"blocked in a call the runtime does not control, or computing without touching "
		"shared memory",
		self->tid, rt_watchdog_deadline_source());
}

void rt_fail_stuck(void)
{
	/* A report already under way (symbolizing its sites can take seconds
	 * on a loaded machine) ends the process by itself: give it up to 10 s
	 * rather than aborting in the middle of it. */
	for (int i = 0; i < 1000 && __atomic_load_n(&rt.reported, __ATOMIC_RELAXED); i++)
		REAL(nanosleep)(&(struct timespec){ 0, 10000000 }, NULL);
	/* Not a controlled thread: the report names the running one. */
	struct rt_thread *running = rt.running;
	out_of_time();
	rt_fail(F_HANG, running ? running->site : NULL,
		"T%d reached no scheduling point since the execution ran out of time (%s), and "
		"did not take the watchdog's signal: blocked in a call the runtime does not "
		"control, with signals blocked",
		running ? running->tid : -1, rt_watchdog_deadline_source());
}
