/* rt_external.c - threads blocked on conditions outside the runtime's
 * objects: a file descriptor, a futex word, and (for other callers) a
 * child process or a signal.
 *
 * Such a thread waits in W_EXTERNAL on an rt_ext (rt_internal.h) whose
 * ready() says, without blocking, whether its call can complete now (a
 * zero-timeout poll, a flag a futex wake set). It is a candidate exactly
 * when ready() is true, as a mutex waiter is when the mutex is free; a
 * timed wait is always a candidate, and whether it times out is a
 * schedule decision, as for condition variables. When it is picked its
 * call goes on (and is made so that it cannot block for long after all:
 * rt_io.c).
 *
 * Readiness the kernel decides can change without a call of ours (another
 * process, the clock, a write made inside libc), so while such waits exist
 * the candidates are looked at again every 64 scheduling points, and after
 * every call that may change it (rt_ext_changed).
 *
 * No candidate left is a deadlock only when the runtime is sure that
 * nothing else can make a wait ready: every wait is internal (a pipe both
 * of whose ends this process created, a futex word, an eventfd). Otherwise
 * the running thread really waits, in poll on the union of the waits'
 * descriptors (in short slices for waits with none), until one is ready,
 * and if the execution runs out of time meanwhile it reports a hang that
 * names what each thread waits for. Never a false deadlock.
 *
 * To add a wait: an rt_ext with ready() (never blocking), describe() and,
 * if the wait can be part of a deadlock, internal(); call rt_ext_block;
 * make every call that can end such a wait call rt_ext_changed (a wake of
 * runtime-owned state calls rt_changed). To end a wait for another reason
 * (a cancellation, a signal), set its ext's interrupted and call
 * rt_changed: rt_ext_block returns EINTR. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <time.h>

#include "rt_internal.h"
#include "rt_libc.h"

#define IDLE_SLICE_MS 20
#define IDLE_MAX_FDS 512

int rt_ext_block(struct rt_thread *self, struct rt_ext *e, bool timed, enum rt_ev ev,
		 uintptr_t addr, const void *site)
{
	self->wait = W_EXTERNAL;
	self->wobj = NULL;
	self->ext = e;
	self->timed = timed;
	rt.npolled += e->kernel;
	int r = rt_block_at(self, ev, addr, site);
	rt.npolled -= e->kernel;
	self->ext = NULL;
	return e->interrupted ? EINTR : r;
}

static bool internal(const struct rt_ext *e)
{
	return e->ops->internal && e->ops->internal(e);
}

static bool any_ready(void)
{
	for (int i = 0; i < rt.nthreads; i++) {
		struct rt_thread *t = &rt.threads[i];
		if (t->state == T_LIVE && t->wait == W_EXTERNAL && t->ext->ops->ready(t->ext))
			return true;
	}
	return false;
}

static RT_NORETURN void out_of_time(void)
{
	char what[160] = "";
	int tid = -1;
	for (int i = 0; i < rt.nthreads && tid < 0; i++) {
		struct rt_thread *t = &rt.threads[i];
		if (t->state == T_LIVE && t->wait == W_EXTERNAL && !internal(t->ext)) {
			t->ext->ops->describe(t->ext, what, sizeof what);
			tid = t->tid;
		}
	}
	if (rt.result)
		rt.result->out_of_time = 1; /* a replay runs out of time too, elsewhere */
	rt_fail(F_HANG, NULL,
		"still blocked after %llu ms (%s): every thread waits, T%d in the kernel for "
		"%s, which something outside the execution could still end",
		(unsigned long long)rt_watchdog_deadline_ms(), rt_watchdog_deadline_source(), tid,
		what);
}

bool rt_ext_idle(void)
{
	struct pollfd all[IDLE_MAX_FDS];
	int n = 0;
	bool certain = true;
	for (int i = 0; i < rt.nthreads; i++) {
		struct rt_thread *t = &rt.threads[i];
		if (t->state != T_LIVE || t->wait != W_EXTERNAL)
			continue;
		certain &= internal(t->ext);
		for (int k = 0; k < t->ext->npfd && n < IDLE_MAX_FDS; k++)
			all[n++] = t->ext->pfd[k];
	}
	if (certain)
		return false;
	rt.busy++; /* a real wait inside the runtime: no preemption here */
	for (;;) {
		if (any_ready())
			break;
		if (rt_watchdog_expired()) {
			rt.busy--;
			out_of_time();
		}
		if (n > 0) {
			poll(all, (nfds_t)n, IDLE_SLICE_MS);
		} else {
			struct timespec ts = { 0, IDLE_SLICE_MS * 1000000L };
			REAL(nanosleep)(&ts, NULL);
		}
	}
	rt.busy--;
	return true;
}
