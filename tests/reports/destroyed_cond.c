/* destroyed_cond: the producer publishes its result under the lock and
 * broadcasts after unlocking; main destroys the condition variable as soon
 * as the consumer has seen the result. When the broadcast comes later, it
 * is made on a destroyed condition variable.
 * FIXED: main joins the producer too before destroying it. */
#include <pthread.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ready;
static int done;

static void *producer(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	done = 1;
	pthread_mutex_unlock(&lock);
	pthread_cond_broadcast(&ready);
	return NULL;
}

static void *consumer(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	while (!done)
		pthread_cond_wait(&ready, &lock);
	pthread_mutex_unlock(&lock);
	return NULL;
}

int main(void)
{
	pthread_cond_init(&ready, NULL);
	pthread_t p, c;
	pthread_create(&c, NULL, consumer, NULL);
	pthread_create(&p, NULL, producer, NULL);
	pthread_join(c, NULL);
#ifdef FIXED
	pthread_join(p, NULL);
#endif
	pthread_cond_destroy(&ready);
#ifndef FIXED
	pthread_join(p, NULL);
#endif
	return 0;
}
