/* cancel_join: T1 is cancelled while it joins T2, which waits on a
 * semaphore nobody posts; T2 is cancelled in sem_wait after a stretch
 * with cancellation disabled. Both cleanup handlers run, both joins see
 * PTHREAD_CANCELED, and a thread that disabled cancellation finishes its
 * critical section first. pthread_testcancel is a cancellation point. */
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>

static sem_t never;
static atomic_int cleaned, critical_done;
static pthread_t t2;

static void note(void *arg)
{
	atomic_fetch_add(&cleaned, (int)(long)arg);
}

static void *waiter(void *arg)
{
	(void)arg;
	int old;
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
	assert(old == PTHREAD_CANCEL_ENABLE);
	pthread_testcancel(); /* disabled: no effect */
	atomic_store(&critical_done, 1);
	pthread_setcancelstate(old, NULL);
	pthread_cleanup_push(note, (void *)2L);
	pthread_testcancel();
	sem_wait(&never);
	pthread_cleanup_pop(0);
	return NULL;
}

static void *joiner(void *arg)
{
	(void)arg;
	pthread_cleanup_push(note, (void *)1L);
	pthread_join(t2, NULL);
	pthread_cleanup_pop(0);
	return NULL;
}

int main(void)
{
	pthread_t t1;
	void *r1, *r2;
	atomic_store(&cleaned, 0);
	atomic_store(&critical_done, 0);
	sem_init(&never, 0, 0);
	pthread_create(&t2, NULL, waiter, NULL);
	pthread_create(&t1, NULL, joiner, NULL);
	pthread_cancel(t1);
	pthread_join(t1, &r1);
	assert(r1 == PTHREAD_CANCELED);
	pthread_cancel(t2);
	pthread_join(t2, &r2);
	assert(r2 == PTHREAD_CANCELED);
	assert(atomic_load(&critical_done) == 1);
	assert(atomic_load(&cleaned) == 3);
	sem_destroy(&never);
	return 0;
}
