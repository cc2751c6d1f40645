/* xchg_yield_lock: a correct test-and-set spin lock, acquired with
 * atomic_exchange, each thread backing off in its own way between tries:
 * sched_yield(), usleep(0) or sleep(0). Every failed exchange writes the
 * lock word (1 over 1), so a spin must be told from progress by what it
 * changes, not by whether it writes. The back-offs are scheduling points
 * that must give way, and take no time under virtual time.
 * expect: clean. */
#define _DEFAULT_SOURCE /* usleep */
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <unistd.h>

#define THREADS 3
#define ROUNDS 3

enum backoff { YIELD, USLEEP0, SLEEP0 };

static atomic_int locked;
static int counter; /* guarded by locked */

static void spin_lock(enum backoff how)
{
	while (atomic_exchange_explicit(&locked, 1, memory_order_acquire)) {
		switch (how) {
		case YIELD:
			sched_yield();
			break;
		case USLEEP0:
			usleep(0);
			break;
		case SLEEP0:
			sleep(0);
			break;
		}
	}
}

static void spin_unlock(void)
{
	atomic_store_explicit(&locked, 0, memory_order_release);
}

static void *worker(void *arg)
{
	enum backoff how = (enum backoff)(long)arg;
	for (int i = 0; i < ROUNDS; i++) {
		spin_lock(how);
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
	for (long i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, worker, (void *)i); /* one back-off each */
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	assert(counter == THREADS * ROUNDS);
	return 0;
}
