/* lost_pause: main waits for a worker's SIGUSR1 with `while (!got)
 * pause();`, the classic lost signal: when the signal arrives after the
 * check and before pause, the handler sets the flag and pause sleeps for
 * ever. -DFIXED blocks SIGUSR1 before the check and waits with
 * sigsuspend, which unblocks it and waits in one step. */
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

static volatile sig_atomic_t got;
static pthread_t waiter;

static void on_usr1(int sig)
{
	(void)sig;
	got = 1;
}

static void *sender(void *arg)
{
	(void)arg;
	pthread_kill(waiter, SIGUSR1);
	return NULL;
}

int main(void)
{
	got = 0;
	waiter = pthread_self();
	struct sigaction sa = { .sa_handler = on_usr1 };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
#ifdef FIXED
	sigset_t usr1, old;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &usr1, &old);
#endif
	pthread_t t;
	pthread_create(&t, NULL, sender, NULL);
#ifdef FIXED
	while (!got)
		sigsuspend(&old);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
#else
	while (!got)
		pause();
#endif
	pthread_join(t, NULL);
	return 0;
}
