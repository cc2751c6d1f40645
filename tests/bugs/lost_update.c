/* lost_update: two threads increment a counter with a read and a write
 * that are not atomic together; one increment can be lost.
 * expect: assert. FIXED: the increment holds a mutex. */
#include <assert.h>
#include <pthread.h>

static int counter;
#ifdef FIXED
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
#endif

static void *worker(void *arg)
{
	(void)arg;
#ifdef FIXED
	pthread_mutex_lock(&lock);
#endif
	int seen = counter;
	counter = seen + 1;
#ifdef FIXED
	pthread_mutex_unlock(&lock);
#endif
	return NULL;
}

int main(void)
{
	counter = 0; /* main() may run again in one process (libFuzzer) */
	pthread_t a, b;
	pthread_create(&a, NULL, worker, NULL);
	pthread_create(&b, NULL, worker, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	assert(counter == 2);
	return 0;
}
