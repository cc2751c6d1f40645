/* interleave_harness: a libFuzzer target whose code takes the same path on
 * every input, while its two threads' accesses to x and y interleave
 * differently from schedule to schedule. Code coverage cannot tell the
 * inputs apart; only interleaving coverage can. Built with -DMAIN it is a
 * plain program doing the same once, for afl-fuzz. */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

static long x, y;

static void *writer(void *arg)
{
	x = 1;
	y = 1;
	return NULL;
}

static void *reader(void *arg)
{
	long seen = y;
	seen += x;
	x = seen;
	return NULL;
}

#ifdef MAIN
int main(void)
#else
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
#endif
{
	pthread_t a, b;
	x = y = 0;
	pthread_create(&a, NULL, writer, NULL);
	pthread_create(&b, NULL, reader, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
