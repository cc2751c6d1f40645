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
 * whatever step it names: a later stop may be asked for at any step. It
 * changes the schedule only when the user plays the scheduler: the
 * extension writes a thread into __schedfuzz_debug_next_thread, the next
 * pick that has it among its candidates takes it, and every decision
 * after that takes the default (rt_debug_steer_*, called by rt_sched.c).
 * The decisions that departed from the default so far, encoded at every
 * stop as an explicit genome in __schedfuzz_debug_input, then replay
 * this execution in a fresh process: what `sf save` writes.
 *
 * `schedfuzz replay --interactive` (SCHEDFUZZ_INTERACT) plays the
 * scheduler the same way without gdb: rt_interact.c asks at every pick. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "rt_debug.h"
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

/* Playing the scheduler: the thread (by creation number) the next pick
 * is to take, -1 for none, written by the extension; what became of it
 * (STEER_*), reset by the extension when it asks. The schedule so far:
 * an explicit genome, and where the harness's data starts in
 * SCHEDFUZZ_INPUT (UINT64_MAX: a main() program has none). */
enum { STEER_NONE, STEER_TAKEN, STEER_NOT_RUN };
RT_EXPORT volatile int32_t __schedfuzz_debug_next_thread = -1;
RT_EXPORT volatile int32_t __schedfuzz_debug_steer_result;
RT_EXPORT uint8_t *__schedfuzz_debug_input;
RT_EXPORT uint64_t __schedfuzz_debug_input_size;
RT_EXPORT uint64_t __schedfuzz_debug_data_offset = UINT64_MAX;

bool rt_debug_steering;

static struct {
	bool defaulting; /* a thread was asked for: the default rule from then on */
	struct rt_departures kept; /* the decisions that departed, in order */
	size_t input_cap;
} steer;

static bool debugging, interacting;
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
	rt_report_describe(f, false);
	for (int i = 0; i < rt.nthreads; i++) {
		const struct rt_thread *t = &rt.threads[i];
		if (t->state == T_LIVE)
			fprintf(f, "@lwp %d %d %#" PRIxPTR "\n", t->tid, (int)t->ktid,
				(uintptr_t)(t->wait ? t->wait_site : t->site));
	}
	fclose(f);
}

/* The explicit genome of the departures so far, as rt_record.c writes
 * one at the end: replayed, it takes the same decisions up to here and
 * the default after. */
static void encode_input(void)
{
	struct sf_plan p = { .kind = SF_KIND_EXPLICIT, .seed = rt.plan.seed,
			     .flags = rt.plan.flags & SF_FLAG_NO_SPURIOUS };
	size_t need = sf_genome_encode(&p, steer.kept.dec, steer.kept.n, NULL, 0);
	if (need > steer.input_cap) {
		uint8_t *b = realloc(__schedfuzz_debug_input, need);
		if (!b) {
			__schedfuzz_debug_input_size = 0; /* the extension says it cannot save */
			return;
		}
		__schedfuzz_debug_input = b;
		steer.input_cap = need;
	}
	__schedfuzz_debug_input_size = sf_genome_encode(&p, steer.kept.dec, steer.kept.n,
							__schedfuzz_debug_input, need);
}

int rt_debug_steer_pick(const struct strat_candidate *cand, int n, int idx, int dflt)
{
	int want = __schedfuzz_debug_next_thread;
	if (want >= 0) {
		for (int i = 0; i < n; i++) {
			if (rt.threads[cand[i].tid].tid == want) {
				__schedfuzz_debug_next_thread = -1;
				__schedfuzz_debug_steer_result = STEER_TAKEN;
				steer.defaulting = true;
				return i;
			}
		}
		return idx; /* not a candidate here: the request waits for the next pick */
	}
	int take = steer.defaulting ? dflt : idx;
	if (interacting) {
		int answer = rt_interact_ask(cand, n, take);
		steer.defaulting |= answer != take;
		take = answer;
	}
	return take;
}

uint32_t rt_debug_steer_choice(uint32_t v)
{
	return steer.defaulting ? 0 : v;
}

static void debug_decision(const struct rt_decision *d)
{
	rt_departures_add(&steer.kept, d);
}

static bool debug_on(void)
{
	return debugging && getpid() == debugged;
}

static void debug_begin(void)
{
	const char *s = rt_env_initial("SCHEDFUZZ_DEBUG_STEP");
	interacting = rt_interact_load();
	debugging = (s && *s) || interacting;
	debugged = getpid();
	__schedfuzz_debug_stop_at = s && *s ? strtoull(s, NULL, 10) : 0;
	rt_debug_steering = debugging;
	steer.defaulting = false;
	steer.kept.n = 0;
	__schedfuzz_debug_next_thread = -1;
	__schedfuzz_debug_steer_result = STEER_NONE;
	__schedfuzz_debug_data_offset = rt.harness ? rt.genome_size : UINT64_MAX;
}

static void debug_event(struct rt_thread *self, enum rt_ev ev, uintptr_t addr, struct rt_obj *obj,
			uint32_t size, const void *site, uint8_t flags)
{
	(void)ev, (void)addr, (void)obj, (void)size, (void)flags;
	if (RT_UNLIKELY(__schedfuzz_debug_next_thread >= 0)) {
		/* A step came with the request unmet: no pick had the thread
		 * among its candidates, unless it is the one that runs on. */
		bool met = self->tid == __schedfuzz_debug_next_thread;
		__schedfuzz_debug_steer_result = met ? STEER_TAKEN : STEER_NOT_RUN;
		steer.defaulting |= met;
		__schedfuzz_debug_next_thread = -1;
	}
	if (RT_LIKELY(rt.step != __schedfuzz_debug_stop_at))
		return;
	/* stdio and the symbolizer are the runtime's work, not the program's */
	struct rt_thread *me = rt_own_work_begin();
	describe(site);
	encode_input();
	rt_own_work_end(me);
	__schedfuzz_step_stop(rt.step);
}

const struct rt_observer rt_debug_observer = {
	.name = "debug",
	.on = debug_on,
	.begin = debug_begin,
	.event = debug_event,
	.decision = debug_decision,
};
