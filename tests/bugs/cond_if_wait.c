/* cond_if_wait: two consumers wait for items with `if` instead of `while`.
 * The producer adds an item and signals; before the signalled consumer
 * gets the lock back, the other consumer, just arriving, takes the item.
 * The woken consumer then takes from an empty queue.
 * expect: assert. FIXED: the wait is in a while loop. */
#include <assert.h>
#include <pthread.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t nonempty = PTHREAD_COND_INITIALIZER;
static int items;

static void *consumer(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
#ifdef FIXED
	while (items == 0)
#else
	if (items == 0)
#endif
		pthread_cond_wait(&nonempty, &lock);
	assert(items > 0);
	items--;
	pthread_mutex_unlock(&lock);
	return NULL;
}

static void *producer(void *arg)
{
	(void)arg;
	for (int i = 0; i < 2; i++) {
		pthread_mutex_lock(&lock);
		items++;
		pthread_cond_signal(&nonempty);
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

int main(void)
{
	items = 0;
	pthread_t c1, c2, p;
	pthread_create(&c1, NULL, consumer, NULL);
	pthread_create(&c2, NULL, consumer, NULL);
	pthread_create(&p, NULL, producer, NULL);
	pthread_join(c1, NULL);
	pthread_join(c2, NULL);
	pthread_join(p, NULL);
	return 0;
}
