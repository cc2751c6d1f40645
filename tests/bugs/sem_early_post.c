/* sem_early_post: a loader posts the "ready" semaphore before it has
 * stored the data it announces, so a waiter can wake and read a result
 * that is not there yet. Semaphore misuse: the post is the publication,
 * and it comes too early.
 * expect: assert. FIXED: the data is stored before the post. */
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>

static sem_t ready;
static volatile int result;

static void *loader(void *arg)
{
	(void)arg;
#ifdef FIXED
	result = 42;
	sem_post(&ready);
#else
	sem_post(&ready);
	result = 42;
#endif
	return NULL;
}

static void *waiter(void *arg)
{
	(void)arg;
	sem_wait(&ready);
	assert(result == 42);
	return NULL;
}

int main(void)
{
	result = 0;
	sem_init(&ready, 0, 0);
	pthread_t a, b;
	pthread_create(&a, NULL, waiter, NULL);
	pthread_create(&b, NULL, loader, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	sem_destroy(&ready);
	return 0;
}
