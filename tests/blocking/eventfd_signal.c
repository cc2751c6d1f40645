/* eventfd_signal: two workers each add a batch to a shared total under a
 * mutex and signal an eventfd once per item; the main thread blocks in
 * read() on the eventfd (a counter: each read takes everything signalled
 * so far) until it has seen every item, then checks the total. A third
 * thread, blocked on a second eventfd in semaphore mode, is released one
 * unit at a time by the main thread and must see exactly the units
 * released.
 * expect: clean. */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <unistd.h>

#define PER_WORKER 3

static int items_fd, units_fd;
static long total;
static int units_seen;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
	long base = (long)(intptr_t)arg;
	for (int i = 1; i <= PER_WORKER; i++) {
		pthread_mutex_lock(&lock);
		total += base * i;
		pthread_mutex_unlock(&lock);
		uint64_t one = 1;
		assert(write(items_fd, &one, sizeof one) == sizeof one);
	}
	return NULL;
}

static void *taker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 2; i++) {
		uint64_t v;
		assert(read(units_fd, &v, sizeof v) == sizeof v);
		assert(v == 1); /* semaphore mode: one unit per read */
		units_seen++;
	}
	return NULL;
}

int main(void)
{
	total = 0;
	units_seen = 0;
	items_fd = eventfd(0, 0);
	units_fd = eventfd(0, EFD_SEMAPHORE);
	assert(items_fd >= 0 && units_fd >= 0);
	pthread_t w1, w2, t;
	pthread_create(&t, NULL, taker, NULL);
	pthread_create(&w1, NULL, worker, (void *)1);
	pthread_create(&w2, NULL, worker, (void *)10);
	uint64_t seen = 0;
	while (seen < 2 * PER_WORKER) {
		uint64_t v;
		assert(read(items_fd, &v, sizeof v) == sizeof v);
		seen += v;
	}
	pthread_mutex_lock(&lock);
	assert(total == (1 + 10) * (1 + 2 + 3));
	pthread_mutex_unlock(&lock);
	uint64_t two = 2;
	assert(write(units_fd, &two, sizeof two) == sizeof two);
	pthread_join(t, NULL);
	assert(units_seen == 2);
	pthread_join(w1, NULL);
	pthread_join(w2, NULL);
	close(items_fd);
	close(units_fd);
	return 0;
}
