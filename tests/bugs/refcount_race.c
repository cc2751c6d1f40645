/* refcount_race: two users each drop their reference to a shared buffer
 * with a plain decrement, and the one that brings the count to zero
 * releases it. Both can read 2 and write 1: nobody releases, and the
 * buffer leaks (or, with a lost increment, is released while in use).
 * expect: assert. FIXED: the count is a C11 atomic and the decrement
 * atomic_fetch_sub. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct buffer {
#ifdef FIXED
	atomic_int refs;
#else
	volatile int refs;
#endif
	char data[32];
};

static volatile int released;

static void buffer_put(struct buffer *b)
{
#ifdef FIXED
	if (atomic_fetch_sub(&b->refs, 1) == 1) {
#else
	int left = b->refs - 1;
	b->refs = left;
	if (left == 0) {
#endif
		released++;
		free(b);
	}
}

static void *user(void *arg)
{
	struct buffer *b = arg;
#ifdef FIXED /* both users write it: a plain store would race */
	__atomic_store_n(&b->data[0], 'x', __ATOMIC_RELAXED);
#else
	b->data[0] = 'x';
#endif
	buffer_put(b);
	return NULL;
}

int main(void)
{
	struct buffer *b = calloc(1, sizeof *b);
	b->refs = 2;
	released = 0;
	pthread_t a, c;
	pthread_create(&a, NULL, user, b);
	pthread_create(&c, NULL, user, b);
	pthread_join(a, NULL);
	pthread_join(c, NULL);
	assert(released == 1);
	return 0;
}
