/* cancel_leak: a worker cancelled at a sleep it takes with a lock held.
 * Without a cleanup handler the cancelled thread still owns the lock,
 * and main, which takes it after the join, waits forever: the deadlock
 * report names the cancelled thread as the owner. Only some schedules
 * cancel it there (it also sleeps without the lock). FIXED pushes a
 * handler that unlocks. */
#include <assert.h>
#include <pthread.h>
#include <unistd.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int rounds;

#ifdef FIXED
static void unlock(void *arg)
{
	pthread_mutex_unlock(arg);
}
#endif

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 3; i++) {
		pthread_mutex_lock(&m);
#ifdef FIXED
		pthread_cleanup_push(unlock, &m);
#endif
		rounds++;
		usleep(100); /* a cancellation point, with the lock held */
#ifdef FIXED
		pthread_cleanup_pop(0);
#endif
		pthread_mutex_unlock(&m);
		usleep(100);
	}
	return NULL;
}

int main(void)
{
	pthread_t t;
	rounds = 0;
	pthread_create(&t, NULL, worker, NULL);
	usleep(100);
	pthread_cancel(t);
	void *r;
	pthread_join(t, &r);
	assert(r == PTHREAD_CANCELED || r == NULL);
	pthread_mutex_lock(&m);
	assert(rounds >= 0 && rounds <= 3);
	pthread_mutex_unlock(&m);
	return 0;
}
