/* rt_sched.c - the controlled scheduler: one thread runs at a time, and at
 * every scheduling point the strategy decides which runs next (CHESS).
 *
 * A thread is a candidate for the next step when its pending operation can
 * complete (rt_can_complete), or when it is in a timed wait, which may
 * always complete by timing out. No candidate while threads are unfinished
 * is a deadlock, reported at once. The runtime, not the strategy, keeps
 * the record: the trace ring, the fingerprint of the interleaving, and the
 * decisions that differ from the default (an explicit schedule).
 *
 * A scheduling point comes before its operation: the thread decides (and
 * may be parked), and the event is recorded when the thread goes on to
 * execute it. So the trace, the fingerprint and the change point counts
 * follow the order in which operations really happened.
 *
 * Liveness (CHESS's fair scheduling, PLDI'08, made to fit every strategy):
 * a thread makes *progress* when it writes memory, changes the value of an
 * atomic, reads an address it has not read lately, or leaves a lasting
 * mark on a sync object (a post, a signal, a barrier, a thread created,
 * joined or ended). Reads it repeats, failed compare-exchanges, exchanges
 * that leave the value as it was, failed try-operations, yields and sleeps,
 * and taking and releasing locks (which leaves them as they were) are no
 * progress: that is what every retry loop does, over one address or
 * several (a seqlock reader, a queue consumer polling head and tail, a
 * spin lock with or without sched_yield, a flag polled under a mutex).
 * A thread gives way to the others after RT_SPIN_LIMIT own steps without
 * progress, and after RT_SLICE own steps in a row whatever it does (a time
 * slice: a thread busy forever cannot starve the others either); the
 * strategy hears of it and lowers the thread. A livelock is reported only
 * when threads took turns retrying (yields, failed updates and
 * try-operations) SCHEDFUZZ_MAX_STEPS times and none made progress; one
 * thread alone is never a hang by steps, only by the wall clock
 * (rt_watchdog.c). docs/liveness.md says it all at length. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rt_anchor.h"
#include "rt_debug.h"
#include "rt_internal.h"
#include "rt_observer.h"
#include "rt_warn.h"
#include "rt_own.h"
#include "rt_race.h"
#include "rt_lifecycle.h"

struct rt_state rt;
/* local-exec: every access hook loads it, and the runtime is linked into
 * executables only (schedfuzz-cc links it into no shared object), where
 * it is one instruction, %fs-relative, instead of two. */
__thread struct rt_thread *rt_self __attribute__((tls_model("local-exec")));
__thread struct rt_thread *rt_self_hidden __attribute__((tls_model("initial-exec")));

const char *const rt_ev_names[EV_COUNT] = {
	[EV_READ] = "read",
	[EV_WRITE] = "write",
	[EV_ATOMIC_LOAD] = "atomic load",
	[EV_ATOMIC_STORE] = "atomic store",
	[EV_ATOMIC_RMW] = "atomic rmw",
	[EV_ATOMIC_CAS] = "atomic cas",
	[EV_FENCE] = "fence",
	[EV_THREAD_CREATE] = "create",
	[EV_THREAD_START] = "start",
	[EV_THREAD_JOIN] = "join",
	[EV_THREAD_EXIT] = "exit",
	[EV_MUTEX_LOCK] = "lock",
	[EV_MUTEX_TRYLOCK] = "trylock",
	[EV_MUTEX_UNLOCK] = "unlock",
	[EV_COND_WAIT] = "cond wait",
	[EV_COND_WAKE] = "cond wake",
	[EV_COND_SIGNAL] = "cond signal",
	[EV_COND_BROADCAST] = "cond broadcast",
	[EV_RW_RDLOCK] = "rdlock",
	[EV_RW_WRLOCK] = "wrlock",
	[EV_RW_UNLOCK] = "rw unlock",
	[EV_SEM_WAIT] = "sem wait",
	[EV_SEM_POST] = "sem post",
	[EV_BARRIER_WAIT] = "barrier wait",
	[EV_ONCE] = "once",
	[EV_YIELD] = "yield",
	[EV_SLEEP] = "sleep",
	[EV_PROC_EXIT] = "process exit",
	[EV_FD_IO] = "fd io",
	[EV_FUTEX_WAIT] = "futex wait",
	[EV_FUTEX_WAKE] = "futex wake",
	[EV_CANCEL] = "cancel",
	[EV_TESTCANCEL] = "testcancel",
	[EV_KILL] = "kill",
	[EV_SIGNAL] = "signal",
	[EV_SIGWAIT] = "sigwait",
	[EV_FORK] = "fork",
	[EV_WAITPID] = "waitpid",
	[EV_SPAWN] = "spawn",
};
_Static_assert(sizeof rt_ev_names / sizeof rt_ev_names[0] == EV_COUNT, "name every event");

const char *const rt_wait_names[W_COUNT] = {
	[W_NONE] = "nothing",
	[W_MUTEX] = "lock",
	[W_COND] = "condition",
	[W_RDLOCK] = "read lock",
	[W_WRLOCK] = "write lock",
	[W_SEM] = "semaphore",
	[W_BARRIER] = "barrier",
	[W_JOIN] = "join",
	[W_ONCE] = "once",
	[W_OTHERS] = "all threads to exit",
	[W_EXTERNAL] = "external",
	[W_SIGNAL] = "signal",
	[W_CHILD] = "child process",
};
_Static_assert(sizeof rt_wait_names / sizeof rt_wait_names[0] == W_COUNT, "name every wait");

/* ---- futex handoff ------------------------------------------------------ */

/* The system call made here, not through libc's syscall(): a thread
 * parked in it is then, for the watchdog's signal, inside the runtime's
 * own code (rt_section.h), where it must not be preempted. */
static long futex(_Atomic uint32_t *word, int op, uint32_t val)
{
#ifdef __x86_64__
	long r;
	register void *timeout __asm__("r10") = NULL;
	__asm__ volatile("syscall"
			 : "=a"(r)
			 : "0"((long)SYS_futex), "D"(word), "S"((long)op), "d"((long)val),
			   "r"(timeout)
			 : "rcx", "r11", "memory");
	return r;
#else
	return syscall(SYS_futex, word, op, val, NULL, NULL, 0);
#endif
}

