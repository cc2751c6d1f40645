/* byte.c - two flags in one word: 'seen' is always updated under the
 * lock, 'hits' by one thread without it. The bug is the race on 'hits'
 * alone: the report must never name 'seen', its neighbour byte. Fixed:
 * 'hits' under the lock too. */
#include <pthread.h>
#include <stdio.h>

static struct {
	char seen;
	char hits;
} stats;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
	long id = (long)arg;
	pthread_mutex_lock(&lock);
	stats.seen++;
	if (id == 0)
		stats.hits++;
	pthread_mutex_unlock(&lock);
#ifndef FIXED
	if (id == 1)
		stats.hits++;
#else
	if (id == 1) {
		pthread_mutex_lock(&lock);
		stats.hits++;
		pthread_mutex_unlock(&lock);
	}
#endif
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, worker, (void *)0L);
	pthread_create(&b, NULL, worker, (void *)1L);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("%d %d\n", stats.seen, stats.hits);
	return 0;
}
