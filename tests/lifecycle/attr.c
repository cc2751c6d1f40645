/* attr: threads created with attributes: a small explicit stack with a
 * big guard, a detached thread that posts a semaphore when done, and a
 * stack the program allocates itself. Each checks what it was given. */
#define _GNU_SOURCE
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdlib.h>

#define SMALL (128u << 10)
static sem_t done;
static int shared;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *check(void *arg)
{
	pthread_attr_t a;
	size_t size = 0, guard = 0;
	pthread_getattr_np(pthread_self(), &a);
	pthread_attr_getstacksize(&a, &size);
	pthread_attr_getguardsize(&a, &guard);
	pthread_attr_destroy(&a);
	assert(size >= SMALL && size < 4 * SMALL);
	if (arg)
		assert(guard >= 64u << 10);
	pthread_mutex_lock(&m);
	shared++;
	pthread_mutex_unlock(&m);
	return NULL;
}

static void *detached(void *arg)
{
	(void)arg;
	int state;
	pthread_attr_t a;
	pthread_getattr_np(pthread_self(), &a);
	pthread_attr_getdetachstate(&a, &state);
	pthread_attr_destroy(&a);
	assert(state == PTHREAD_CREATE_DETACHED);
	pthread_mutex_lock(&m);
	shared++;
	pthread_mutex_unlock(&m);
	sem_post(&done);
	return NULL;
}

int main(void)
{
	shared = 0;
	sem_init(&done, 0, 0);
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, SMALL);
	pthread_attr_setguardsize(&a, 64u << 10);
	pthread_t t1, t2, t3;
	assert(pthread_create(&t1, &a, check, (void *)1) == 0);
	pthread_attr_destroy(&a);

	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&a, SMALL);
	assert(pthread_create(&t2, &a, detached, NULL) == 0);
	pthread_attr_destroy(&a);

	void *stack = aligned_alloc(4096, SMALL);
	pthread_attr_init(&a);
	pthread_attr_setstack(&a, stack, SMALL);
	assert(pthread_create(&t3, &a, check, NULL) == 0);
	pthread_attr_destroy(&a);

	pthread_join(t1, NULL);
	pthread_join(t3, NULL);
	sem_wait(&done);
	pthread_mutex_lock(&m);
	assert(shared == 3);
	pthread_mutex_unlock(&m);
	free(stack);
	sem_destroy(&done);
	return 0;
}
