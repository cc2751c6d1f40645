/* lost_wakeup: the consumer waits with `if` instead of `while`, and the
 * producer may signal before the consumer waits (the flag is also read
 * outside the lock), so the wakeup is lost or a spurious one is trusted.
 * expect: deadlock or assert. FIXED: the flag is checked under the lock,
 * in a while loop. */
#include <assert.h>
#include <pthread.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int ready;

static void *producer(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	ready = 1;
	pthread_cond_signal(&cond);
	pthread_mutex_unlock(&lock);
	return NULL;
}

static void *consumer(void *arg)
{
	(void)arg;
#ifdef FIXED
	pthread_mutex_lock(&lock);
	while (!ready)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
#else
	int seen = ready; /* checked without the lock */
	pthread_mutex_lock(&lock);
	if (!seen)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
#endif
	assert(ready);
	return NULL;
}

int main(void)
{
	ready = 0;
	pthread_t p, c;
	pthread_create(&c, NULL, consumer, NULL);
	pthread_create(&p, NULL, producer, NULL);
	pthread_join(c, NULL);
	pthread_join(p, NULL);
	return 0;
}
