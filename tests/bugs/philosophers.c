/* philosophers: four dining philosophers each take the left fork, then the
 * right one, then eat (a few meals, each under a table lock). All four
 * holding their left fork is a deadlock: four ordering constraints among
 * lock acquisitions that lie right next to each other, far fewer than the
 * acquisitions of a whole run (RPRO's small radius, 004 section 3).
 * expect: deadlock. FIXED: the last philosopher takes the right fork first. */
#include <pthread.h>
#include <stdint.h>

#define N 4
#define MEALS 3

static pthread_mutex_t fork_lock[N] = {
	PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
	PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
};
static pthread_mutex_t table = PTHREAD_MUTEX_INITIALIZER;
static int eaten;

static void *philosopher(void *arg)
{
	int me = (int)(intptr_t)arg;
	int first = me, second = (me + 1) % N;
#ifdef FIXED
	if (me == N - 1) {
		first = (me + 1) % N;
		second = me;
	}
#endif
	pthread_mutex_lock(&fork_lock[first]);
	pthread_mutex_lock(&fork_lock[second]);
	for (int m = 0; m < MEALS; m++) {
		pthread_mutex_lock(&table);
		eaten++;
		pthread_mutex_unlock(&table);
	}
	pthread_mutex_unlock(&fork_lock[second]);
	pthread_mutex_unlock(&fork_lock[first]);
	return NULL;
}

int main(void)
{
	eaten = 0;
	pthread_t t[N];
	for (int i = 0; i < N; i++)
		pthread_create(&t[i], NULL, philosopher, (void *)(intptr_t)i);
	for (int i = 0; i < N; i++)
		pthread_join(t[i], NULL);
	return eaten == N * MEALS ? 0 : 1;
}
