/* rt_futex.c - the futex system call made through libc's syscall(), as a
 * modelled operation.
 *
 * This is how libstdc++'s std::atomic<T>::wait/notify, std::latch,
 * std::barrier and std::counting_semaphore, and LLVM's OpenMP runtime,
 * reach the kernel. syscall() is defined here; every other system call
 * number, and every call outside a controlled thread, goes to the real
 * one. The model keeps the kernel's waiter queues itself:
 *   - WAIT / WAIT_BITSET: a scheduling point; the word is compared with
 *     the expected value (EAGAIN if it differs), and the thread waits (in
 *     W_EXTERNAL) until a wake picks it. With a timeout the wait is timed
 *     and whether it times out is a schedule decision.
 *   - WAKE / WAKE_BITSET: up to n waiters on the word (with a matching
 *     bitset) are woken, oldest first, as the kernel does.
 *   - REQUEUE / CMP_REQUEUE: wake n, move up to n2 more to the second word.
 * Private and shared futexes are the same here (one process). A futex wait
 * is internal: only a thread of this process can wake it, so one that no
 * wake reaches is part of a deadlock, named as "futex wait on 0x...".
 * No spurious wakeups are made. The priority-inheritance operations and
 * WAKE_OP give a one-line "unsupported".
 *
 * Futexes issued by inline assembly (glibc's own locks and condition
 * variables, GCC's libgomp) never come here: those programs are kept
 * running by the watchdog (docs/blocking.md). */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/syscall.h>

#include "rt_io.h"
#include "rt_race.h"

struct futex_wait {
	struct rt_ext base;
	uintptr_t addr; /* the word waited on: a requeue moves it */
	uint32_t val;
	uint32_t bitset;
	uint64_t seq;   /* order of waiting: older waiters are woken first */
	bool woken;
};

static uint64_t next_seq;

static bool futex_ready(struct rt_ext *e)
{
	return ((struct futex_wait *)e)->woken;
}

static void futex_describe(const struct rt_ext *e, char *buf, size_t cap)
{
	const struct futex_wait *w = (const struct futex_wait *)e;
	snprintf(buf, cap, "futex wait on %#lx, value %u", (unsigned long)w->addr, w->val);
}

static bool futex_internal(const struct rt_ext *e)
{
	(void)e;
	return true;
}

static const struct rt_ext_ops futex_ops = { futex_ready, futex_describe, futex_internal };

static long fail(int e)
{
	errno = e;
	return -1;
}

static uint32_t load_word(uintptr_t addr)
{
	return __atomic_load_n((const uint32_t *)addr, __ATOMIC_SEQ_CST);
}

static long futex_wait(struct rt_thread *self, uintptr_t addr, uint32_t val, bool timed,
		       uint32_t bitset, const void *site)
{
	if (bitset == 0)
		return fail(EINVAL);
	self->trying = true; /* a wait that does not wait is a retry */
	rt_point(self, EV_FUTEX_WAIT, addr, NULL, 4, site);
	self->trying = false;
	/* Futex words are not told apart (a requeue moves waiters): one clock. */
	rt_race_acquire(self, RT_RACE_KEY_FUTEX);
	if (load_word(addr) != val)
		return fail(EAGAIN);
	struct futex_wait w = { .base = { .ops = &futex_ops, .addr = addr },
				.addr = addr, .val = val, .bitset = bitset, .seq = next_seq++ };
	int r = rt_ext_block(self, &w.base, timed, EV_COUNT, addr, site);
	rt_race_acquire(self, RT_RACE_KEY_FUTEX);
	return r ? fail(r) : 0;
}

/* The oldest waiter on addr with a bit of bitset not yet woken. */
static struct futex_wait *oldest(uintptr_t addr, uint32_t bitset)
{
	struct futex_wait *best = NULL;
	for (int i = 0; i < rt.nthreads; i++) {
		struct rt_thread *t = &rt.threads[i];
		if (t->state != T_LIVE || t->wait != W_EXTERNAL || t->ext->ops != &futex_ops)
			continue;
		struct futex_wait *w = (struct futex_wait *)t->ext;
		if (w->addr == addr && !w->woken && (w->bitset & bitset) && (!best || w->seq < best->seq))
			best = w;
	}
	return best;
}

