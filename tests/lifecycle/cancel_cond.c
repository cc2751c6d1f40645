/* cancel_cond: a consumer cancelled while it waits in pthread_cond_wait.
 * Its cleanup handler releases the mutex the wait took back, so the
 * producer and main go on; the joiner sees PTHREAD_CANCELED. Whether
 * the cancel finds it waiting, before its wait or after an item arrived
 * is the schedule's choice: every case must end well. */
#include <assert.h>
#include <pthread.h>
#include <stdbool.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ready = PTHREAD_COND_INITIALIZER;
static int items, taken, cleanups;

static void release(void *arg)
{
	cleanups++;
	pthread_mutex_unlock(arg);
}

static void *consumer(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m);
	pthread_cleanup_push(release, &m);
	for (;;) {
		while (items == 0)
			pthread_cond_wait(&ready, &m);
		items--;
		taken++;
	}
	pthread_cleanup_pop(1);
	return NULL;
}

static void *producer(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m);
	items++;
	pthread_cond_signal(&ready);
	pthread_mutex_unlock(&m);
	return NULL;
}

int main(void)
{
	pthread_t c, p;
	items = taken = cleanups = 0;
	pthread_create(&c, NULL, consumer, NULL);
	pthread_create(&p, NULL, producer, NULL);
	pthread_cancel(c);
	void *r;
	pthread_join(c, &r);
	assert(r == PTHREAD_CANCELED);
	assert(cleanups == 1);
	pthread_join(p, NULL);
	pthread_mutex_lock(&m); /* the handler left it free */
	assert(items + taken == 1);
	pthread_mutex_unlock(&m);
	return 0;
}
