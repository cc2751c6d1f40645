/* timerfd_tick: a ticker thread reads a periodic timerfd (one hour a
 * tick: time is virtual, so each expiry is a schedule decision and no
 * schedule waits for it) and counts ticks under a mutex, signalling the
 * main thread, which waits for three ticks and then tells the ticker to
 * stop through an eventfd the ticker polls.
 * expect: clean. */
#include <assert.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

static int timer_fd, stop_fd;
static uint64_t ticks;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ticked = PTHREAD_COND_INITIALIZER;

static void *ticker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 3; i++) {
		uint64_t n;
		assert(read(timer_fd, &n, sizeof n) == sizeof n);
		assert(n >= 1);
		pthread_mutex_lock(&lock);
		ticks += n;
		pthread_cond_signal(&ticked);
		pthread_mutex_unlock(&lock);
	}
	struct pollfd p = { stop_fd, POLLIN, 0 };
	assert(poll(&p, 1, -1) == 1);
	return NULL;
}

int main(void)
{
	ticks = 0;
	timer_fd = timerfd_create(CLOCK_MONOTONIC, 0);
	stop_fd = eventfd(0, 0);
	assert(timer_fd >= 0 && stop_fd >= 0);
	struct itimerspec its = { { 3600, 0 }, { 3600, 0 } };
	assert(timerfd_settime(timer_fd, 0, &its, NULL) == 0);
	pthread_t t;
	pthread_create(&t, NULL, ticker, NULL);
	pthread_mutex_lock(&lock);
	while (ticks < 3)
		pthread_cond_wait(&ticked, &lock);
	pthread_mutex_unlock(&lock);
	uint64_t one = 1;
	assert(write(stop_fd, &one, sizeof one) == sizeof one);
	pthread_join(t, NULL);
	close(timer_fd);
	close(stop_fd);
	return 0;
}
