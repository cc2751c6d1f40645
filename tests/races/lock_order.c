/* lock_order.c - a producer fills a buffer and then passes through a
 * lock; the consumer passes through the same lock and then reads. When
 * the producer takes the lock first, the fill happens before the read;
 * when the consumer does, they race: only some schedules show it. Fixed:
 * the consumer waits under the lock until the producer says it is done. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t filled = PTHREAD_COND_INITIALIZER;
static int buffer[4];
static int done;

static void *producer(void *arg)
{
	(void)arg;
	for (int i = 0; i < 4; i++)
		buffer[i] = i + 1;
	pthread_mutex_lock(&lock);
	done = 1;
	pthread_cond_signal(&filled);
	pthread_mutex_unlock(&lock);
	return NULL;
}

static void *consumer(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
#ifdef FIXED
	while (!done)
		pthread_cond_wait(&filled, &lock);
#endif
	pthread_mutex_unlock(&lock);
	int sum = 0;
	for (int i = 0; i < 4; i++)
		sum += buffer[i];
	return (void *)(long)sum;
}

int main(void)
{
	pthread_t p, c;
	void *sum;
	pthread_create(&c, NULL, consumer, NULL);
	pthread_create(&p, NULL, producer, NULL);
	pthread_join(p, NULL);
	pthread_join(c, &sum);
	printf("%ld\n", (long)sum);
	return 0;
}
