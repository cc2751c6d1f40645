/* cond_if_spurious: one consumer waits for the ready flag with `if`
 * instead of `while`. With one producer that sets the flag before it
 * signals, a wakeup by the signal always finds the flag set: only a
 * spurious wakeup (which POSIX allows) returns from the wait with the
 * flag still clear. FIXED: the wait is in a while loop. */
#include <assert.h>
#include <pthread.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ready_cv = PTHREAD_COND_INITIALIZER;
static int ready;

static void *consumer(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
#ifdef FIXED
	while (!ready)
#else
	if (!ready)
#endif
		pthread_cond_wait(&ready_cv, &lock);
	assert(ready);
	pthread_mutex_unlock(&lock);
	return NULL;
}

static void *producer(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	ready = 1;
	pthread_cond_signal(&ready_cv);
	pthread_mutex_unlock(&lock);
	return NULL;
}

int main(void)
{
	pthread_t c, p;
	pthread_create(&c, NULL, consumer, NULL);
	pthread_create(&p, NULL, producer, NULL);
	pthread_join(c, NULL);
	pthread_join(p, NULL);
	return 0;
}
