/* bindal_fig3: Bindal et al., Fig. 3, a bug of context bound 2 on one
 * variable. Thread 2 sets a to 1 and back to 0; thread 1 reads a twice.
 * The reads differ only if the first falls between thread 2's writes and
 * the second after them: 1. a = 1, 2. t1 = a, 3. a = 0, 4. t2 = a.
 * expect: assert. FIXED: thread 2's two writes are one critical section,
 * and so are thread 1's two reads. */
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
	int t1 = a; /* 2 */
	int t2 = a; /* 4 */
#ifdef FIXED
	pthread_mutex_unlock(&lock);
#endif
	assert(t1 == t2); /* 5 */
	return NULL;
}

static void *thread2(void *arg)
{
	(void)arg;
#ifdef FIXED
	pthread_mutex_lock(&lock);
#endif
	a = 1; /* 1 */
	a = 0; /* 3 */
#ifdef FIXED
	pthread_mutex_unlock(&lock);
#endif
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
