/* tally_test.c - two threads add to one total; the test checks the sum and
 * that the schedfuzz runtime controls its threads. */
#include <assert.h>
#include <pthread.h>
#include <schedfuzz.h>

#include "tally.h"

static long total;

static void *adder(void *arg)
{
	assert(schedfuzz_controlled && schedfuzz_controlled());
	assert(schedfuzz_thread_id() == (int)(long)arg);
	tally_add(&total, 1);
	return 0;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, 0, adder, (void *)1);
	pthread_create(&b, 0, adder, (void *)2);
	pthread_join(a, 0);
	pthread_join(b, 0);
	assert(total == 2);
	return 0;
}
