/* alarm: timers in virtual time. A worker sleeps in steps of 100 ms until
 * the 1 s alarm's handler has run; main then waits in sigsuspend for a
 * 250 ms one-shot setitimer while nobody sleeps, so time must jump to it.
 * alarm(0) reports what was left and cancels. */
#include <assert.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/time.h>
#include <unistd.h>

static atomic_int fired;

static void on_alarm(int sig)
{
	(void)sig;
	atomic_fetch_add(&fired, 1);
}

static void *sleeper(void *arg)
{
	(void)arg;
	int naps = 0;
	while (atomic_load(&fired) == 0) {
		usleep(100000);
		naps++;
	}
	assert(naps >= 10); /* not before a second went by */
	return NULL;
}

int main(void)
{
	atomic_store(&fired, 0);
	struct sigaction sa = { .sa_handler = on_alarm };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	assert(alarm(5) == 0);
	assert(alarm(0) == 5);
	alarm(1);
	pthread_t t;
	pthread_create(&t, NULL, sleeper, NULL);
	pthread_join(t, NULL);
	assert(atomic_load(&fired) == 1);
	/* Blocked while the flag is checked, let through only inside
	 * sigsuspend: a check-then-pause would lose an alarm that goes off
	 * between the two (lost_alarm.c). */
	sigset_t alrm, old;
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &alrm, &old);
	struct itimerval quarter = { .it_value = { 0, 250000 } };
	setitimer(ITIMER_REAL, &quarter, NULL);
	while (atomic_load(&fired) == 1)
		sigsuspend(&old);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	assert(atomic_load(&fired) == 2);
	return 0;
}