void rt_futex_wait(_Atomic uint32_t *word, uint32_t val)
{
	futex(word, FUTEX_WAIT_PRIVATE, val);
}

void rt_futex_wake(_Atomic uint32_t *word)
{
	futex(word, FUTEX_WAKE_PRIVATE, 1);
}

/* A thread's go word: 0 while it must wait, 1 once it may run, 2 while it
 * sleeps in the kernel for it. Only a sleeper costs its waker a system
 * call: a thread handed the CPU before it got to wait (a new thread still
 * starting, a switch straight back) just finds its word set. */
enum { GO_WAIT, GO_RUN, GO_SLEEPING };

void rt_park(_Atomic uint32_t *go)
{
	uint32_t v = atomic_load_explicit(go, memory_order_acquire);
	while (v != GO_RUN) {
		if (v == GO_WAIT && !atomic_compare_exchange_weak_explicit(go, &v, GO_SLEEPING,
									   memory_order_acquire,
									   memory_order_acquire))
			continue; /* v is the word's value now */
		rt_futex_wait(go, GO_SLEEPING);
		v = atomic_load_explicit(go, memory_order_acquire);
	}
}

static void hand_to(struct rt_thread *next)
{
	next->switched_in_at = rt.step;
	rt.running = next;
	rt.handoffs++;
	if (atomic_exchange_explicit(&next->go, GO_RUN, memory_order_release) == GO_SLEEPING)
		rt_futex_wake(&next->go);
}

/* Park self until somebody hands the CPU back. go is cleared before the
 * hand-off so that an immediate handoff back to self is never lost. */
static void switch_to(struct rt_thread *self, struct rt_thread *next)
{
	atomic_store_explicit(&self->go, GO_WAIT, memory_order_relaxed);
	hand_to(next);
	rt_park(&self->go);
}

/* ---- candidates ---------------------------------------------------------- */

bool rt_can_complete(const struct rt_thread *t)
{
	if (t->state != T_LIVE)
		return false;
	if (RT_UNLIKELY(t->cancel_pending) && rt_cancel_wakes(t))
		return true;
	if (RT_UNLIKELY(t->sig_pending) && rt_signal_interrupts(t))
		return true;
	switch (t->wait) {
	case W_NONE:
		return true;
	case W_MUTEX:
		return t->wobj->mutex.owner == NULL;
	case W_COND:
		return false; /* a signal moves the waiter to W_MUTEX */
	case W_RDLOCK:
		return t->wobj->rw.writer == NULL;
	case W_WRLOCK:
		return t->wobj->rw.writer == NULL && t->wobj->rw.readers == 0;
	case W_SEM:
		return t->wobj->sem.value > 0;
	case W_BARRIER:
		return t->wobj->barrier.round != t->wait_round;
	case W_JOIN:
		return t->join_target->state == T_FINISHED;
	case W_ONCE:
		return t->wobj->once.runner == NULL;
	case W_OTHERS:
		for (int i = 0; i < rt.nthreads; i++)
			if (&rt.threads[i] != t && rt.threads[i].state == T_LIVE)
				return false;
		return true;
	case W_EXTERNAL:
		return t->ext->interrupted || t->ext->ops->ready(t->ext);
	case W_SIGNAL:
		return rt_signal_waiting(t);
	case W_CHILD:
		return false; /* a timed wait: picked, it looks at the child (rt_process.c) */
	case W_COUNT:
		break;
	}
	return false;
}

static void refresh(void)
{
	rt.ncand = 0;
	for (int i = 0; i < rt.nthreads; i++) {
		struct rt_thread *t = &rt.threads[i];
		if (t->state != T_LIVE)
			continue;
		bool can = rt_can_complete(t);
		if (can || t->timed) {
			rt.cand[rt.ncand].tid = (uint16_t)t->slot;
			rt.cand[rt.ncand].timeout = !can;
			rt.ncand++;
		}
	}
	rt.solo = rt.ncand == 1 && !rt.cand[0].timeout ? rt.cand[0].tid + 1 : 0;
	rt.dirty = false;
}

/* ---- the record ---------------------------------------------------------- */

/* Lock acquisitions, as RPRO's deadlock mode counts them: taking a lock
 * of any kind, retaking a mutex after a condition wait, a semaphore wait.
 * A trylock counts whether or not it succeeds. */
static const uint8_t ev_is_lock[EV_COUNT] = {
	[EV_MUTEX_LOCK] = 1, [EV_MUTEX_TRYLOCK] = 1, [EV_RW_RDLOCK] = 1, [EV_RW_WRLOCK] = 1,
	[EV_COND_WAIT] = 1,  [EV_COND_WAKE] = 1,     [EV_SEM_WAIT] = 1,
};

/* Events that are no progress by themselves (see the top of the file):
 * a read is progress when fresh (read_seen), an atomic update when it
 * changed the value (rt_abi.c). */
static const uint8_t ev_is_idle[EV_COUNT] = {
	[EV_READ] = 1,	      [EV_ATOMIC_LOAD] = 1,  [EV_ATOMIC_RMW] = 1, [EV_ATOMIC_CAS] = 1,
	[EV_FENCE] = 1,	      [EV_YIELD] = 1,	     [EV_SLEEP] = 1,	  [EV_MUTEX_LOCK] = 1,
	[EV_MUTEX_TRYLOCK] = 1, [EV_MUTEX_UNLOCK] = 1, [EV_RW_RDLOCK] = 1,  [EV_RW_WRLOCK] = 1,
	[EV_RW_UNLOCK] = 1,   [EV_TESTCANCEL] = 1,   [EV_WAITPID] = 1,
};

/* Events that retry: what a livelock is made of, unlike reads, which a
 * long computation repeats too (an atomic update that changed its value
 * is progress after all). */
static const uint8_t ev_is_retry[EV_COUNT] = {
	[EV_ATOMIC_RMW] = 1, [EV_ATOMIC_CAS] = 1,     [EV_YIELD] = 1,
	[EV_SLEEP] = 1,	     [EV_MUTEX_TRYLOCK] = 1, [EV_TESTCANCEL] = 1, [EV_WAITPID] = 1,
};

