/* rt_debug.c - a debugger stopped at a scheduling step (`schedfuzz debug`).
 *
 *   SCHEDFUZZ_DEBUG_STEP=N  call __schedfuzz_step_stop at step N, where gdb
 *                           has its breakpoint
 *
 * Steps are counted as the report, the trace and the timeline count them:
 * step N is the Nth event the scheduler logs. This observer hears it
 * right after the thread that performs it was picked and the event
 * logged, and before the operation happens: a stop there is "at the start
 * of step N". Before stopping, the state is written in the report's words
 * (the step's line, each thread's) to __schedfuzz_debug_text, which the
 * gdb extension (fuzz/schedfuzz_gdb.py) shows; the extension moves the
 * next stop forward by writing __schedfuzz_debug_stop_at, and backward by
 * running the program again with another SCHEDFUZZ_DEBUG_STEP.
 *
 * The observer is on for the whole execution once the variable is set,
 * whatever step it names: a later stop may be asked for at any step. Like
 * every observer, it never changes the schedule. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "rt_describe.h"
#include "rt_internal.h"
#include "rt_observer.h"

#define TEXT_CAP (256u << 10)

/* The names below are the extension's interface: keep them. The step to
 * stop at (0: none), written by the debugger; the live step counter; the
 * state at the last stop; the runtime's code, whose frames the extension
 * skips to show the program's. */
RT_EXPORT volatile uint64_t __schedfuzz_debug_stop_at;
RT_EXPORT const uint64_t *const __schedfuzz_debug_steps = &rt.step;
RT_EXPORT char __schedfuzz_debug_text[TEXT_CAP];
extern char __start_schedfuzz_text[], __stop_schedfuzz_text[];
RT_EXPORT const void *const __schedfuzz_debug_code[2] = { __start_schedfuzz_text,
							   __stop_schedfuzz_text };

static bool debugging;
static pid_t debugged; /* the process: a child the program forks is no execution */

/* gdb's breakpoint: its argument is the step. */
RT_EXPORT RT_NOINLINE __attribute__((used)) void __schedfuzz_step_stop(uint64_t step)
{
	__asm__ volatile("" : : "r"(step) : "memory");
}

/* "@where STEP SITE", the step's line and the threads' as the report
 * prints them, then "@lwp T KTID SITE" for each live thread: how the
 * extension finds it among gdb's. A SITE is a return address into the
 * program, where the step's thread or a parked one stands (or 0): the
 * frame the extension selects. */
static void describe(const void *site)
{
	FILE *f = fmemopen(__schedfuzz_debug_text, sizeof __schedfuzz_debug_text - 1, "w");
	if (!f) {
		snprintf(__schedfuzz_debug_text, sizeof __schedfuzz_debug_text,
			 "(the state could not be written)\n");
		return;
	}
	fprintf(f, "@where %" PRIu64 " %#" PRIxPTR "\n", rt.step, (uintptr_t)site);
	rt_report_describe(f);
	for (int i = 0; i < rt.nthreads; i++) {
		const struct rt_thread *t = &rt.threads[i];
		if (t->state == T_LIVE)
			fprintf(f, "@lwp %d %d %#" PRIxPTR "\n", t->tid, (int)t->ktid,
				(uintptr_t)(t->wait ? t->wait_site : t->site));
	}
	fclose(f);
}

static bool debug_on(void)
{
	return debugging && getpid() == debugged;
}

static void debug_begin(void)
{
	const char *s = rt_env_initial("SCHEDFUZZ_DEBUG_STEP");
	debugging = s && *s;
	debugged = getpid();
	__schedfuzz_debug_stop_at = debugging ? strtoull(s, NULL, 10) : 0;
}

static void debug_event(struct rt_thread *self, enum rt_ev ev, uintptr_t addr, struct rt_obj *obj,
			uint32_t size, const void *site, uint8_t flags)
{
	(void)self, (void)ev, (void)addr, (void)obj, (void)size, (void)flags;
	if (RT_LIKELY(rt.step != __schedfuzz_debug_stop_at))
		return;
	/* stdio and the symbolizer are the runtime's work, not the program's */
	struct rt_thread *me = rt_own_work_begin();
	describe(site);
	rt_own_work_end(me);
	__schedfuzz_step_stop(rt.step);
}

const struct rt_observer rt_debug_observer = {
	.name = "debug",
	.on = debug_on,
	.begin = debug_begin,
	.event = debug_event,
};
