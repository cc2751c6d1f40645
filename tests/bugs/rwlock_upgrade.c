/* rwlock_upgrade: a cache lookup misses under the read lock, drops it,
 * takes the write lock and inserts, without looking again. Two threads
 * missing at once both insert the same key. Read-write lock misuse: an
 * "upgrade" that is not atomic must re-check.
 * expect: assert. FIXED: the lookup is repeated under the write lock. */
#include <assert.h>
#include <pthread.h>

#define KEY 7

static pthread_rwlock_t cache_lock = PTHREAD_RWLOCK_INITIALIZER;
static int entries, copies_of_key;

static int lookup(int key)
{
	return key == KEY && copies_of_key > 0;
}

static void *get(void *arg)
{
	(void)arg;
	pthread_rwlock_rdlock(&cache_lock);
	int hit = lookup(KEY);
	pthread_rwlock_unlock(&cache_lock);
	if (hit)
		return NULL;
	pthread_rwlock_wrlock(&cache_lock);
#ifdef FIXED
	if (!lookup(KEY)) {
#else
	{
#endif
		copies_of_key++;
		entries++;
	}
	assert(copies_of_key == 1);
	pthread_rwlock_unlock(&cache_lock);
	return NULL;
}

int main(void)
{
	entries = copies_of_key = 0;
	pthread_t a, b;
	pthread_create(&a, NULL, get, NULL);
	pthread_create(&b, NULL, get, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
