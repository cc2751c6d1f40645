/* poll_timeout: timeouts as schedule decisions. A worker serves a pipe
 * with poll() and a 100 ms timeout; on each timeout it counts a tick and
 * checks a stop flag. The main thread waits, polling with usleep, until
 * the worker has seen a timeout (time passes while it sleeps, so the
 * worker's poll may time out: no schedule may hang here), then sends one
 * request through the pipe, waits for the answer on a second pipe, and
 * stops the worker.
 * expect: clean. */
#include <assert.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

static int req[2], ans[2];
static atomic_int ticks, stop;

static void *worker(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop)) {
		struct pollfd p = { req[0], POLLIN, 0 };
		int r = poll(&p, 1, 100);
		assert(r == 0 || r == 1);
		if (r == 0) {
			atomic_fetch_add(&ticks, 1);
			continue;
		}
		char c;
		assert(read(req[0], &c, 1) == 1);
		c++;
		assert(write(ans[1], &c, 1) == 1);
	}
	return NULL;
}

int main(void)
{
	atomic_store(&ticks, 0);
	atomic_store(&stop, 0);
	assert(pipe(req) == 0 && pipe(ans) == 0);
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	while (atomic_load(&ticks) == 0)
		usleep(10000);
	char c = 'a';
	assert(write(req[1], &c, 1) == 1);
	assert(read(ans[0], &c, 1) == 1);
	assert(c == 'b');
	atomic_store(&stop, 1);
	pthread_join(t, NULL);
	return 0;
}
