/* bindal_fig10: Bindal et al., Fig. 10, a 3-thread bug on two variables.
 * Thread 1 reads a twice, then b twice; thread 2 increments a, thread 3
 * increments b. The check fails only if thread 2 runs between the reads of
 * a and thread 3 between the reads of b.
 * expect: assert. FIXED: each pair of reads is one critical section. */
#include <assert.h>
#include <pthread.h>

static volatile int a, b;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *reader(void *arg)
{
	(void)arg;
#ifdef FIXED
	pthread_mutex_lock(&lock);
#endif
	int t1 = a;
	int t2 = a;
#ifdef FIXED
	pthread_mutex_unlock(&lock);
	pthread_mutex_lock(&lock);
#endif
	int t3 = b;
	int t4 = b;
#ifdef FIXED
	pthread_mutex_unlock(&lock);
#endif
	assert(t1 == t2 || t3 == t4);
	return NULL;
}

static void *increment(void *arg)
{
	volatile int *v = arg;
	pthread_mutex_lock(&lock);
	(*v)++;
	pthread_mutex_unlock(&lock);
	return NULL;
}

int main(void)
{
	a = b = 0;
	pthread_t t1, t2, t3;
	pthread_create(&t1, NULL, reader, NULL);
	pthread_create(&t2, NULL, increment, (void *)&a);
	pthread_create(&t3, NULL, increment, (void *)&b);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	pthread_join(t3, NULL);
	return 0;
}
