/* vector_push: a growable vector publishes its new size before it stores
 * the element, and a reader indexes by the size it reads: MAP pattern 12
 * (a:W x, b:R x, b:R y, a:W y) lets the reader see a slot that is not
 * written yet. A two-variable atomicity violation.
 * expect: assert. FIXED: the element is stored before the size grows. */
#include <assert.h>
#include <pthread.h>

#define CAP 4

static volatile int size;
static volatile int items[CAP];

static void *pusher(void *arg)
{
	(void)arg;
	for (int v = 1; v <= 2; v++) {
#ifdef FIXED
		items[size] = v;
		size = size + 1;
#else
		int at = size;
		size = at + 1;
		items[at] = v;
#endif
	}
	return NULL;
}

static void *reader(void *arg)
{
	(void)arg;
	int n = size;
	if (n > 0)
		assert(items[n - 1] != 0); /* every published element is set */
	return NULL;
}

int main(void)
{
	size = 0;
	for (int i = 0; i < CAP; i++)
		items[i] = 0;
	pthread_t a, b;
	pthread_create(&a, NULL, pusher, NULL);
	pthread_create(&b, NULL, reader, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
