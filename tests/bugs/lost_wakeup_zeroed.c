/* lost_wakeup_zeroed: a hand-rolled event on two flags that start zeroed
 * (the allocator's zeros: no thread has touched them). The sleeper checks
 * `fired` and only then announces itself in `asleep` before it waits on a
 * semaphore; the firer sets `fired` and posts only if it sees `asleep`.
 * If the firer runs between the sleeper's check and its announcement, it
 * sees nobody asleep and posts nothing, and the sleeper waits for ever.
 * The preemption that matters falls between two first touches of the
 * sleeper, to one granule.
 * expect: deadlock. FIXED: the sleeper announces itself before it checks,
 * the firer sets the flag before it looks, both with sequentially
 * consistent atomics (one of them sees the other's write, in any order),
 * and an extra post is harmless. */
#include <pthread.h>
#include <semaphore.h>
#include <stdlib.h>

struct event {
	sem_t wake;
	int fired;
	int asleep;
};

static struct event *ev;

static void *sleeper(void *arg)
{
	(void)arg;
#ifdef FIXED
	__atomic_store_n(&ev->asleep, 1, __ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&ev->fired, __ATOMIC_SEQ_CST))
		sem_wait(&ev->wake);
#else
	if (!ev->fired) {
		ev->asleep = 1;
		sem_wait(&ev->wake);
	}
#endif
	return NULL;
}

static void *firer(void *arg)
{
	(void)arg;
#ifdef FIXED
	__atomic_store_n(&ev->fired, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&ev->asleep, __ATOMIC_SEQ_CST))
		sem_post(&ev->wake);
#else
	ev->fired = 1;
	if (ev->asleep)
		sem_post(&ev->wake);
#endif
	return NULL;
}

int main(void)
{
	/* Zeroed by the allocator: the flags start at 0, touched by nobody. */
	ev = calloc(1, sizeof *ev);
	sem_init(&ev->wake, 0, 0);
	pthread_t s, f;
	pthread_create(&s, NULL, sleeper, NULL);
	pthread_create(&f, NULL, firer, NULL);
	pthread_join(s, NULL);
	pthread_join(f, NULL);
	sem_destroy(&ev->wake);
	free(ev);
	return 0;
}
