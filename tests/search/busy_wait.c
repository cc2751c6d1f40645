/* busy_wait.c - the busy-wait example of docs/design/algorithms.md,
 * HaPSet (paper 000, Fig. 3): t1 loops lock(a); tmp = x; unlock(a) until
 * tmp != 0, t2 does lock(a); x = 1; unlock(a). Runs that differ only in
 * the number of iterations teach the same HaPSets, so a guided search
 * stops after a few, while plain DPOR explores every count it can tell
 * apart.
 *
 * Planted bug (without -DFIXED): t2 sets y only after its unlock, and t1
 * asserts y once it leaves the loop, so t1 fails if it sees x = 1 between
 * t2's unlock and t2's write of y. */
#include <assert.h>
#include <pthread.h>

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static volatile int x, y;

static void *t1(void *p)
{
	int tmp;
	do {
		pthread_mutex_lock(&lock_a);
		tmp = x;
		pthread_mutex_unlock(&lock_a);
	} while (tmp == 0);
#ifndef FIXED
	assert(y == 1);
#endif
	return NULL;
}

static void *t2(void *p)
{
	pthread_mutex_lock(&lock_a);
	x = 1;
#ifdef FIXED
	y = 1;
#endif
	pthread_mutex_unlock(&lock_a);
#ifndef FIXED
	y = 1;
#endif
	return NULL;
}

int main(void)
{
	x = y = 0;
	pthread_t u, v;
	pthread_create(&u, NULL, t1, NULL);
	pthread_create(&v, NULL, t2, NULL);
	pthread_join(u, NULL);
	pthread_join(v, NULL);
	return 0;
}