static const uint8_t ev_is_memory[EV_COUNT] = {
	[EV_READ] = 1,	      [EV_WRITE] = 1,	   [EV_ATOMIC_LOAD] = 1,
	[EV_ATOMIC_STORE] = 1, [EV_ATOMIC_RMW] = 1, [EV_ATOMIC_CAS] = 1,
};

void rt_fire(int stream, uint64_t count, struct rt_thread *self)
{
	rt.counting.next[stream] = rt.strat->fire(rt.sstate, stream, count, self->slot);
}

/* The event just recorded counts toward the strategy's change points. */
static RT_NOINLINE void count(struct rt_thread *self, enum rt_ev ev, uintptr_t addr)
{
	switch (rt.counting.what) {
	case SF_COUNT_EVENTS:
		if (rt.step == rt.counting.next[0])
			rt_fire(0, rt.step, self);
		break;
	case SF_COUNT_LOCKS:
		if (ev_is_lock[ev] && rt.locks == rt.counting.next[0])
			rt_fire(0, rt.locks, self);
		break;
	case SF_COUNT_VARS:
		if (ev_is_memory[ev])
			rt_vars_access(self, addr);
		break;
	case SF_COUNT_ROLES:
		if (self->stream && self->events == rt.counting.next[self->stream - 1])
			rt_fire(self->stream - 1, self->events, self);
		break;
	case SF_COUNT_NONE:
		break;
	}
}

/* The event in the trace, the fingerprint and the progress counters;
 * returns its RT_EVF_* flags. */
static inline __attribute__((always_inline)) uint8_t log_event(struct rt_thread *self,
							       enum rt_ev ev, uintptr_t addr,
							       struct rt_obj *obj, uint32_t size,
							       const void *site)
{
	uint64_t s = ++rt.step;
	struct rt_event *e = &rt.trace[s & (RT_TRACE_SIZE - 1)];
	uint8_t flags = 0;
	if (self->tid != rt.last_tid) {
		flags = RT_EVF_SWITCH;
		if (rt.preempt_pending)
			flags |= RT_EVF_PREEMPT;
		rt.preempt_pending = false;
		rt.last_tid = self->tid;
	}
	e->site = site;
	e->addr = addr;
	e->obj_id = obj ? obj->id : 0;
	e->tid = (uint16_t)self->tid;
	e->kind = (uint8_t)ev;
	e->flags = flags;
	e->size = size;
	self->site = site;
	self->events++;
	uint64_t v = rt_stable_site(site) ^ ((uint64_t)ev << 40) ^ ((uint64_t)self->tid << 48);
	rt.fingerprint = (rt.fingerprint ^ v) * 0x100000001b3ull;
	rt.locks += ev_is_lock[ev];
	if (ev_is_idle[ev] || self->trying)
		rt.retries += ev_is_retry[ev] || self->trying;
	else
		rt_progress(self);
	return flags;
}

/* An event at a point: logged, counted toward change points, observed. */
static inline __attribute__((always_inline)) void record(struct rt_thread *self, enum rt_ev ev,
							  uintptr_t addr, struct rt_obj *obj,
							  uint32_t size, const void *site)
{
	uint8_t flags = log_event(self, ev, addr, obj, size, site);
	if (RT_UNLIKELY(rt.counting.what != SF_COUNT_NONE))
		count(self, ev, addr);
	if (RT_UNLIKELY(rt.observed)) /* one test for every observer */
		rt_observe_event(self, ev, addr, obj, size, site, flags);
}

/* ---- decisions ----------------------------------------------------------- */

/* The thread to run next among n >= 1 candidates: the strategy decides when
 * there is a choice, and the decision is numbered and, when it differs
 * from the default, recorded. A pick of a thread whose wait cannot
 * complete is its timeout. */
static struct rt_thread *pick(const struct strat_candidate *cand, int n, int current, bool tick)
{
	int idx = 0;
	if (n > 1) {
		struct strat_view view = { .step = rt.step, .current = current, .cand = cand, .ncand = n,
					   .tick = tick };
		uint32_t d = (uint32_t)rt.ndecisions++;
		int dflt = strat_default_pick(&view);
		idx = rt.strat->pick(rt.sstate, &view);
		if (idx < 0 || idx >= n)
			idx = dflt;
		if (RT_UNLIKELY(rt_anchors_on)) { /* a portable reproducer's decision */
			int want = rt_anchors_want(rt_self, false);
			for (int i = 0; want >= 0 && i < n; i++)
				if (rt.threads[cand[i].tid].tid == want)
					idx = i;
		}
		if (RT_UNLIKELY(rt_debug_steering)) /* gdb or replay --interactive plays the scheduler */
			idx = rt_debug_steer_pick(cand, n, idx, dflt);
		if (RT_UNLIKELY(rt_observing.ndecision))
			rt_observe_decision(&(struct rt_decision){
				.index = d, .departs = idx != dflt, .value = cand[idx].tid,
				.n = (uint32_t)n, .cand = cand, .chosen = idx, .dflt = dflt,
				.current = current });
	}
	struct rt_thread *next = &rt.threads[cand[idx].tid];
	next->timed_out = cand[idx].timeout;
	return next;
}

/* The common case needs no decision: self is the only candidate. */
static inline bool only_self(const struct rt_thread *self)
{
	return !rt.dirty && rt.solo == self->slot + 1;
}

/* The candidates but self and timeouts (when others, not self, must run:
 * a timed wait times out only when nothing else can happen) and but the
 * threads held off after an asynchronous preemption (when holds count).
 * Returns how many are in out; *held says whether a hold was in force. */
static int candidates_but(const struct rt_thread *self, bool others, bool holds,
			  struct strat_candidate *out, bool *held)
{
	int m = 0;
	for (int i = 0; i < rt.ncand; i++) {
		const struct strat_candidate *c = &rt.cand[i];
		if (others && (c->tid == self->slot || c->timeout))
			continue;
		if (rt.threads[c->tid].hold_until > rt.step) {
			*held = true;
			if (holds)
				continue;
		}
		out[m++] = *c;
	}
	return m;
}

