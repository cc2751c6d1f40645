/* spsc_ring: a correct single-producer, single-consumer ring buffer with
 * C11 acquire/release indices. The consumer polls an empty ring and the
 * producer a full one, with no yield: each waiter rereads the other's
 * index until it moves, a spin on one address that must give way under
 * every schedule. The consumer checks that items arrive in order and
 * that none is lost or duplicated.
 * expect: clean. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#define SLOTS 4 /* smaller than ITEMS, so the producer waits too */
#define ITEMS 20

static int ring[SLOTS];
/* head: next slot to read, written by the consumer only; tail: next slot
 * to write, written by the producer only. Both count up without wrapping;
 * tail - head is the number of items in the ring, never above SLOTS. */
static atomic_uint head, tail;
static long sum;

static void *producer(void *arg)
{
	(void)arg;
	for (int item = 1; item <= ITEMS; item++) {
		unsigned t = atomic_load_explicit(&tail, memory_order_relaxed);
		while (t - atomic_load_explicit(&head, memory_order_acquire) == SLOTS)
			; /* full: wait for the consumer */
		ring[t % SLOTS] = item;
		atomic_store_explicit(&tail, t + 1, memory_order_release);
	}
	return NULL;
}

static void *consumer(void *arg)
{
	(void)arg;
	for (int expected = 1; expected <= ITEMS; expected++) {
		unsigned h = atomic_load_explicit(&head, memory_order_relaxed);
		while (atomic_load_explicit(&tail, memory_order_acquire) == h)
			; /* empty: wait for the producer */
		int item = ring[h % SLOTS];
		atomic_store_explicit(&head, h + 1, memory_order_release);
		assert(item == expected);
		sum += item;
	}
	return NULL;
}

int main(void)
{
	atomic_store(&head, 0);
	atomic_store(&tail, 0);
	sum = 0;
	pthread_t p, c;
	pthread_create(&c, NULL, consumer, NULL);
	pthread_create(&p, NULL, producer, NULL);
	pthread_join(c, NULL);
	pthread_join(p, NULL);
	assert(sum == ITEMS * (ITEMS + 1) / 2);
	return 0;
}
