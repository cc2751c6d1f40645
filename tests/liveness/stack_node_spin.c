/* stack_node_spin: a waiter keeps its queue node on its own stack, gives
 * its address to a releaser and spins on it, as an MCS lock's waiter does.
 * Accesses to a thread's own stack are normally private, so no scheduling
 * points; the node is shared all the same. With the flag an atomic, or
 * with -DVOLATILE a volatile int (as older code has it), every poll must be
 * a scheduling point. With -DBARRIER it is a plain int re-read after a
 * compiler barrier (as concurrencykit's builtins back end loads pointers):
 * the polls pass through the hooks unseen, and only the watchdog's
 * preemption lets the releaser run. Every schedule ends, never in a
 * timeout.
 * expect: clean. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

struct node {
#if defined(VOLATILE)
	volatile int locked;
#elif defined(BARRIER)
	int locked;
#else
	atomic_int locked;
#endif
};

static struct node *_Atomic published;

static void *waiter(void *arg)
{
	(void)arg;
	struct node n;
#if defined(VOLATILE) || defined(BARRIER)
	n.locked = 1;
#else
	atomic_init(&n.locked, 1);
#endif
	atomic_store(&published, &n);
#if defined(VOLATILE)
	while (n.locked)
		;
#elif defined(BARRIER)
	while (n.locked)
		__asm__ volatile("" ::: "memory");
#else
	while (atomic_load(&n.locked))
		;
#endif
	atomic_store(&published, NULL); /* n goes out of scope */
	return NULL;
}

static void *releaser(void *arg)
{
	(void)arg;
	struct node *p;
	while (!(p = atomic_load(&published)))
		;
#if defined(VOLATILE) || defined(BARRIER)
	p->locked = 0;
#else
	atomic_store(&p->locked, 0);
#endif
	return NULL;
}

int main(void)
{
	atomic_store(&published, NULL);
	pthread_t a, b;
	pthread_create(&a, NULL, waiter, NULL);
	pthread_create(&b, NULL, releaser, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
