/* bindal_fig2: Bindal et al., Fig. 2, a bug of context bound 1 on one
 * variable: thread 1 reads a twice and expects the same value; thread 2's
 * increment between the reads breaks it (MAP pattern 4, read-write-read).
 * expect: assert. FIXED: both reads and the increment hold one mutex. */
#include <assert.h>
#include <pthread.h>

static volatile int a;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *thread1(void *arg)
{
	(void)arg;
#ifdef FIXED
	pthread_mutex_lock(&lock);
#endif
	int t1 = a; /* 1 */
	int t2 = a; /* 3 */
#ifdef FIXED
	pthread_mutex_unlock(&lock);
#endif
	assert(t1 == t2); /* 4 */
	return NULL;
}

static void *thread2(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	a++; /* 2 */
	pthread_mutex_unlock(&lock);
	return NULL;
}

int main(void)
{
	a = 0;
	pthread_t t1, t2;
	pthread_create(&t1, NULL, thread1, NULL);
	pthread_create(&t2, NULL, thread2, NULL);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	return 0;
}
