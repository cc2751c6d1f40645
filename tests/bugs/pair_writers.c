/* pair_writers: two threads each store their id into a pair (x, y) that
 * must always hold equal halves, each store under its own lock: MAP
 * pattern 9 (a:W x, b:W x, b:W y, a:W y) leaves x from one writer and y
 * from the other. A two-variable atomicity violation.
 * expect: assert. FIXED: one lock guards both halves. */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>

static int x, y;
static pthread_mutex_t x_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t y_lock = PTHREAD_MUTEX_INITIALIZER;

static void *writer(void *arg)
{
	int id = (int)(intptr_t)arg;
#ifdef FIXED
	pthread_mutex_lock(&x_lock);
	x = id;
	y = id;
	pthread_mutex_unlock(&x_lock);
#else
	pthread_mutex_lock(&x_lock);
	x = id;
	pthread_mutex_unlock(&x_lock);
	pthread_mutex_lock(&y_lock);
	y = id;
	pthread_mutex_unlock(&y_lock);
#endif
	return NULL;
}

int main(void)
{
	x = y = 0;
	pthread_t a, b;
	pthread_create(&a, NULL, writer, (void *)1);
	pthread_create(&b, NULL, writer, (void *)2);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	assert(x == y);
	return 0;
}
