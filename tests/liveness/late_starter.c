/* late_starter: two threads that spin in turn, one polling a flag under a
 * mutex, one polling it with an atomic load and sched_yield, while the
 * thread that sets the flag is created last and has not run yet. A
 * scheduler that hands over from a spinner to "the lowest other thread"
 * alternates between the two spinners for ever and never runs the third:
 * an unfair schedule no OS makes, which would be reported as a hang. The
 * decision lists of the systematic search and of guided run's reversal
 * arm fall back on such a default where they say nothing, unless it is
 * the fair one (SF_FLAG_FAIR): under the plain one, DPOR's first schedule
 * of this program never ended.
 * expect: clean. */
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int stop_locked; /* guarded by m */
static atomic_int stop;
static int polls; /* guarded by m */

static void *lock_poller(void *arg)
{
	for (;;) {
		pthread_mutex_lock(&m);
		int done = stop_locked;
		polls++;
		pthread_mutex_unlock(&m);
		if (done)
			return NULL;
		sched_yield();
	}
}

static void *atomic_poller(void *arg)
{
	while (!atomic_load(&stop))
		sched_yield();
	return NULL;
}

static void *stopper(void *arg)
{
	pthread_mutex_lock(&m);
	stop_locked = 1;
	pthread_mutex_unlock(&m);
	atomic_store(&stop, 1);
	return NULL;
}

int main(void)
{
	stop_locked = 0;
	polls = 0;
	atomic_store(&stop, 0);
	pthread_t a, b, c;
	pthread_create(&a, NULL, lock_poller, NULL);
	pthread_create(&b, NULL, atomic_poller, NULL);
	pthread_create(&c, NULL, stopper, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	pthread_join(c, NULL);
	assert(stop_locked && atomic_load(&stop) && polls >= 1);
	return 0;
}
