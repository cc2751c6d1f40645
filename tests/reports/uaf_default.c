/* uaf_default: a cache whose evicting thread frees an entry that a reader
 * still holds. In the default mode (no ASan) nothing traps the read; the
 * freed block's value is what glibc left in it. The report must show the
 * free in the interleaving and say that the read was of a freed block, by
 * whom and where. FIXED: the reader copies the value under the lock. */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

struct entry {
	long key;
	long value;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct entry *cached;

static void *reader(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	struct entry *e = cached;
#ifdef FIXED
	long v = e ? e->value : 42;
#endif
	pthread_mutex_unlock(&lock);
#ifndef FIXED
	long v = e ? e->value : 42; /* the entry may be evicted by now */
#endif
	assert(v == 42);
	return NULL;
}

static void *evicter(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	struct entry *e = cached;
	cached = NULL;
	pthread_mutex_unlock(&lock);
	free(e);
	return NULL;
}

int main(void)
{
	cached = malloc(sizeof *cached);
	cached->key = 1;
	cached->value = 42;
	pthread_t r, v;
	pthread_create(&r, NULL, reader, NULL);
	pthread_create(&v, NULL, evicter, NULL);
	pthread_join(r, NULL);
	pthread_join(v, NULL);
	return 0;
}
