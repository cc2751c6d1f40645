/* session_expiry: a worker looks the current session up and counts a hit
 * on it without holding the table's lock, while the expiry thread unlinks
 * the session and frees it. A worker that looked up before the unlink
 * writes into the freed block: the write lands in memory nobody reads
 * again, so the program's output is right and only ASan sees the bug.
 * expect: heap-use-after-free (WRITE). FIXED: the worker counts the hit
 * inside the lock, which expiry takes to unlink. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct session {
	char id[16];
	int hits;
	int limit;
};

static struct session *volatile table;
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile int served;

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 2; i++) {
#ifdef FIXED
		pthread_mutex_lock(&table_lock);
		struct session *s = table;
		if (s)
			s->hits++;
		pthread_mutex_unlock(&table_lock);
#else
		pthread_mutex_lock(&table_lock);
		struct session *s = table;
		pthread_mutex_unlock(&table_lock);
		if (s)
			s->hits++;
#endif
		served++;
	}
	return NULL;
}

static void *expiry(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&table_lock);
	struct session *old = table;
	table = NULL;
	pthread_mutex_unlock(&table_lock);
	free(old);
	return NULL;
}

int main(void)
{
	table = calloc(1, sizeof *table);
	table->limit = 100;
	served = 0;
	pthread_t a, b;
	pthread_create(&a, NULL, worker, NULL);
	pthread_create(&b, NULL, expiry, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("served %d\n", served);
	return 0;
}
