/* bindal_fig8: Bindal et al., Fig. 8, a 3-thread bug. Threads 1 and 2
 * increment a; thread 3 asserts a != 2. It fails only if both increments
 * run before thread 3's check: ordering constraints among three threads.
 * expect: assert. FIXED: thread 3 waits for both increments and checks
 * the count it expects. */
#include <assert.h>
#include <pthread.h>

static int a;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
#ifdef FIXED
static pthread_cond_t done = PTHREAD_COND_INITIALIZER;
#endif

static void *incrementer(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	a++;
#ifdef FIXED
	pthread_cond_broadcast(&done);
#endif
	pthread_mutex_unlock(&lock);
	return NULL;
}

static void *checker(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
#ifdef FIXED
	while (a != 2)
		pthread_cond_wait(&done, &lock);
	assert(a == 2);
#else
	assert(a != 2);
#endif
	pthread_mutex_unlock(&lock);
	return NULL;
}

int main(void)
{
	a = 0;
	pthread_t t1, t2, t3;
	pthread_create(&t1, NULL, incrementer, NULL);
	pthread_create(&t2, NULL, incrementer, NULL);
	pthread_create(&t3, NULL, checker, NULL);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	pthread_join(t3, NULL);
	return 0;
}
