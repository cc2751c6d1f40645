/* rt_pool.c - kernel threads kept from one execution to the next.
 *
 * Under a fuzzing engine (libFuzzer, AFL++'s persistent loop) every input
 * is an execution in the same process, and the harness creates its
 * threads anew each time. (A replay, or `schedfuzz run`'s child, runs one
 * execution: its threads are the kernel's own, as without the pool.) A
 * new kernel thread costs system calls (clone, robust list, rseq, the
 * stack's madvise at its end) and, in the ASan mode, ASan's own thread life cycle: the thread's
 * record and alternate stack mapped and unmapped, its stack's shadow
 * mapped afresh twice, an allocator cache faulted in page by page, and a
 * registry entry kept for good. So a thread that a harness creates with
 * plain attributes runs on a kernel thread of this pool: one that ran a
 * thread of an earlier execution, or a new one that stays.
 *
 * To the program it is a new thread (rt_thread.c, rt_thread_run_pooled):
 * its thread-local variables start from their images (rt_tls.c), its keys
 * hold NULL, its signal mask is its creator's, its cancellation state the
 * default; at its end its thread_local and key destructors run as glibc
 * would run them. pthread_self() is the kernel thread's, which a joined
 * thread's successor may reuse as glibc's may. A thread that calls
 * pthread_exit (or is cancelled) takes its kernel thread with it.
 *
 * Which kernel thread a new thread gets depends on the execution alone
 * (the first free one, in order); the schedule does not depend on it at
 * all (tests/integration/thread_pool.sh compares the traces). */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <string.h>

#include "rt_internal.h"

#define POOL_MAX RT_MAX_THREADS

/* The kernel thread's word: idle (waiting for a thread to run), busy, or
 * either while the other side sleeps on it. */
enum { K_IDLE, K_IDLE_SLEEPING, K_BUSY, K_BUSY_WAITED };

struct rt_pooled {
	pthread_t real;
	_Atomic uint32_t state;
	struct rt_thread *job;
	bool taken;  /* a thread of this execution runs there, or ran there and is not gone */
	bool vacant; /* no kernel thread: it ended with its thread (pthread_exit) */
	size_t size, guard; /* the stack and guard sizes it was made with */
	uintptr_t stack_lo, stack_size;
	pid_t ktid; /* 0 until its first thread looked these up */
	int asan_tid;
	sigset_t mask; /* the kernel thread's signal mask now */
};

static struct rt_pooled pool[POOL_MAX];
static int npool;
static bool forked; /* this process is a child forked by a pooled thread */

/* A forked child has only the thread that forked: the others are gone. */
static void forget(void)
{
	npool = 0;
	forked = true;
}

/* Whether attr asks for nothing a kernel thread made with the default
 * attributes lacks, but for the detach state, which the runtime keeps
 * itself; and the stack and guard sizes it asks for (the defaults',
 * which pthread_setattr_default_np may have changed since a kernel
 * thread was made). */
static bool plain(const pthread_attr_t *attr, size_t *size, size_t *guard)
{
	pthread_attr_t def;
	if (pthread_getattr_default_np(&def) != 0)
		return false;
	size_t def_size = 0, def_guard = 0;
	pthread_attr_getstacksize(&def, &def_size);
	pthread_attr_getguardsize(&def, &def_guard);
	pthread_attr_destroy(&def);
	*size = def_size;
	*guard = def_guard;
	if (!attr)
		return true;
	/* glibc's answer for an attribute whose stack was never set, nor its
	 * size (an address below the stack's top by the size set). */
	void *addr = NULL;
	size_t set_size = 0;
	pthread_attr_getstack(attr, &addr, &set_size);
	int inherit = PTHREAD_INHERIT_SCHED, scope = PTHREAD_SCOPE_SYSTEM;
	pthread_attr_getinheritsched(attr, &inherit);
	pthread_attr_getscope(attr, &scope);
	cpu_set_t cpus; /* all set where none was asked for */
	sigset_t mask;
	return addr == NULL && pthread_attr_getstacksize(attr, size) == 0 && *size == def_size &&
	       pthread_attr_getguardsize(attr, guard) == 0 && *guard == def_guard &&
	       inherit == PTHREAD_INHERIT_SCHED && scope == PTHREAD_SCOPE_SYSTEM &&
	       pthread_attr_getaffinity_np(attr, sizeof cpus, &cpus) == 0 &&
	       CPU_COUNT(&cpus) == CPU_SETSIZE &&
	       pthread_attr_getsigmask_np(attr, &mask) == PTHREAD_ATTR_NO_SIGMASK_NP;
}

/* Its stack, ids and CPU, looked up by its first thread only. */
static void setup(struct rt_pooled *p, struct rt_thread *t)
{
	if (!p->ktid) {
		rt_thread_setup(t);
		p->stack_lo = t->stack_lo;
		p->stack_size = t->stack_size;
		p->ktid = t->ktid;
		p->asan_tid = t->asan_tid;
		return;
	}
	t->stack_lo = p->stack_lo;
	t->stack_size = p->stack_size;
	t->asan_tid = p->asan_tid;
	__atomic_store_n(&t->ktid, p->ktid, __ATOMIC_RELEASE);
	rt_thread_enter();
}

/* p's word to v, waking the other side if it sleeps on the word (it set
 * sleeping). */
