/* hapset_fig3: the HaPSet paper's Fig. 3, a busy wait, with a bug planted
 * in it. t1 polls x under lock a until it is set, then reads x again in a
 * second critical section and expects the value it saw; t2 sets x to 1,
 * then to 2, each under the lock. Runs that differ only in the number of
 * polls give the same HaPSets, so the interesting schedule is the one
 * where t2's second write lands between t1's two critical sections.
 * expect: assert. FIXED: t1 uses the value read in the poll that ended the
 * loop instead of reading x again. */
#include <assert.h>
#include <pthread.h>
#include <sched.h>

static int x;
static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;

static void *t1(void *arg)
{
	(void)arg;
	int tmp;
	do {
		pthread_mutex_lock(&a);
		tmp = x;
		pthread_mutex_unlock(&a);
		if (tmp == 0)
			sched_yield();
	} while (tmp == 0);
#ifdef FIXED
	int again = tmp;
#else
	pthread_mutex_lock(&a);
	int again = x;
	pthread_mutex_unlock(&a);
#endif
	assert(again == tmp);
	return NULL;
}

static void *t2(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&a);
	x = 1;
	pthread_mutex_unlock(&a);
	pthread_mutex_lock(&a);
	x = 2;
	pthread_mutex_unlock(&a);
	return NULL;
}

int main(void)
{
	x = 0;
	pthread_t p, q;
	pthread_create(&p, NULL, t1, NULL);
	pthread_create(&q, NULL, t2, NULL);
	pthread_join(p, NULL);
	pthread_join(q, NULL);
	return 0;
}
