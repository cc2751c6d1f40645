/* handoff_double_free: a buffer is handed from a producer to whichever of
 * two consumers closes the handoff first; each consumer checks the
 * "released" flag and then frees the buffer, so both can see the flag
 * clear and free it twice.
 * expect: attempting double-free. FIXED: check and set under one lock. */
#include <pthread.h>
#include <stdlib.h>

static char *volatile buffer;
static volatile int released;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void release(void)
{
#ifdef FIXED
	pthread_mutex_lock(&lock);
	int mine = !released;
	released = 1;
	pthread_mutex_unlock(&lock);
#else
	int mine = !released;
	if (mine)
		released = 1;
#endif
	if (mine)
		free(buffer);
}

static void *consumer(void *arg)
{
	(void)arg;
	release();
	return NULL;
}

int main(void)
{
	buffer = malloc(64);
	released = 0;
	pthread_t a, b;
	pthread_create(&a, NULL, consumer, NULL);
	pthread_create(&b, NULL, consumer, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
