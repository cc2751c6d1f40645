/* counter.c - two threads add to a global counter; the bug: no lock.
 * Fixed: the same adds under a mutex. */
#include <pthread.h>
#include <stdio.h>

static long counter;
#ifdef FIXED
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
#endif

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 3; i++) {
#ifdef FIXED
		pthread_mutex_lock(&lock);
#endif
		counter++;
#ifdef FIXED
		pthread_mutex_unlock(&lock);
#endif
	}
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, worker, NULL);
	pthread_create(&b, NULL, worker, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("%ld\n", counter);
	return 0;
}
