/* deep_calls: two threads hang waiting for a flag nobody sets, each after
 * a recursion has returned: 100 calls deep in one, 30 in the other. A
 * thread keeps its call sites in a ring. The deep recursion went round it,
 * so the slots of the frames it was called from hold its own sites: the
 * hang report must leave those frames out rather than name the recursion
 * as the waiting thread's callers. The shallow one did not: its report
 * names both calls on its stack. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

static atomic_int ready; /* the bug: nobody sets it */

/* optnone: a recursion, not the loop an optimizer would make of it. */
__attribute__((noinline, optnone)) static int dive(int n)
{
	return n ? dive(n - 1) + 1 : 0;
}

__attribute__((noinline)) static void wait_ready(void)
{
	while (!atomic_load(&ready))
		sched_yield();
}

__attribute__((noinline)) static void await_peer(int depth)
{
	dive(depth);
	wait_ready(); /* line 29 */
}

static void *deep(void *arg)
{
	(void)arg;
	await_peer(100); /* line 35 */
	return NULL;
}

static void *shallow(void *arg)
{
	(void)arg;
	await_peer(30); /* line 42 */
	return NULL;
}

int main(void)
{
	atomic_store(&ready, 0);
	pthread_t d, s;
	pthread_create(&d, NULL, deep, NULL);
	pthread_create(&s, NULL, shallow, NULL);
	pthread_join(d, NULL);
	pthread_join(s, NULL);
	return 0;
}
