/* posix_timer: a timer_create timer (SIGEV_SIGNAL, SIGRTMIN, a value)
 * fires every millisecond of virtual time while a worker computes; main
 * waits for three expiries with sigsuspend, the SA_SIGINFO handler sees
 * the timer's value, and a second, one-shot timer's signal is taken with
 * sigwaitinfo with its value. Then both are deleted. */
#include <assert.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>

static volatile sig_atomic_t ticks, stop;
static volatile long worked;

static void on_tick(int sig, siginfo_t *info, void *uctx)
{
	(void)uctx;
	assert(sig == SIGRTMIN && info->si_value.sival_int == 42);
	ticks++;
}

static void *worker(void *arg)
{
	(void)arg;
	while (!stop)
		worked++;
	return NULL;
}

int main(void)
{
	ticks = stop = 0;
	worked = 0;
	struct sigaction sa = { .sa_sigaction = on_tick, .sa_flags = SA_SIGINFO };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGRTMIN, &sa, NULL);
	sigset_t both, old;
	sigemptyset(&both);
	sigaddset(&both, SIGRTMIN);
	sigaddset(&both, SIGRTMIN + 1);
	pthread_sigmask(SIG_BLOCK, &both, &old); /* the worker inherits it */
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);

	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGRTMIN };
	ev.sigev_value.sival_int = 42;
	timer_t tick;
	assert(timer_create(CLOCK_MONOTONIC, &ev, &tick) == 0);
	struct itimerspec every_ms = { .it_value = { 0, 1000000 }, .it_interval = { 0, 1000000 } };
	assert(timer_settime(tick, 0, &every_ms, NULL) == 0);
	while (ticks < 3)
		sigsuspend(&old);
	struct itimerspec left;
	assert(timer_gettime(tick, &left) == 0 && left.it_interval.tv_nsec == 1000000);
	assert(timer_delete(tick) == 0);

	ev.sigev_signo = SIGRTMIN + 1;
	ev.sigev_value.sival_int = 7;
	timer_t once;
	assert(timer_create(CLOCK_REALTIME, &ev, &once) == 0);
	struct itimerspec in_5ms = { .it_value = { 0, 5000000 } };
	assert(timer_settime(once, 0, &in_5ms, NULL) == 0);
	sigset_t second;
	sigemptyset(&second);
	sigaddset(&second, SIGRTMIN + 1);
	siginfo_t info;
	assert(sigwaitinfo(&second, &info) == SIGRTMIN + 1 && info.si_value.sival_int == 7);
	assert(timer_delete(once) == 0);

	stop = 1;
	pthread_join(t, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return 0;
}