/* The other threads whose timed waits can only time out. A thread that
 * gives way while only they could run spins without progress, and under
 * virtual time its spinning (its sleeps, its retries) lets time pass: one
 * of them times out, as under a fair scheduler with a real clock, rather
 * than the spinner going on forever (a thread polling a flag with usleep
 * while another waits in poll() with a timeout to set it). */
static int timeouts_of_others(const struct rt_thread *self, struct strat_candidate *out)
{
	int m = 0;
	for (int i = 0; i < rt.ncand; i++)
		if (rt.cand[i].tid != self->slot && rt.cand[i].timeout)
			out[m++] = rt.cand[i];
	return m;
}

static void switch_away(struct rt_thread *self, struct rt_thread *next, bool self_can)
{
	rt.retry_switches++;
	rt.preempt_pending = self_can;
	rt.preemptions += self_can;
	switch_to(self, next);
}

static void decide_next(struct rt_thread *self);

/* The program's errno is left as it was: deciding may poll descriptors,
 * read clocks, write a trace and park in the kernel, all of it the
 * runtime's own business (docs/runtime.md: what a call leaves behind). */
static RT_NOINLINE void decide(struct rt_thread *self)
{
	int saved_errno = errno;
	decide_next(self);
	errno = saved_errno;
}

static void decide_next(struct rt_thread *self)
{
	if (rt.dirty)
		refresh();
	if (RT_LIKELY(only_self(self)))
		return;
	/* A timer, or a wait the kernel ends, may be what everybody waits for. */
	while (rt.ncand == 0) {
		if (!rt_vtime_jump() && !(rt.npolled && rt_ext_idle()))
			rt_fail_deadlock();
		refresh();
	}

	/* Private writes are progress as much as the writes that are points:
	 * a worker that updates its own data between taking and releasing a
	 * lock is no spin, whether or not its memory is shared yet. */
	if (self->own_wrote) {
		self->own_wrote = false;
		rt_progress(self);
	}
	bool self_can = rt_can_complete(self);
	const struct strat_candidate *cand = rt.cand;
	int n = rt.ncand;
	struct strat_candidate fair[RT_MAX_THREADS];

	/* Fairness: a thread without progress for a while, or running for a
	 * whole slice, gives way to the others for this decision, and the
	 * strategy hears of it (PCT lowers it below everybody). Threads held
	 * off run only when nobody else can. */
	uint64_t ran = rt.step - self->switched_in_at;
	uint64_t since = self->progressed_at > self->switched_in_at ? self->progressed_at
								    : self->switched_in_at;
	bool give_way = self_can && n > 1 && (rt.step - since > RT_SPIN_LIMIT || ran > RT_SLICE);
	if (give_way || rt.held_off) {
		bool held = false;
		n = candidates_but(self, give_way, true, fair, &held);
		rt.held_off = held;
		if (n == 0) /* only held-off threads are left: they may run after all */
			n = candidates_but(self, give_way, false, fair, &held);
		if (n == 0 && give_way) /* others only in timed waits: time passes */
			n = timeouts_of_others(self, fair);
		if (n == 0) { /* only self: self goes on */
			give_way = false;
			n = candidates_but(self, false, false, fair, &held);
		}
		cand = fair;
		if (give_way)
			rt.strat->note(rt.sstate, STRAT_NOTE_STARVING, self->slot, rt.step);
	}

	struct rt_thread *next = pick(cand, n, self_can ? self->slot : -1, self->at_tick);
	if (next == self)
		return;
	switch_away(self, next, self_can);
}

void rt_preempt_async(struct rt_thread *self, const void *pc)
{
	refresh();
	struct strat_candidate others[RT_MAX_THREADS];
	bool held = false;
	int m = candidates_but(self, true, false, others, &held);
	if (m == 0)
		return; /* nobody else can run: let it go on (a long computation) */

	struct rt_result *r = rt.result;
	if (r && r->async++ == 0) {
		r->async_tid = (uint32_t)self->tid;
		r->async_site = (uintptr_t)pc;
	}
	/* It spins on something the runtime cannot see (inline assembly,
	 * uninstrumented code, a raw futex): hold it off for a number of
	 * steps that doubles each time in a row, so that whoever it waits
	 * for can get there. The pick is no numbered decision: the moment of
	 * the preemption came from the clock, not the schedule. */
	self->holds++;
	self->hold_until = rt.step + (64ull << (self->holds < 16 ? self->holds : 16));
	rt.held_off = true;
	rt.strat->note(rt.sstate, STRAT_NOTE_STARVING, self->slot, rt.step);
	int idx = rt.strat->pick(rt.sstate, &(struct strat_view){ .step = rt.step, .current = -1,
								  .cand = others, .ncand = m });
	if (idx < 0 || idx >= m)
		idx = 0;
	struct rt_thread *next = &rt.threads[others[idx].tid];
	next->timed_out = false;
	self->site = pc;
	switch_away(self, next, true);
}

uint32_t rt_choose(enum strat_choice what, uint32_t n)
{
	uint32_t d = (uint32_t)rt.ndecisions++;
	uint32_t v = rt.strat->choose(rt.sstate, what, n, rt.step);
	if (v >= n)
		v = 0;
	if (RT_UNLIKELY(rt_anchors_on)) {
		int want = rt_anchors_want(rt_self, true);
		if (want >= 0 && (uint32_t)want < n)
			v = (uint32_t)want;
	}
	if (RT_UNLIKELY(rt_debug_steering))
		v = rt_debug_steer_choice(v);
	if (RT_UNLIKELY(rt_observing.ndecision))
		rt_observe_decision(&(struct rt_decision){
			.index = d, .choice = true, .departs = v != 0, .value = v, .n = n });
	return v;
}

/* A scheduling point. Inlined where the kind of event is known (the
 * memory accesses below), so that the tests of the event's kind fold
 * away. */
