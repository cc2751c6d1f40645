/* corner_variable: two workers update a statistics counter many times
 * under a lock, and a rarely touched "peak" field once each, without it.
 * The lost update on peak needs one change point at one of its four
 * accesses; PCT must find it among all the run's events, PCTVB among the
 * accesses of one variable (001 section 3, "corner variables").
 * expect: assert. FIXED: peak is updated under the lock as well. */
#include <assert.h>
#include <pthread.h>

#define UPDATES 40

static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
static long stats;
static int peak;

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < UPDATES; i++) {
		pthread_mutex_lock(&stats_lock);
		stats += i;
		pthread_mutex_unlock(&stats_lock);
	}
#ifdef FIXED
	pthread_mutex_lock(&stats_lock);
#endif
	int p = peak;
	peak = p + 1;
#ifdef FIXED
	pthread_mutex_unlock(&stats_lock);
#endif
	return NULL;
}

int main(void)
{
	stats = 0;
	peak = 0;
	pthread_t a, b;
	pthread_create(&a, NULL, worker, NULL);
	pthread_create(&b, NULL, worker, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	assert(peak == 2);
	return 0;
}
