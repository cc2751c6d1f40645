/* rt_altstack.c - alternate signal stacks, so that a thread that ran past
 * the end of its own stack still gets its report.
 *
 * A stack overflow faults again the moment a handler pushes a frame on the
 * exhausted stack, and the kernel then kills the process without a word.
 * So every controlled thread, and the thread that starts an execution,
 * takes signals on a stack of its own (sigaltstack), and the fatal-signal
 * handlers are installed with SA_ONSTACK. The report runs there, with the
 * symbolizer, and in the ASan mode ASan's own report after ours: ALT_SIZE
 * holds both with room to spare.
 *
 * Threads are created per execution, thousands of times in one process
 * under libFuzzer, so the stacks come from a pool and are never unmapped:
 * a thread takes one in rt_altstack_setup and gives it back from a
 * thread-specific-data destructor as it ends. It first puts back the
 * alternate stack it had before (none, or ASan's), so that no signal can
 * land on a stack that another thread owns by then. The destructor runs
 * among the thread's own key destructors (rt_thread.c) and in any case
 * before ASan's, which ASan defers to the last round and which unmaps
 * whatever alternate stack the thread has at that point: ASan's, again. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rt_internal.h"

/* A report takes about 21 KiB of it (measured, symbolizer, trace and
 * recorded schedule included; 8 KiB are stdio's buffer for an unbuffered
 * stream); what it chains to runs after that returns (ASan's handler gets
 * by with ASan's own alternate stack, 4 * SIGSTKSZ: 53 KiB here); the
 * kernel's signal frame grows with the CPU's register state. */
#define ALT_SIZE (128u << 10)
/* Below the stack, so that running past its end faults; wider than any
 * frame on the way to a report. */
#define GUARD_SIZE (64u << 10)

struct altstack {
	char *base; /* ALT_SIZE bytes, after GUARD_SIZE bytes of PROT_NONE */
	_Atomic bool busy;
	stack_t prev; /* what its thread had before, put back on release */
	struct altstack *next; /* the pool, pushed at the head, never unlinked */
};

static struct altstack *_Atomic pool;
static __thread struct altstack *mine;
static pthread_key_t release_key;
static _Atomic int key_state; /* 0 none, 1 being created, 2 ready */

/* A stack nobody uses, from the pool or new; NULL if memory ran out. */
static struct altstack *acquire(void)
{
	for (struct altstack *a = atomic_load(&pool); a; a = a->next) {
		bool idle = false;
		if (!atomic_load_explicit(&a->busy, memory_order_relaxed) &&
		    atomic_compare_exchange_strong(&a->busy, &idle, true))
			return a;
	}
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t head = (sizeof(struct altstack) + page - 1) / page * page;
	char *m = mmap(NULL, head + GUARD_SIZE + ALT_SIZE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	mprotect(m + head, GUARD_SIZE, PROT_NONE);
	struct altstack *a = (struct altstack *)m;
	a->base = m + head + GUARD_SIZE;
	atomic_init(&a->busy, true);
	a->next = atomic_load(&pool);
	while (!atomic_compare_exchange_weak(&pool, &a->next, a))
		;
	return a;
}

/* As the thread ends: its old alternate stack back, ours to the pool. One
 * system call swaps them and tells what was installed (a thread ends
 * thousands of times a second under libFuzzer). */
static void release(void *arg)
{
	struct altstack *a = arg;
	stack_t back = a->prev, cur;
	if (back.ss_flags & SS_DISABLE)
		back = (stack_t){ .ss_flags = SS_DISABLE };
	if (sigaltstack(&back, &cur) != 0)
		return;
	if (cur.ss_sp != a->base) {
		/* Somebody else had replaced ours: theirs stays; ours may still
		 * be in use on their word, so it never goes back to the pool. */
		sigaltstack(&cur, NULL);
		return;
	}
	mine = NULL;
	atomic_store_explicit(&a->busy, false, memory_order_release);
}

/* Through rt_key_create, so that rt_thread.c runs the destructor while the
 * thread ends under control, before ASan's own destructor would. */
static bool key_ready(void)
{
	int state = atomic_load_explicit(&key_state, memory_order_acquire);
	if (state == 2)
		return true;
	int none = 0;
	if (state == 0 && atomic_compare_exchange_strong(&key_state, &none, 1)) {
		if (rt_key_create(&release_key, release) != 0) {
			atomic_store(&key_state, 0);
			return false;
		}
		atomic_store_explicit(&key_state, 2, memory_order_release);
		return true;
	}
	while (atomic_load_explicit(&key_state, memory_order_acquire) == 1)
		REAL(sched_yield)(); /* another thread is creating it: a moment */
	return atomic_load(&key_state) == 2;
}

/* Ours installed, in one system call that also tells what was there: a
 * new thread has none, or ASan's smaller one. */
void rt_altstack_setup(void)
{
	if (mine)
		return;
	if (!key_ready())
		return;
	struct altstack *a = acquire();
	if (!a)
		return;
	stack_t ss = { .ss_sp = a->base, .ss_size = ALT_SIZE, .ss_flags = 0 }, cur;
	if (sigaltstack(&ss, &cur) != 0) {
		atomic_store(&a->busy, false);
		return;
	}
	a->prev = cur;
	bool big = !(cur.ss_flags & SS_DISABLE) && cur.ss_size >= ALT_SIZE;
	if (big || pthread_setspecific(release_key, a) != 0) {
		/* Somebody's big enough stack (ours from before a fork, say)
		 * stays, or ours could not be given back at the end. */
		sigaltstack(&cur, NULL);
		atomic_store(&a->busy, false);
		return;
	}
	mine = a;
}
