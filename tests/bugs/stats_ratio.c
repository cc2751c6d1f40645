/* stats_ratio: a statistics thread checks that the sample count is not
 * zero, then divides by it, reading it again; a reset in another thread
 * between the check and the division divides by zero. A one-variable
 * atomicity violation (MAP pattern 4, read-write-read).
 * expect: signal (SIGFPE). FIXED: the count is read once, under the
 * statistics lock. */
#include <pthread.h>

static volatile int samples, total;
static volatile int average;
static pthread_mutex_t stats = PTHREAD_MUTEX_INITIALIZER;

static void *reporter(void *arg)
{
	(void)arg;
#ifdef FIXED
	pthread_mutex_lock(&stats);
	int n = samples;
	if (n != 0)
		average = total / n;
	pthread_mutex_unlock(&stats);
#else
	if (samples != 0)
		average = total / samples;
#endif
	return NULL;
}

static void *resetter(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&stats);
	samples = 0;
	total = 0;
	pthread_mutex_unlock(&stats);
	return NULL;
}

int main(void)
{
	samples = 4;
	total = 100;
	pthread_t a, b;
	pthread_create(&a, NULL, reporter, NULL);
	pthread_create(&b, NULL, resetter, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
