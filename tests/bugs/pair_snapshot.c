/* pair_snapshot: a reader takes a snapshot of a range (lo, hi) that a
 * writer moves forward, hi first, reading each bound under its own lock:
 * MAP pattern 14 (a:R x, b:W x, b:W y, a:R y) gives a snapshot from two
 * different states, an empty range. A two-variable atomicity violation.
 * expect: assert. FIXED: the snapshot holds one lock around both reads,
 * as the writer does around both writes. */
#include <assert.h>
#include <pthread.h>

static int lo, hi;
static pthread_mutex_t range = PTHREAD_MUTEX_INITIALIZER;

static void *mover(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&range);
	hi = 20;
	lo = 10;
	pthread_mutex_unlock(&range);
	return NULL;
}

static void *reader(void *arg)
{
	(void)arg;
	int l, h;
#ifdef FIXED
	pthread_mutex_lock(&range);
	h = hi;
	l = lo;
	pthread_mutex_unlock(&range);
#else
	pthread_mutex_lock(&range);
	h = hi;
	pthread_mutex_unlock(&range);
	pthread_mutex_lock(&range);
	l = lo;
	pthread_mutex_unlock(&range);
#endif
	assert(l < h);
	return NULL;
}

int main(void)
{
	lo = 0;
	hi = 10;
	pthread_t a, b;
	pthread_create(&a, NULL, reader, NULL);
	pthread_create(&b, NULL, mover, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
