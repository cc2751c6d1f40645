/* bindal_fig4: Bindal et al., Fig. 4, a bug on two variables (variable
 * bound 2). Thread 1 reads a twice, then b; thread 2 sets a, sets b, then
 * clears b. The assertion fails only if a changes between thread 1's reads
 * of a and thread 1 then sees b while it is 1: preemptions at accesses to
 * both a and b.
 * expect: assert. FIXED: thread 2 publishes a and b in one critical
 * section and thread 1 reads all three under the same lock. */
#include <assert.h>
#include <pthread.h>

static volatile int a, b;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *thread1(void *arg)
{
	(void)arg;
#ifdef FIXED
	pthread_mutex_lock(&lock);
#endif
	int t1 = a; /* 1 */
	int t2 = a; /* 3 */
	int t3 = b; /* 5 */
#ifdef FIXED
	pthread_mutex_unlock(&lock);
#endif
	assert(t1 == t2 || t3 != 1); /* 6 */
	return NULL;
}

static void *thread2(void *arg)
{
	(void)arg;
#ifdef FIXED
	pthread_mutex_lock(&lock);
#endif
	a = 1; /* 2 */
	b = 1; /* 4 */
	b = 0;
#ifdef FIXED
	pthread_mutex_unlock(&lock);
#endif
	return NULL;
}

int main(void)
{
	a = b = 0;
	pthread_t t1, t2;
	pthread_create(&t1, NULL, thread1, NULL);
	pthread_create(&t2, NULL, thread2, NULL);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	return 0;
}
