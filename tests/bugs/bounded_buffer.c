/* bounded_buffer: a ring buffer with counting semaphores for free and
 * full slots, shared by two producers and a consumer. The producers claim
 * a slot index without a lock: both can read the same index, one item
 * overwrites the other, and the consumer sees a duplicate.
 * expect: assert. FIXED: a mutex guards the producers' index. */
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>

#define SLOTS 2
#define PER_PRODUCER 2

static sem_t free_slots, full_slots;
static pthread_mutex_t put_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile int ring[SLOTS];
static volatile int in;
static int out;

static void *producer(void *arg)
{
	int base = (int)(intptr_t)arg;
	for (int i = 0; i < PER_PRODUCER; i++) {
		sem_wait(&free_slots);
#ifdef FIXED
		pthread_mutex_lock(&put_lock);
#endif
		int at = in;
		ring[at % SLOTS] = base + i;
		in = at + 1;
#ifdef FIXED
		pthread_mutex_unlock(&put_lock);
#endif
		sem_post(&full_slots);
	}
	return NULL;
}

static void *consumer(void *arg)
{
	(void)arg;
	int seen = 0; /* one bit per item */
	for (int i = 0; i < 2 * PER_PRODUCER; i++) {
		sem_wait(&full_slots);
		int v = ring[out++ % SLOTS];
		sem_post(&free_slots);
		assert(!(seen & (1 << v)));
		seen |= 1 << v;
	}
	return NULL;
}

int main(void)
{
	in = out = 0;
	(void)put_lock;
	sem_init(&free_slots, 0, SLOTS);
	sem_init(&full_slots, 0, 0);
	pthread_t p1, p2, c;
	pthread_create(&c, NULL, consumer, NULL);
	pthread_create(&p1, NULL, producer, (void *)0);
	pthread_create(&p2, NULL, producer, (void *)(intptr_t)PER_PRODUCER);
	pthread_join(p1, NULL);
	pthread_join(p2, NULL);
	pthread_join(c, NULL);
	sem_destroy(&full_slots);
	sem_destroy(&free_slots);
	return 0;
}
