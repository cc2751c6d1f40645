/* line0_unlock.c - a decision in code without a source line. Both
 * branches of the worker end in the same unlock, which clang -O1 and -O2
 * merge into one call of line 0; the checker, finding the mutex busy,
 * trusts that the worker is done. The failure needs the worker preempted
 * right before that unlock (portable_line0.sh). */
#include <assert.h>
#include <pthread.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int ready;

static void *worker(void *arg)
{
	long id = (long)arg;
	pthread_mutex_lock(&m);
	if (id & 1)
		pthread_mutex_unlock(&m);
	else
		pthread_mutex_unlock(&m);
	ready = 1;
	return NULL;
}

static void *checker(void *arg)
{
	(void)arg;
	if (pthread_mutex_trylock(&m) != 0)
		assert(ready); /* busy: the worker is done with it, it thinks */
	else
		pthread_mutex_unlock(&m);
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	ready = 0;
	pthread_create(&a, NULL, worker, (void *)1L);
	pthread_create(&b, NULL, checker, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
