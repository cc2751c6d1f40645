/* lost_sigwait: a worker takes SIGUSR1 with sigwait, but blocks it only
 * once it runs, while main sends it as soon as the worker exists: a
 * signal that arrives before the block runs the handler instead, and
 * sigwait waits for ever. -DFIXED blocks SIGUSR1 in main before creating
 * the worker, which inherits the mask. */
#include <assert.h>
#include <pthread.h>
#include <signal.h>

static volatile sig_atomic_t handled;

static void on_usr1(int sig)
{
	(void)sig;
	handled = 1;
}

static void *taker(void *arg)
{
	(void)arg;
	sigset_t usr1;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &usr1, NULL);
	int sig = 0;
	sigwait(&usr1, &sig);
	assert(sig == SIGUSR1);
	return NULL;
}

int main(void)
{
	handled = 0;
	struct sigaction sa = { .sa_handler = on_usr1 };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	sigset_t usr1, old;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
#ifdef FIXED
	pthread_sigmask(SIG_BLOCK, &usr1, &old);
#endif
	pthread_t t;
	pthread_create(&t, NULL, taker, NULL);
	pthread_kill(t, SIGUSR1);
	pthread_join(t, NULL);
#ifdef FIXED
	pthread_sigmask(SIG_SETMASK, &old, NULL);
#endif
	return 0;
}
