/* harness.c - a fuzz target whose input says how many updates each of two
 * workers makes to a shared tally; the bug: the tally has no lock. Fixed:
 * it does. GATED: the lock is left out only when the input's first byte is
 * 3 modulo 4, so that a fuzzer must find that input (afl-fuzz refuses
 * seeds that crash). Under libFuzzer or AFL++ with SCHEDFUZZ_RACES=fail
 * the race is a crash, kept as an input that replays it. */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

static long tally;
static bool locked;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
	long n = (long)arg;
	for (long i = 0; i < n; i++) {
		if (locked)
			pthread_mutex_lock(&lock);
		tally++;
		if (locked)
			pthread_mutex_unlock(&lock);
	}
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	long n = size ? 1 + data[0] % 3 : 1;
#if defined(FIXED)
	locked = true;
#elif defined(GATED)
	locked = !(size && data[0] % 4 == 3);
#else
	locked = false;
#endif
	pthread_t a, b;
	pthread_create(&a, NULL, worker, (void *)n);
	pthread_create(&b, NULL, worker, (void *)n);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
