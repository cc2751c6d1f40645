/* asm_mcs_lock: a correct x86-64 MCS queue lock written in inline
 * assembly, as a lock-free library builds it by default (Concurrency
 * Kit's ck_spinlock_mcs without its builtins back end). A waiter spins,
 * with pause, on a flag in its own queue node on its own stack, which the
 * holder clears as it hands the lock over. The compiler instruments none
 * of it: every hand-off is a spin the runtime cannot see, which only the
 * watchdog's preemption ends, so each costs a stall. Once the watchdog has
 * found a thread spinning on a pause it looks for stalls ten times sooner,
 * and a schedule with a hundred hand-offs ends in a fraction of a second,
 * never in a timeout.
 * expect: clean. */
#include <assert.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#if !defined(__x86_64__)
#error "asm_mcs_lock is x86-64 only"
#endif

#define THREADS 2
#define ROUNDS 50

struct node {
	struct node *next;
	int locked;
};

static struct node *tail; /* touched only by the asm below */
static int counter;       /* guarded by the lock, updated in plain (instrumented) C */

static struct node *swap_ptr(struct node **p, struct node *v)
{
	__asm__ volatile("xchgq %0, %1" : "+r"(v), "+m"(*p) : : "memory");
	return v;
}

static bool cas_ptr(struct node **p, struct node *expected, struct node *desired)
{
	bool ok;
	__asm__ volatile("lock cmpxchgq %3, %1\n\t"
			 "sete %0"
			 : "=q"(ok), "+m"(*p), "+a"(expected)
			 : "r"(desired)
			 : "memory", "cc");
	return ok;
}

static struct node *load_ptr(struct node **p)
{
	struct node *v;
	__asm__ volatile("movq %1, %0" : "=r"(v) : "m"(*p) : "memory");
	return v;
}

static void store_ptr(struct node **p, struct node *v)
{
	__asm__ volatile("movq %1, %0" : "=m"(*p) : "r"(v) : "memory");
}

static int load_int(int *p)
{
	int v;
	__asm__ volatile("movl %1, %0" : "=r"(v) : "m"(*p) : "memory");
	return v;
}

static void store_int(int *p, int v)
{
	__asm__ volatile("movl %1, %0" : "=m"(*p) : "r"(v) : "memory");
}

static void spin_pause(void)
{
	__asm__ volatile("pause" : : : "memory");
}

static void mcs_lock(struct node *me)
{
	store_int(&me->locked, 1);
	store_ptr(&me->next, NULL);
	struct node *prev = swap_ptr(&tail, me);
	if (prev == NULL)
		return;
	store_ptr(&prev->next, me);
	while (load_int(&me->locked))
		spin_pause();
}

static void mcs_unlock(struct node *me)
{
	struct node *next = load_ptr(&me->next);
	if (next == NULL) {
		if (cas_ptr(&tail, me, NULL))
			return;
		while ((next = load_ptr(&me->next)) == NULL) /* a successor is linking in */
			spin_pause();
	}
	store_int(&next->locked, 0);
}

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		struct node me;
		mcs_lock(&me);
		int seen = counter; /* scheduling points inside the critical section */
		counter = seen + 1;
		mcs_unlock(&me);
	}
	return NULL;
}

int main(void)
{
	store_ptr(&tail, NULL); /* no instrumented access to the queue either */
	counter = 0;
	pthread_t t[THREADS];
	for (int i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	assert(counter == THREADS * ROUNDS);
	return 0;
}
