/* sleep_alarm: an alarm that falls due during a longer sleep cuts it
 * short, as the kernel does: sleep returns the seconds left (glibc rounds
 * them), nanosleep -1 with EINTR and the time left, after the handler
 * ran. gnulib's "working sleep" and "nanosleep" configure checks rely on
 * it, and a sleep of TIME_T_MAX seconds must not overflow. A worker that
 * blocks SIGALRM (from its creation on) runs beside, so only main can
 * take it. */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t fired;
static volatile long total;

static void on_alarm(int sig)
{
	(void)sig;
	fired++;
}

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 50; i++)
		total += i;
	return NULL;
}

int main(void)
{
	fired = 0;
	total = 0;
	/* The worker inherits SIGALRM blocked: it cannot take the alarm
	 * before it had the chance to block it itself. */
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	signal(SIGALRM, on_alarm);
	alarm(1);
	unsigned left = sleep(100);
	assert(fired == 1 && left >= 98 && left <= 99);
	alarm(1);
	struct timespec ts = { 100, 0 }, rem = { 0, 0 };
	int r = nanosleep(&ts, &rem);
	assert(r == -1 && errno == EINTR && fired == 2 && rem.tv_sec >= 98 && rem.tv_sec <= 99);
	alarm(1);
	ts.tv_sec = (time_t)INTPTR_MAX; /* TIME_T_MAX */
	r = nanosleep(&ts, &rem);
	assert(r == -1 && errno == EINTR && fired == 3 && rem.tv_sec > 1000000);
	pthread_join(t, NULL);
	return 0;
}
