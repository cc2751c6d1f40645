/* harness: a libFuzzer target that creates threads on every input and, for
 * one input byte, leaks one past its return (the runtime must run it to
 * its end before the next input). Used by the leak test. */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long total;

static void *work(void *arg)
{
	pthread_mutex_lock(&lock);
	total += (long)(intptr_t)arg;
	pthread_mutex_unlock(&lock);
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pthread_t a, b;
	pthread_create(&a, NULL, work, (void *)(intptr_t)size);
	pthread_create(&b, NULL, work, (void *)1);
	pthread_join(a, NULL);
	if (size > 0 && data[0] == 'L') {
		pthread_detach(b); /* leaked: runs to its end under control */
		return 0;
	}
	pthread_join(b, NULL);
	return 0;
}
