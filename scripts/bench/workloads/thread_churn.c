/* thread_churn.c - a libFuzzer harness that only creates two threads and
 * joins them, for real_programs.sh: what one execution's thread lifecycle
 * costs an engine by itself (system calls, and the memory ASan keeps per
 * thread it ever saw), with nothing of a program around it. */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

static void *nothing(void *arg)
{
	return arg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	(void)data;
	(void)size;
	pthread_t a, b;
	if (pthread_create(&a, NULL, nothing, NULL) != 0)
		return 0;
	if (pthread_create(&b, NULL, nothing, NULL) == 0)
		pthread_join(b, NULL);
	pthread_join(a, NULL);
	return 0;
}
