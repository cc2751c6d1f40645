/* destroyed_mutex: main destroys the totals' mutex once the first worker
 * is joined, while the second may still be adding its share: its lock then
 * works on a destroyed mutex (glibc returns EINVAL and the update goes
 * unprotected). The report names the call at the worker's line.
 * FIXED: main joins both workers before destroying the mutex. */
#include <pthread.h>

static pthread_mutex_t lock;
static int total;

static void *worker(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	total++;
	pthread_mutex_unlock(&lock);
	return NULL;
}

int main(void)
{
	pthread_mutex_init(&lock, NULL);
	pthread_t a, b;
	pthread_create(&a, NULL, worker, NULL);
	pthread_create(&b, NULL, worker, NULL);
	pthread_join(a, NULL);
#ifdef FIXED
	pthread_join(b, NULL);
#endif
	pthread_mutex_destroy(&lock);
#ifndef FIXED
	pthread_join(b, NULL);
#endif
	return 0;
}
