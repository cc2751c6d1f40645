/* cas_spin_lock: a correct spin lock acquired with a compare-exchange loop
 * and no yield, sleep or pause at all: the waiter's only events are failed
 * compare-exchanges on one address, which must be recognised as a spin and
 * give way under every schedule, with no hang report.
 * expect: clean. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#define THREADS 3
#define ROUNDS 3

static atomic_int locked;
static int counter; /* guarded by locked */

static void spin_lock(void)
{
	for (;;) {
		int expected = 0;
		/* weak: a spurious failure only costs one more round */
		if (atomic_compare_exchange_weak_explicit(&locked, &expected, 1, memory_order_acquire,
							  memory_order_relaxed))
			return;
	}
}

static void spin_unlock(void)
{
	atomic_store_explicit(&locked, 0, memory_order_release);
}

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		spin_lock();
		int seen = counter; /* a read and a write: a lost update if the lock fails */
		counter = seen + 1;
		spin_unlock();
	}
	return NULL;
}

int main(void)
{
	atomic_store(&locked, 0);
	counter = 0;
	pthread_t t[THREADS];
	for (int i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	assert(counter == THREADS * ROUNDS);
	return 0;
}
