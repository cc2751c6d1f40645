/* harness.c - a fuzz target whose input says how many updates each of two
 * workers makes to a shared tally; the bug: the tally has no lock. Fixed:
 * it does. Under libFuzzer or AFL++ with SCHEDFUZZ_RACES=fail the race is
 * a crash, kept as an input that replays it. */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

static long tally;
#ifdef FIXED
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
#endif

static void *worker(void *arg)
{
	long n = (long)arg;
	for (long i = 0; i < n; i++) {
#ifdef FIXED
		pthread_mutex_lock(&lock);
#endif
		tally++;
#ifdef FIXED
		pthread_mutex_unlock(&lock);
#endif
	}
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	long n = size ? 1 + data[0] % 3 : 1;
	pthread_t a, b;
	pthread_create(&a, NULL, worker, (void *)n);
	pthread_create(&b, NULL, worker, (void *)n);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
