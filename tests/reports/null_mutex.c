/* null_mutex: the worker locks the mutex only if it has been configured
 * but unlocks it unconditionally; main configures it after starting the
 * worker. When the worker runs first it unlocks a NULL mutex, which glibc
 * would crash on inside its own code. The report must name the call and
 * put it at the worker's line, not inside the runtime's model.
 * FIXED: the unlock is guarded like the lock. */
#include <pthread.h>
#include <stddef.h>

static pthread_mutex_t real_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t *volatile lock;
static int counter;

static void *worker(void *arg)
{
	(void)arg;
	pthread_mutex_t *l = lock;
	if (l)
		pthread_mutex_lock(l);
	counter++;
#ifdef FIXED
	if (l)
#endif
		pthread_mutex_unlock(l);
	return NULL;
}

int main(void)
{
	lock = NULL;
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	lock = &real_lock;
	pthread_join(t, NULL);
	return 0;
}