/* Wake up to n waiters on addr, then move up to n2 more to addr2. */
static long futex_wake(struct rt_thread *self, uintptr_t addr, long n, uint32_t bitset,
		       uintptr_t addr2, long n2, const void *site)
{
	rt_point(self, EV_FUTEX_WAKE, addr, NULL, 4, site);
	rt_race_release(self, RT_RACE_KEY_FUTEX);
	long woken = 0;
	struct futex_wait *w;
	while (woken < n && (w = oldest(addr, bitset)) != NULL) {
		w->woken = true;
		woken++;
	}
	long moved = 0;
	while (moved < n2 && (w = oldest(addr, FUTEX_BITSET_MATCH_ANY)) != NULL) {
		w->addr = w->base.addr = addr2;
		moved++;
	}
	if (woken)
		rt_changed();
	return woken + moved;
}

static const char *unsupported_name(int cmd)
{
	switch (cmd) {
	case FUTEX_FD: return "FUTEX_FD";
	case FUTEX_WAKE_OP: return "FUTEX_WAKE_OP";
	case FUTEX_LOCK_PI: return "FUTEX_LOCK_PI";
	case FUTEX_UNLOCK_PI: return "FUTEX_UNLOCK_PI";
	case FUTEX_TRYLOCK_PI: return "FUTEX_TRYLOCK_PI";
	case FUTEX_WAIT_REQUEUE_PI: return "FUTEX_WAIT_REQUEUE_PI";
	case FUTEX_CMP_REQUEUE_PI: return "FUTEX_CMP_REQUEUE_PI";
	default: return "an unknown futex operation";
	}
}

static long futex_model(struct rt_thread *self, long *a, const void *site)
{
	uintptr_t addr = (uintptr_t)a[0];
	int cmd = (int)a[1] & FUTEX_CMD_MASK;
	uint32_t val = (uint32_t)a[2];
	const void *timeout = (const void *)a[3];
	uintptr_t addr2 = (uintptr_t)a[4];
	uint32_t val3 = (uint32_t)a[5];
	if (addr & 3)
		return fail(EINVAL);
	switch (cmd) {
	case FUTEX_WAIT:
		return futex_wait(self, addr, val, timeout != NULL, FUTEX_BITSET_MATCH_ANY, site);
	case FUTEX_WAIT_BITSET:
		return futex_wait(self, addr, val, timeout != NULL, val3, site);
	case FUTEX_WAKE:
		return futex_wake(self, addr, (int)val, FUTEX_BITSET_MATCH_ANY, 0, 0, site);
	case FUTEX_WAKE_BITSET:
		if (val3 == 0)
			return fail(EINVAL);
		return futex_wake(self, addr, (int)val, val3, 0, 0, site);
	case FUTEX_CMP_REQUEUE:
		if (load_word(addr) != val3) {
			rt_point(self, EV_FUTEX_WAKE, addr, NULL, 4, site);
			return fail(EAGAIN);
		}
		/* fall through */
	case FUTEX_REQUEUE:
		return futex_wake(self, addr, (int)val, FUTEX_BITSET_MATCH_ANY, addr2,
				  (long)(int)(intptr_t)timeout, site);
	default: {
		char what[64];
		snprintf(what, sizeof what, "futex %s", unsupported_name(cmd));
		rt_unsupported(what, "only FUTEX_WAIT, WAKE, the BITSET forms and REQUEUE are modelled");
	}
	}
}

RT_INTERPOSE long syscall(long nr, ...)
{
	va_list ap;
	long a[6];
	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	struct rt_thread *self;
	if (nr == SYS_futex && (self = rt_io_self(RT_CALLER())) != NULL)
		return futex_model(self, a, RT_CALLER());
	return IO_REAL(syscall)(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}
