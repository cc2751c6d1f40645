/* lost_alarm: main arms alarm(1) and waits for it with `while (!fired)
 * pause();` while a worker computes: if the machine is slow enough that
 * the alarm goes off between the check and pause, its handler sets the
 * flag and pause sleeps for ever (the race of APUE's sleep1). -DFIXED
 * blocks SIGALRM before arming it and waits with sigsuspend. */
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

static volatile sig_atomic_t fired;
static volatile long total;

static void on_alarm(int sig)
{
	(void)sig;
	fired = 1;
}

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 100; i++)
		total += i;
	return NULL;
}

int main(void)
{
	fired = 0;
	total = 0;
	struct sigaction sa = { .sa_handler = on_alarm };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
#ifdef FIXED
	sigset_t alrm, old;
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &alrm, &old);
#endif
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	alarm(1);
#ifdef FIXED
	while (!fired)
		sigsuspend(&old);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
#else
	while (!fired)
		pause();
#endif
	pthread_join(t, NULL);
	return 0;
}
