/* relaxed.c - a lock-free hand-off: the producer writes the data, then
 * publishes a flag; the consumer waits for the flag, then reads the data.
 * The bug: the flag is stored and loaded relaxed, which orders nothing,
 * so the data is raced on. Fixed: release store, acquire load. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>

#ifdef FIXED
#define STORE_ORDER memory_order_release
#define LOAD_ORDER memory_order_acquire
#else
#define STORE_ORDER memory_order_relaxed
#define LOAD_ORDER memory_order_relaxed
#endif

static long data[2];
static atomic_int published;

static void *producer(void *arg)
{
	(void)arg;
	data[0] = 7;
	data[1] = 11;
	atomic_store_explicit(&published, 1, STORE_ORDER);
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, producer, NULL);
	while (!atomic_load_explicit(&published, LOAD_ORDER))
		sched_yield();
	printf("%ld\n", data[0] + data[1]);
	pthread_join(t, NULL);
	return 0;
}
