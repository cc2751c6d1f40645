/* kill_blocked: signals sent to the process with kill(getpid()) while
 * main blocks them, as every thread does from its start: SIGUSR1, whose
 * default action ends the process, goes to the worker that waits for it
 * in sigwait; SIGUSR2 goes to the worker that unblocks it and runs its
 * handler there, or waits pending on the process until it does. */
#include <assert.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

static volatile sig_atomic_t handled_by_opener;
static pthread_t opener_thread;

static void on_usr2(int sig)
{
	(void)sig;
	assert(pthread_equal(pthread_self(), opener_thread));
	handled_by_opener = 1;
}

static void *taker(void *arg)
{
	(void)arg;
	sigset_t usr1;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	int sig = 0;
	assert(sigwait(&usr1, &sig) == 0 && sig == SIGUSR1);
	return NULL;
}

static void *opener(void *arg)
{
	(void)arg;
	sigset_t usr2;
	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	pthread_sigmask(SIG_UNBLOCK, &usr2, NULL);
	while (!handled_by_opener)
		sched_yield();
	return NULL;
}

int main(void)
{
	handled_by_opener = 0;
	struct sigaction sa = { .sa_handler = on_usr2 };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR2, &sa, NULL);
	sigset_t both;
	sigemptyset(&both);
	sigaddset(&both, SIGUSR1);
	sigaddset(&both, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &both, NULL);
	pthread_t t, o;
	pthread_create(&t, NULL, taker, NULL);
	pthread_create(&o, NULL, opener, NULL);
	opener_thread = o;
	kill(getpid(), SIGUSR1);
	kill(getpid(), SIGUSR2);
	pthread_join(t, NULL);
	pthread_join(o, NULL);
	return 0;
}
