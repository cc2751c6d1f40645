/* tally_fuzzer.c - the same as a libFuzzer-style harness: the input says
 * how much each thread adds. */
#include <assert.h>
#include <pthread.h>
#include <schedfuzz.h>

#include "tally.h"

static long total;

static void *adder(void *arg)
{
	tally_add(&total, (long)arg);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	long a_n = size > 0 ? data[0] % 8 + 1 : 1, b_n = size > 1 ? data[1] % 8 + 1 : 1;
	total = 0;
	pthread_t a, b;
	pthread_create(&a, 0, adder, (void *)a_n);
	pthread_create(&b, 0, adder, (void *)b_n);
	pthread_join(a, 0);
	pthread_join(b, 0);
	assert(total == a_n + b_n);
	return 0;
}
