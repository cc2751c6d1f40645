/* bindal_fig9: Bindal et al., Fig. 9, a 3-thread bug on one variable.
 * Thread 1 reads a twice; threads 2 and 3 each increment it. Thread 1's
 * check fails only if both increments fall between its reads (the figure's
 * comparison symbol was lost in extraction; this is the reading that makes
 * it a 3-thread bug).
 * expect: assert. FIXED: thread 1's two reads are one critical section. */
#include <assert.h>
#include <pthread.h>

static volatile int a;
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
#endif
	assert(t2 != t1 + 2);
	return NULL;
}

static void *incrementer(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	a++;
	pthread_mutex_unlock(&lock);
	return NULL;
}

int main(void)
{
	a = 0;
	pthread_t t1, t2, t3;
	pthread_create(&t1, NULL, reader, NULL);
	pthread_create(&t2, NULL, incrementer, NULL);
	pthread_create(&t3, NULL, incrementer, NULL);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	pthread_join(t3, NULL);
	return 0;
}
