/* flag.c - a worker sets a plain flag that main spins on; the bug: the
 * flag and the result it announces are plain data, read while written.
 * Fixed: the flag is an atomic with release and acquire. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>

static int result;
#ifdef FIXED
static atomic_int ready;
#define SET(f) atomic_store_explicit(&f, 1, memory_order_release)
#define GET(f) atomic_load_explicit(&f, memory_order_acquire)
#else
static int ready;
#define SET(f) ((f) = 1)
#define GET(f) (f)
#endif

static void *worker(void *arg)
{
	(void)arg;
	result = 42;
	SET(ready);
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	while (!GET(ready))
		sched_yield();
	printf("%d\n", result);
	pthread_detach(t);
	return 0;
}