static void set_state(struct rt_pooled *p, uint32_t v, uint32_t sleeping)
{
	if (atomic_exchange_explicit(&p->state, v, memory_order_release) == sleeping)
		rt_futex_wake(&p->state);
}

/* Until p's word is neither v nor sleeping, v's twin that says this side
 * sleeps on it. */
static void wait_while(struct rt_pooled *p, uint32_t v, uint32_t sleeping)
{
	uint32_t now = atomic_load_explicit(&p->state, memory_order_acquire);
	while (now == v || now == sleeping) {
		if (now == v &&
		    !atomic_compare_exchange_weak_explicit(&p->state, &now, sleeping,
							   memory_order_acquire, memory_order_acquire))
			continue;
		rt_futex_wait(&p->state, sleeping);
		now = atomic_load_explicit(&p->state, memory_order_acquire);
	}
}

static void go_idle(struct rt_pooled *p)
{
	set_state(p, K_IDLE, K_BUSY_WAITED);
}

static void *kernel_thread(void *arg)
{
	struct rt_pooled *p = arg;
	/* Before any thread of the program runs on it: which keys are the
	 * kernel thread's own, and whether its TLS lies where it was found
	 * before main (rt_tls.c). */
	rt_keys_of_kernel_thread();
	rt_tls_check();
	go_idle(p);
	for (;;) {
		wait_while(p, K_IDLE, K_IDLE_SLEEPING);
		struct rt_thread *t = p->job;
		if (!t)
			return NULL; /* its TLS cannot be reset after all */
		if (memcmp(&p->mask, &t->sig_mask, sizeof p->mask) != 0) {
			rt_signal_mask_set(&t->sig_mask);
			p->mask = t->sig_mask;
		}
		setup(p, t);
		rt_thread_run_pooled(t); /* t may be gone once it returns */
		if (forked)
			return NULL; /* the child's only thread ends, and the child with it */
		/* Idle, it takes no signal meant for the process: the program's
		 * handlers run only on the program's threads. */
		sigfillset(&p->mask);
		rt_signal_mask_set(&p->mask);
		rt_tls_reset();
		go_idle(p);
	}
	return NULL;
}

/* Until p's kernel thread is back from its last thread: a moment, since
 * that thread has finished. */
static void wait_idle(struct rt_pooled *p)
{
	wait_while(p, K_BUSY, K_BUSY_WAITED);
}

/* A new kernel thread, in the place of one that ended or at the end,
 * once it checked that its TLS can be reset. */
static struct rt_pooled *grow(struct rt_thread *t, size_t size, size_t guard)
{
	static bool atfork;
	if (!atfork) {
		pthread_atfork(NULL, NULL, forget);
		atfork = true;
	}
	struct rt_pooled *p = NULL;
	for (int i = 0; i < npool && !p; i++)
		if (pool[i].vacant)
			p = &pool[i];
	if (!p && npool < POOL_MAX)
		p = &pool[npool++];
	if (!p)
		return NULL;
	rt_memset(p, 0, sizeof *p);
	atomic_store_explicit(&p->state, K_BUSY, memory_order_relaxed);
	sigfillset(&p->mask); /* it takes no signal until a thread runs there */
	p->size = size;
	p->guard = guard;
	if (rt_create_unsignalled(&p->real, kernel_thread, p) != 0) {
		p->vacant = true;
		return NULL;
	}
	wait_idle(p);
	if (!rt_tls_resettable()) {
		p->job = NULL;
		set_state(p, K_BUSY, K_IDLE_SLEEPING);
		REAL(pthread_join)(p->real, NULL);
		p->vacant = true;
		return NULL;
	}
	return p;
}

bool rt_pool_start(struct rt_thread *t, const pthread_attr_t *attr)
{
	size_t size, guard;
	if (!rt.under_engine || !rt.harness || !rt.cfg.pool || !rt_tls_resettable() ||
	    !rt_real.call_tls_dtors || !plain(attr, &size, &guard))
		return false;
	struct rt_pooled *p = NULL;
	for (int i = 0; i < npool && !p; i++)
		if (!pool[i].taken && !pool[i].vacant && pool[i].size == size &&
		    pool[i].guard == guard)
			p = &pool[i];
	if (!p && !(p = grow(t, size, guard)))
		return false;
	wait_idle(p);
	p->taken = true;
	p->job = t;
	t->pool = p;
	t->real = p->real;
	set_state(p, K_BUSY, K_IDLE_SLEEPING);
	return true;
}

void rt_pool_release(struct rt_thread *t)
{
	if (t->pool)
		t->pool->taken = false;
}

/* From here on t is a thread with a kernel thread of its own, which its
 * joiner reaps as any other; the pool makes a new one in its place. */
void rt_pool_thread_exits(struct rt_thread *t)
{
	t->pool->vacant = true;
	t->pool = NULL;
	if (t->detached) /* nobody joins it: glibc frees it as it ends */
		REAL(pthread_detach)(t->real);
}

/* Every kernel thread back in the pool, its TLS reset, before the
 * execution ends (all its threads have finished by then): LeakSanitizer's
 * next look at the threads finds none of the execution's values. */
void rt_pool_exec_end(void)
{
	for (int i = 0; i < npool; i++)
		if (!pool[i].vacant) {
			wait_idle(&pool[i]);
			pool[i].taken = false;
		}
}
