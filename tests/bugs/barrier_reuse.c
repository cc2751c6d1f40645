/* barrier_reuse: three workers fill their slot of a partial-sum array,
 * meet at a barrier, and each checks the total; the thread the barrier
 * names serial then clears the array for the next round. Without a second
 * barrier, the serial thread can clear the slots while another worker is
 * still summing them. Barrier misuse: one barrier where two are needed.
 * expect: assert. FIXED: a second barrier keeps the clearing until every
 * worker has summed. */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>

#define WORKERS 3

static pthread_barrier_t summed, filled;
static volatile int part[WORKERS];

static void *worker(void *arg)
{
	int me = (int)(intptr_t)arg;
	part[me] = me + 1;
	int serial = pthread_barrier_wait(&filled) == PTHREAD_BARRIER_SERIAL_THREAD;
	int sum = 0;
	for (int i = 0; i < WORKERS; i++)
		sum += part[i];
	assert(sum == WORKERS * (WORKERS + 1) / 2);
#ifdef FIXED
	pthread_barrier_wait(&summed);
#endif
	if (serial)
		for (int i = 0; i < WORKERS; i++)
			part[i] = 0;
	return NULL;
}

int main(void)
{
	pthread_barrier_init(&filled, NULL, WORKERS);
	pthread_barrier_init(&summed, NULL, WORKERS);
	pthread_t t[WORKERS];
	for (int i = 0; i < WORKERS; i++)
		pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i);
	for (int i = 0; i < WORKERS; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&summed);
	pthread_barrier_destroy(&filled);
	return 0;
}