static inline __attribute__((always_inline)) void point(struct rt_thread *self, enum rt_ev ev,
							 uintptr_t addr, struct rt_obj *obj,
							 uint32_t size, const void *site)
{
	if (RT_UNLIKELY(rt.reported))
		return; /* the report is being written: nothing happens any more */
	/* A wait the kernel ends may become ready without any call of ours
	 * (another process, the clock, a write inside libc): look again now
	 * and then. */
	if (RT_UNLIKELY(rt.npolled) && (rt.step & 63) == 0)
		rt.dirty = true;
	if (RT_UNLIKELY(rt.step >= rt_timer_step))
		rt_vtime_steps(); /* computation moved the clock past a timer */
	if (RT_UNLIKELY(self->sig_pending | rt_proc_sig_pending) && self->wait == W_NONE)
		rt_signal_deliver(self); /* before its operation, as the kernel would */
	if (!only_self(self)) {
		self->site = site; /* where it stands while others run */
		self->pend_ev = (uint8_t)ev;
		self->pend_addr = addr;
		self->pend_obj = obj;
		self->pend_size = size;
		self->pend_site = site;
		decide(self);
	}
	record(self, ev, addr, obj, size, site);
	if (ev != EV_READ && ev != EV_WRITE && ev != EV_ATOMIC_LOAD)
		rt_own_published(self); /* plain writes: rt_access */
	if (RT_UNLIKELY(rt.retries >= __atomic_load_n(&rt.livelock_limit, __ATOMIC_RELAXED)))
		rt_livelock_limit_passed();
}

/* The scheduling point of every modelled call: whatever the runtime does
 * here (a trace, a signal's bookkeeping) leaves errno alone. */
void rt_point(struct rt_thread *self, enum rt_ev ev, uintptr_t addr, struct rt_obj *obj,
	      uint32_t size, const void *site)
{
	int saved_errno = errno;
	point(self, ev, addr, obj, size, site);
	errno = saved_errno;
}

void rt_point_try(struct rt_thread *self, enum rt_ev ev, struct rt_obj *obj, const void *site)
{
	self->trying = true;
	rt_point(self, ev, obj ? obj->addr : 0, obj, 0, site);
	self->trying = false;
}

void rt_exit_point(struct rt_thread *self, const void *site)
{
	rt_point(self, EV_PROC_EXIT, 0, NULL, 0, site);
	/* Measured now; exit handlers and destructors still run under
	 * control (a pool's destructor may join its workers), and a failure
	 * there publishes its own result. */
	rt_result_publish(F_NONE);
}

int rt_block(struct rt_thread *self, enum rt_ev ev, const void *site)
{
	return rt_block_at(self, ev, self->wobj ? self->wobj->addr : 0, site);
}

/* Picked with a signal pending: its handler runs inside the wait, with the
 * thread runnable meanwhile (the handler may wait for others itself). A
 * condition wait then returns, as if spuriously (POSIX allows it, and a
 * signal of the condition meanwhile would otherwise be lost); every other
 * wait is on state, not events, and resumes. True if the wait ends. */
static bool handler_in_wait(struct rt_thread *self)
{
	struct {
		enum rt_wait wait;
		struct rt_obj *wobj, *cond_mutex;
		struct rt_thread *join_target;
		uint64_t wait_round;
		bool timed, signalled;
		struct rt_ext *ext;
		pid_t wait_pid;
	} saved = { self->wait,	       self->wobj,  self->cond_mutex, self->join_target,
		    self->wait_round,  self->timed, self->signalled,  self->ext,
		    self->wait_pid };
	self->wait = W_NONE;
	rt_changed();
	rt_signal_deliver(self);
	if (saved.wait == W_COND)
		return true;
	self->wait = saved.wait;
	self->wobj = saved.wobj;
	self->cond_mutex = saved.cond_mutex;
	self->join_target = saved.join_target;
	self->wait_round = saved.wait_round;
	self->timed = saved.timed;
	self->signalled = saved.signalled;
	self->ext = saved.ext;
	self->wait_pid = saved.wait_pid;
	rt_changed();
	return false;
}

int rt_block_at(struct rt_thread *self, enum rt_ev ev, uintptr_t addr, const void *site)
{
	struct rt_obj *o = self->wobj;
	self->wait_site = site;
	self->timed_out = false;
	rt_changed();
	for (;;) {
		if (RT_UNLIKELY(rt_observing.nblock) && ev != EV_COUNT && !rt_can_complete(self))
			rt_observe_block(self, ev, o, site);
		if (ev == EV_COUNT) { /* the caller recorded the event already */
			self->pend_ev = EV_COUNT;
			self->pend_site = site;
			decide(self);
			if (RT_UNLIKELY(rt_observing.nresume))
				rt_observe_resume(self);
		} else
			rt_point(self, ev, addr, o, 0, site);
		if (RT_LIKELY(!self->sig_pending) || self->timed_out || !rt_signal_interrupts(self) ||
		    handler_in_wait(self))
			break;
	}
	/* Picked: the operation can complete, the wait timed out, or a
	 * signal's handler ended a condition wait. */
	int r = self->timed_out ? ETIMEDOUT : 0;
	self->wait = W_NONE;
	self->timed = false;
	self->timed_out = false;
	rt_changed();
	return r;
}

/* The last RT_RECENT distinct addresses the thread read, searched in
 * full: a retry loop over up to that many addresses always hits. */
static inline __attribute__((always_inline)) void read_seen(struct rt_thread *self,
							     uintptr_t addr)
{
	for (int i = 0; i < RT_RECENT; i++)
		if (self->recent[i] == addr)
			return;
	self->recent[self->nrecent++ & (RT_RECENT - 1)] = addr;
	rt_progress(self);
}

static inline __attribute__((always_inline)) void access_point(struct rt_thread *self,
								uintptr_t addr, uint32_t size,
								bool write, const void *site)
{
	if (write) {
		point(self, EV_WRITE, addr, NULL, size, site);
	} else {
		point(self, EV_READ, addr, NULL, size, site);
		read_seen(self, addr);
	}
}

/* Memory whose accesses are points at all: not in the runtime's own
 * unwatched range, which is all memory with SCHEDFUZZ_MEMORY=0
 * (rt_driver.c). */
static inline __attribute__((always_inline)) bool watched(uintptr_t addr)
{
	return addr - rt.unwatched_lo >= rt.unwatched_size;
}

/* The memory event about to be logged fires no change point (count()):
 * nothing is counted, or lock acquisitions, or events and this is not the
 * one a change point waits for. */
