/* nonowner_unlock: a "handoff" through a mutex: the producer locks it and
 * the consumer unlocks it once it has seen the data. POSIX leaves an
 * unlock by a thread that does not hold the mutex undefined; glibc lets it
 * pass for a normal mutex, and so does the run, with one warning that
 * names both threads and the site.
 * FIXED: the handoff uses a semaphore. */
#include <pthread.h>
#include <semaphore.h>
#include <stddef.h>

static pthread_mutex_t gate = PTHREAD_MUTEX_INITIALIZER;
static sem_t ready;
static int data;

static void *producer(void *arg)
{
	(void)arg;
#ifndef FIXED
	pthread_mutex_lock(&gate);
#endif
	data = 42;
	sem_post(&ready);
	return NULL;
}

static void *consumer(void *arg)
{
	(void)arg;
	sem_wait(&ready);
	int seen = data;
	(void)seen;
#ifndef FIXED
	pthread_mutex_unlock(&gate);
#endif
	return NULL;
}

int main(void)
{
	sem_init(&ready, 0, 0);
	pthread_t p, c;
	pthread_create(&p, NULL, producer, NULL);
	pthread_create(&c, NULL, consumer, NULL);
	pthread_join(p, NULL);
	pthread_join(c, NULL);
	return 0;
}
