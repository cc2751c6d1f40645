/* lost_sigsuspend: main waits for the SIGUSR1 a worker sends to the
 * process with kill(getpid()), blocking it only once it has seen the flag
 * clear: a signal handled between the check and the block is lost, and
 * sigsuspend sleeps for ever. -DFIXED blocks SIGUSR1 before the check. */
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

static volatile sig_atomic_t got;

static void on_usr1(int sig)
{
	(void)sig;
	got = 1;
}

static void *sender(void *arg)
{
	(void)arg;
	kill(getpid(), SIGUSR1);
	return NULL;
}

int main(void)
{
	got = 0;
	struct sigaction sa = { .sa_handler = on_usr1 };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	sigset_t usr1, old;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	/* Only main may take it: the worker blocks it from its start. */
	pthread_sigmask(SIG_BLOCK, &usr1, &old);
	pthread_t t;
	pthread_create(&t, NULL, sender, NULL);
#ifdef FIXED
	while (!got)
		sigsuspend(&old);
#else
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	while (!got) {
		pthread_sigmask(SIG_BLOCK, &usr1, NULL);
		sigsuspend(&old);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
#endif
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_join(t, NULL);
	return 0;
}