static inline __attribute__((always_inline)) bool fires_nothing(void)
{
	return rt.counting.what == SF_COUNT_NONE || rt.counting.what == SF_COUNT_LOCKS ||
	       (rt.counting.what == SF_COUNT_EVENTS && rt.step + 1 != rt.counting.next[0]);
}

/* Nothing to do at a memory access's point but log it: no report under
 * way, no wait the kernel ends to look at, no signal to deliver, no timer
 * due, self the only candidate, no change point due, and no coverage,
 * trace or search listening. */
static inline __attribute__((always_inline)) bool point_only_logs(const struct rt_thread *self)
{
	return !(rt.reported | rt.observed | self->trying) && !rt.npolled &&
	       !(self->sig_pending | rt_proc_sig_pending) && rt.step < rt_timer_step &&
	       only_self(self) && fires_nothing();
}

/* ... and the retries below the livelock bound: the events logged then
 * leave them as they are or zero them, so point()'s test after the event
 * would not call rt_livelock_limit_passed either. */
static inline __attribute__((always_inline)) bool point_only_logs_here(const struct rt_thread *self)
{
	return point_only_logs(self) &&
	       rt.retries < __atomic_load_n(&rt.livelock_limit, __ATOMIC_RELAXED);
}

/* After a point on memory shared already (on purpose, or two threads'):
 * a write published, a read (plain, volatile or atomic) progress when
 * fresh. */
static inline __attribute__((always_inline)) void after_shared(struct rt_thread *self,
								enum rt_ev ev, uintptr_t addr)
{
	if (ev == EV_WRITE)
		rt_own_published(self);
	else
		read_seen(self, addr);
}

/* The tick (rt_own.h): a point in the middle of private work, where the
 * strategy hears that no shared memory is touched (strat_view.tick). */
static RT_NOINLINE void tick_point(struct rt_thread *self, uintptr_t addr, uint32_t size,
				   bool write, const void *site)
{
	self->at_tick = true;
	access_point(self, addr, size, write, site);
	self->at_tick = false;
}

void rt_access(struct rt_thread *self, uintptr_t addr, uint32_t size, bool write, const void *site)
{
	if (RT_UNLIKELY(!rt.cfg.memory_points)) {
		rt_own_unwatched(self);
		return;
	}
	if (addr - self->stack_lo < self->stack_size) { /* private by construction */
		rt_own_stack(self, addr, size);
		/* The tick counts stack accesses too: a computation on its
		 * stack still reaches points when the count ends there. */
		if (RT_UNLIKELY(rt_own_tick_due(self)))
			tick_point(self, addr, size, write, site);
		return;
	}
	if (!watched(addr))
		return;
	/* Memory shared already and nothing to do at the point but log it:
	 * the common case of data two threads use (a buffer the main thread
	 * refills and a worker reads), done as shared_point does it for a
	 * volatile access, without the ownership walk and the point's calls
	 * (docs/cost.md: zstd's points). The same effects as below. */
	if (rt_own_is_shared(addr, size) && point_only_logs_here(self)) {
		enum rt_ev ev = write ? EV_WRITE : EV_READ;
		rt_own_shared_access(self);
		log_event(self, ev, addr, NULL, size, site);
		after_shared(self, ev, addr);
		rt_race_access(self, addr, size, write, site);
		return;
	}
	enum rt_own_verdict v = rt_own_point(self, addr, size, write, site);
	if (v == RT_OWN_PASS) {
		self->own_wrote |= write;
	} else if (v == RT_OWN_POINT_TICK) {
		tick_point(self, addr, size, write, site);
	} else {
		access_point(self, addr, size, write, site);
		if (write && v == RT_OWN_POINT_SHARED)
			rt_own_published(self);
	}
	/* After its point: the access happens now, when the threads that ran
	 * meanwhile have made theirs. */
	rt_race_access(self, addr, size, write, site);
}

static RT_NOINLINE void shared_point_slow(struct rt_thread *self, uintptr_t addr, uint32_t size,
					  enum rt_ev ev, const void *site)
{
	rt_own_share(addr, size);
	point(self, ev, addr, NULL, size, site);
	after_shared(self, ev, addr);
}

/* Its common case, memory shared already and nothing to do at the point
 * but log it, is tested first and then done with no call (hook_ns): what
 * shared_point_slow does in that case, and no more. */
static inline __attribute__((always_inline)) void shared_point(struct rt_thread *self,
								uintptr_t addr, uint32_t size,
								enum rt_ev ev, const void *site)
{
	if (RT_UNLIKELY(!rt_own_is_shared(addr, size) || !point_only_logs_here(self))) {
		shared_point_slow(self, addr, size, ev, site);
		return;
	}
	log_event(self, ev, addr, NULL, size, site);
	after_shared(self, ev, addr);
}

/* The TSan ABI's volatile access hooks (rt_abi.c has the others). A
 * volatile access is a scheduling point even on the thread's own stack:
 * volatile there means another thread may touch it (a spin on a queue
 * node on the waiter's stack, as an MCS lock has). They are here, in the
 * runtime's section, rather than with the other hooks: every one of them
 * is a point, and here the access's size folds into shared_point's tests
 * (hook_ns). The race detector leaves them out, as the kernel's KCSAN
 * does: a volatile access is marked shared on purpose (docs/races.md). */
static inline __attribute__((always_inline)) void volatile_access(const volatile void *p,
								   uint32_t size, enum rt_ev ev,
								   const void *site)
{
	struct rt_thread *self = rt_self;
	if (self && watched((uintptr_t)p))
		shared_point(self, (uintptr_t)p, size, ev, site);
}

#define VOLATILE_HOOKS(N)                                                                   \
	RT_EXPORT void __tsan_volatile_read##N(void *p) { volatile_access(p, N, EV_READ, RT_CALLER()); } \
	RT_EXPORT void __tsan_volatile_write##N(void *p)                                      \
	{                                                                                     \
		volatile_access(p, N, EV_WRITE, RT_CALLER());                                 \
	}                                                                                     \
	RT_EXPORT void __tsan_unaligned_volatile_read##N(void *p)                             \
	{                                                                                     \
		volatile_access(p, N, EV_READ, RT_CALLER());                                  \
	}                                                                                     \
	RT_EXPORT void __tsan_unaligned_volatile_write##N(void *p)                            \
	{                                                                                     \
		volatile_access(p, N, EV_WRITE, RT_CALLER());                                 \
	}

