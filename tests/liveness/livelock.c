/* livelock: two threads raise their flag and then wait, yielding, while
 * the other's flag is up. When both raise theirs before either looks, both
 * yield forever: a true livelock, which must be reported as one (a hang
 * naming the looping sites), not mistaken for a spin that fairness ends.
 * With -DFIXED it is Peterson's algorithm: a turn variable breaks the tie,
 * and every schedule ends.
 * expect: hang (livelock); FIXED: clean. */
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>

#define ROUNDS 2

static atomic_int want[2];
static atomic_int turn;
static int inside; /* threads in the critical section */

static void *worker(void *arg)
{
	int me = (int)(intptr_t)arg, other = 1 - me;
	for (int i = 0; i < ROUNDS; i++) {
		atomic_store(&want[me], 1);
#ifdef FIXED
		atomic_store(&turn, other);
		while (atomic_load(&want[other]) && atomic_load(&turn) == other)
			sched_yield();
#else
		while (atomic_load(&want[other]))
			sched_yield();
#endif
		inside++;
		assert(inside == 1);
		inside--;
		atomic_store(&want[me], 0);
	}
	return NULL;
}

int main(void)
{
	atomic_store(&want[0], 0);
	atomic_store(&want[1], 0);
	atomic_store(&turn, 0);
	inside = 0;
	pthread_t t[2];
	for (intptr_t i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	return 0;
}
