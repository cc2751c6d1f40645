/* ub_join: joins and detaches that POSIX leaves undefined and glibc 2.36
 * survives, as a compressor that joins its writer thread twice does. Each
 * call must return what glibc returns (natively too: this program passes
 * built with plain cc), and the execution must go on.
 * BUG: the two workers started after them count without the lock. */
#define _GNU_SOURCE
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int count;

static void *work(void *arg)
{
#ifdef BUG
	int seen = count;
	count = seen + 1;
#else
	pthread_mutex_lock(&lock);
	count++;
	pthread_mutex_unlock(&lock);
#endif
	return arg;
}

static void *idle(void *arg)
{
	return arg;
}

int main(void)
{
	count = 0;
	pthread_t writer;
	void *ret = NULL;
	pthread_create(&writer, NULL, work, (void *)(intptr_t)7);
	assert(pthread_join(writer, &ret) == 0 && ret == (void *)(intptr_t)7);
	/* The second join reads the descriptor of a joined thread. */
	assert(pthread_join(writer, &ret) == ESRCH);
	assert(pthread_tryjoin_np(writer, &ret) == EBUSY);
	assert(pthread_detach(writer) == ESRCH);

	pthread_t detached;
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_create(&detached, &attr, idle, NULL);
	pthread_attr_destroy(&attr);
	assert(pthread_join(detached, NULL) == EINVAL);
	assert(pthread_detach(detached) == EINVAL);

	pthread_t other;
	pthread_create(&other, NULL, idle, NULL);
	assert(pthread_detach(other) == 0);
	assert(pthread_detach(other) == EINVAL);
	assert(pthread_join(other, NULL) == EINVAL);

	pthread_t a, b;
	pthread_create(&a, NULL, work, NULL);
	pthread_create(&b, NULL, work, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	assert(count == 3);
	return 0;
}