VOLATILE_HOOKS(1)
VOLATILE_HOOKS(2)
VOLATILE_HOOKS(4)
VOLATILE_HOOKS(8)
VOLATILE_HOOKS(16)

void rt_atomic_load_point(struct rt_thread *self, uintptr_t addr, uint32_t size, const void *site)
{
	shared_point(self, addr, size, EV_ATOMIC_LOAD, site);
}

void rt_thread_started(struct rt_thread *self)
{
	/* Its stack (and the TLS glibc keeps at its top) may be an ended
	 * thread's: what was recorded there is not this thread's. */
	rt_race_forget(self->stack_lo, self->stack_size);
	record(self, EV_THREAD_START, 0, NULL, 0, self->site);
}

void rt_thread_finish(struct rt_thread *self)
{
	rt_race_finished(self);
	record(self, EV_THREAD_EXIT, 0, NULL, 0, self->site);
	rt_roles_ended(self);
	self->state = T_FINISHED;
	rt_release_slot(self); /* if it was detached */
	self->hold_until = 0;
	rt_changed();
	refresh();
	while (rt.ncand == 0 && (rt_vtime_jump() || (rt.npolled && rt_ext_idle())))
		refresh();
	if (rt.ncand == 0) {
		for (int i = 0; i < rt.nthreads; i++)
			if (rt.threads[i].state == T_LIVE)
				rt_fail_deadlock();
		/* The last thread of a main() that called pthread_exit: the
		 * process ends with it, and glibc's exit passes by us. */
		if (!rt.harness)
			rt_exec_end();
		rt_set_self(NULL);
		return;
	}
	self->pend_ev = EV_THREAD_EXIT; /* its decision follows its last event */
	self->pend_site = self->site;
	struct rt_thread *next = pick(rt.cand, rt.ncand, -1, false);
	rt_set_self(NULL);
	hand_to(next);
}

/* ---- held locks, for reports and ownership checks ------------------------- */

struct rt_held *rt_held_find(struct rt_thread *t, struct rt_obj *o)
{
	for (int i = 0; i < t->nheld; i++)
		if (t->held[i].obj == o)
			return &t->held[i];
	return NULL;
}

/* A read-write lock's readers release to a clock of their own (addr + 1),
 * which its writers acquire too: readers are not ordered with each other. */
void rt_held_add(struct rt_thread *t, struct rt_obj *o, bool write)
{
	rt_observe_sync(t, o, o->type == O_RWLOCK && !write ? RT_SYNC_ACQ_SHARED : RT_SYNC_ACQ);
	rt_race_acquire(t, o->addr);
	if (o->type == O_RWLOCK && write)
		rt_race_acquire(t, o->addr + 1);
	struct rt_held *h = rt_held_find(t, o);
	if (h) {
		h->count++;
		return;
	}
	if (t->nheld == RT_MAX_HELD)
		return; /* only reports lose detail: ownership lives in the object */
	t->held[t->nheld++] = (struct rt_held){ o, 1, write };
}

int rt_held_drop(struct rt_thread *t, struct rt_obj *o)
{
	rt_observe_sync(t, o, RT_SYNC_REL);
	struct rt_held *h = rt_held_find(t, o);
	rt_race_release(t, o->addr + (o->type == O_RWLOCK && h && !h->write));
	if (!h)
		return 0;
	if (--h->count > 0)
		return h->count;
	*h = t->held[--t->nheld];
	return 0;
}

/* glibc reuses a pthread_t once its thread is reaped, so a thread not
 * reaped yet is the one the caller means, else the newest (by creation
 * number: slots are reused) with that handle. */
struct rt_thread *rt_thread_by_real(pthread_t th)
{
	struct rt_thread *best = NULL;
	for (int i = 0; i < rt.nthreads; i++) {
		struct rt_thread *t = &rt.threads[i];
		if (t->state == T_UNUSED || !pthread_equal(t->real, th))
			continue;
		if (!t->reaped)
			return t;
		if (!best || t->tid > best->tid)
			best = t;
	}
	return best;
}

/* ---- executions ----------------------------------------------------------- */

static void own_stack(struct rt_thread *t)
{
	pthread_attr_t attr;
	void *lo;
	size_t size;
	t->stack_lo = t->stack_size = 0;
	if (pthread_getattr_np(pthread_self(), &attr) != 0)
		return;
	if (pthread_attr_getstack(&attr, &lo, &size) == 0) {
		t->stack_lo = (uintptr_t)lo;
		t->stack_size = size;
	}
	pthread_attr_destroy(&attr);
}

/* glibc ends the main thread's stack at the page above __libc_stack_end,
 * which ASLR places anywhere below the environment strings and the
 * auxiliary vector at the top of the [stack] mapping: whether a getenv's
 * copy reads the main thread's own stack would change from run to run.
 * The bounds reach the top of the mapping instead. */
static void main_stack_top(struct rt_thread *t)
{
	FILE *f = fopen("/proc/self/maps", "r");
	if (!f)
		return;
	char line[256];
	uintptr_t top = t->stack_lo + t->stack_size;
	while (fgets(line, sizeof line, f)) {
		unsigned long lo, hi;
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && top - 1 >= lo && top - 1 < hi) {
			t->stack_size = hi - t->stack_lo;
			break;
		}
	}
	fclose(f);
}

/* The CPU executions keep to: the one the process is bound to, if it is
 * bound to one (afl-fuzz binds itself and its target to a free core, and
 * taskset does the same), else the one it runs on now. */
static int pin_cpu(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) == 1)
		for (int i = 0; i < CPU_SETSIZE; i++)
			if (CPU_ISSET(i, &set))
				return i;
	return sched_getcpu();
}

/* The CPU this kernel thread was pinned to here. A thread keeps its mask
 * from one execution to the next, so the thread that starts executions
 * pins itself once, not once per execution (a system call each). */
