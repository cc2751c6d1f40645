/* histogram_harness: a harness whose bug needs both a specific input and
 * a specific interleaving. The input is a list of samples, dealt
 * alternately to two threads that count them into a histogram. Ordinary
 * samples go to their bucket under the histogram's lock; samples of 200
 * or more go to an overflow counter that was thought too rare to need it.
 * Two overflow samples counted at once, one by each thread, can lose one.
 * expect: assert. FIXED: the overflow counter takes the lock too. */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#define MAX_SAMPLES 16
#define BUCKETS 8

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int bucket[BUCKETS];
static volatile int overflow;
static const uint8_t *samples;
static size_t nsamples;

static void count(uint8_t v)
{
	if (v >= 200) {
#ifdef FIXED
		pthread_mutex_lock(&lock);
#endif
		int seen = overflow;
		overflow = seen + 1;
#ifdef FIXED
		pthread_mutex_unlock(&lock);
#endif
		return;
	}
	pthread_mutex_lock(&lock);
	bucket[v * BUCKETS / 200]++;
	pthread_mutex_unlock(&lock);
}

static void *counter(void *arg)
{
	for (size_t i = (size_t)(intptr_t)arg; i < nsamples; i += 2)
		count(samples[i]);
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	samples = data;
	nsamples = size < MAX_SAMPLES ? size : MAX_SAMPLES;
	overflow = 0;
	for (int i = 0; i < BUCKETS; i++)
		bucket[i] = 0;
	pthread_t a, b;
	pthread_create(&a, NULL, counter, (void *)0);
	pthread_create(&b, NULL, counter, (void *)1);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	int total = overflow;
	for (int i = 0; i < BUCKETS; i++)
		total += bucket[i];
	assert(total == (int)nsamples);
	return 0;
}
