/* bindal_fig1: Bindal et al., Fig. 1, a bug of context bound 0. Thread 1
 * asserts a == 0; thread 2 increments a. Running thread 2 first fails the
 * assertion: no preemption, one ordering constraint.
 * expect: assert. FIXED: thread 1 checks before it lets thread 2 start
 * (the increment waits on a semaphore the checker posts). */
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>

static volatile int a;
static sem_t checked;

static void *thread1(void *arg)
{
	(void)arg;
	assert(a == 0); /* 2 */
	sem_post(&checked);
	return NULL;
}

static void *thread2(void *arg)
{
	(void)arg;
#ifdef FIXED
	sem_wait(&checked);
#endif
	a++; /* 1 */
	return NULL;
}

int main(void)
{
	a = 0;
	sem_init(&checked, 0, 0);
	pthread_t t1, t2;
	pthread_create(&t1, NULL, thread1, NULL);
	pthread_create(&t2, NULL, thread2, NULL);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	sem_destroy(&checked);
	return 0;
}