static __thread int pinned_to = -1;

static void pin_here(void)
{
	if (!rt.cfg.pin || rt.cpu < 0 || pinned_to == rt.cpu)
		return;
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(rt.cpu, &set);
	if (sched_setaffinity(0, sizeof set, &set) == 0)
		pinned_to = rt.cpu;
}

void rt_thread_setup(struct rt_thread *t)
{
	own_stack(t);
	__atomic_store_n(&t->ktid, gettid(), __ATOMIC_RELEASE); /* rt_kill.c may wait for it */
	t->asan_tid = rt_heap_sanitizer_tid();
	rt_thread_enter();
}

void rt_thread_enter(void)
{
	/* A new thread inherits its creator's CPU mask (clone copies it), so
	 * it is on the execution's CPU already unless the program gave it
	 * another mask: only then does it pay for pinning (getcpu is a vDSO
	 * call, no system call). */
	if (sched_getcpu() != rt.cpu)
		pin_here();
	else
		pinned_to = rt.cpu;
	rt_altstack_setup();
}

/* The main thread's bounds come from /proc (twice: glibc's
 * pthread_getattr_np reads it too): looked up once per process, and by the
 * explorer before it forks, so that no execution pays for it. */
static struct {
	uintptr_t lo, size;
	pthread_t thread;
} main_stack;

void rt_main_stack_lookup(struct rt_thread *t)
{
	if (!main_stack.size || !pthread_equal(main_stack.thread, pthread_self())) {
		own_stack(t);
		main_stack_top(t);
		main_stack.thread = pthread_self();
		main_stack.lo = t->stack_lo;
		main_stack.size = t->stack_size;
	}
	t->stack_lo = main_stack.lo;
	t->stack_size = main_stack.size;
}

void rt_exec_begin(const uint8_t *genome, size_t genome_size, bool harness)
{
	rt_init();
	rt_openmp_exec_begin();

	for (int i = 0; i < rt.nthreads; i++)
		rt_memset(&rt.threads[i], 0, sizeof rt.threads[i]);
	struct rt_thread *t0 = &rt.threads[0];
	t0->tid = 0;
	t0->slot = 0;
	t0->ktid = gettid();
	t0->asan_tid = rt_heap_sanitizer_tid();
	t0->state = T_LIVE;
	rt_own_thread_begin(t0);
	atomic_store_explicit(&t0->go, 1, memory_order_relaxed);
	t0->real = pthread_self();
	rt_main_stack_lookup(t0);
	rt.nthreads = 1;
	rt.ncreated = 1;
	/* The search's log knows threads by creation number; a log kept as
	 * replay runs (rt_reversals.c) takes them as they come. */
	bool complete_log = rt.search && !rt.search->as_replayed;
	rt.reuse = !complete_log;
	rt.running = t0;

	rt.harness = harness;
	rt.step = 0;
	rt.retries = 0;
	rt.retry_switches = 0;
	rt.livelock_limit = rt.cfg.livelock_steps;
	rt.held_off = false;
	rt.busy = 0;
	if (rt.result) {
		rt.result->async = 0;
		rt.result->out_of_time = 0;
	}
	rt.ndecisions = 0;
	rt.preemptions = 0;
	rt.handoffs = 0;
	rt.last_tid = 0;
	rt.preempt_pending = false;
	rt.dirty = true;
	rt.reported = false;
	rt.fingerprint = 0xcbf29ce484222325ull;
	rt_memset(rt.trace, 0, sizeof rt.trace);

	rt.genome = genome;
	rt.genome_size = genome_size;
	sf_genome_decode(genome, genome_size, &rt.plan);
	uint8_t no_spurious = rt.plan.flags & SF_FLAG_NO_SPURIOUS;
	if (rt.cfg.pinned)
		sf_spec_pin(&rt.cfg.spec, &rt.plan);
	/* The input's own setting survives a pinned strategy. */
	if (no_spurious || rt.cfg.no_spurious)
		rt.plan.flags |= SF_FLAG_NO_SPURIOUS;
	rt.spurious = 0;
	rt.strat = strat_for_kind(rt.plan.kind);
	if (!rt.strat_state[rt.plan.kind])
		rt.strat_state[rt.plan.kind] = rt.strat->create();
	rt.sstate = rt.strat_state[rt.plan.kind];
	rt.strat->begin(rt.sstate, &rt.plan);
	rt_memset(&rt.counting, 0, sizeof rt.counting);
	if (rt.strat->counting)
		rt.strat->counting(rt.sstate, &rt.counting);
	rt_roles_begin(t0);
	rt.locks = 0;
	/* The systematic search needs every access in its log: a dependence
	 * with an access it never saw is a reversal it never tries (guided
	 * run's reversal arm gives that up to run as replay does). PCTVB's
	 * change points are its variables' n-th accesses, every access
	 * counted (docs/design/algorithms.md, PCTVB): the shadow keeps the variables it names
	 * shared (rt_vars.c), once they are known. */
	rt_vars_begin();
	rt_own_begin(rt.cfg.memory_points && !rt.cfg.memory_all && !complete_log);
	rt_race_begin();
	rt_lifecycle_reset();
	rt_warn_exec_begin();
	rt_observers_begin();

	if (rt.cfg.pin && rt.cpu < 0)
		rt.cpu = pin_cpu();
	pin_here();
	rt_signals_install();
	rt_sanitizer_install();
	rt.active = true;
	rt_set_self(t0);
	rt_watchdog_begin();
}

void rt_exec_end(void)
{
	rt.busy++;
	/* Reap finished joinable threads nobody joined, so that a long
	 * campaign does not leak their stacks. */
	for (int i = 1; i < rt.nthreads; i++) {
		struct rt_thread *t = &rt.threads[i];
		if (t->state == T_FINISHED && !t->detached && !t->reaped) {
			if (!t->pool) /* a pooled kernel thread goes on */
				REAL(pthread_join)(t->real, NULL);
			t->reaped = true;
		}
	}
	rt_pool_exec_end();
	rt_watchdog_end();
	rt_result_publish(F_NONE);
	rt_obj_reset_all();
	rt.active = false;
	rt_set_self(NULL);
	rt.busy--;
}
