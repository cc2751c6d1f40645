/* thread_churn: 1,000 short threads, each started and joined before the
 * next, as a server that spawns one thread per request does. At most two
 * threads are alive at once, so a runtime that reuses finished threads'
 * slots runs it within its thread limit.
 * expect: clean. */
#include <assert.h>
#include <pthread.h>

#define THREADS 1000

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int counter; /* guarded by lock */

static void *worker(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	counter++;
	pthread_mutex_unlock(&lock);
	return NULL;
}

int main(void)
{
	counter = 0;
	for (int i = 0; i < THREADS; i++) {
		pthread_t t;
		int err = pthread_create(&t, NULL, worker, NULL);
		assert(err == 0);
		pthread_join(t, NULL);
	}
	assert(counter == THREADS);
	return 0;
}
