/* sigwait: a signal-handling thread takes SIGUSR1 and SIGUSR2 with
 * sigwait while every thread blocks them: one sent to it with
 * pthread_kill, one to the process with kill(getpid()) by a worker.
 * sigtimedwait with no signal coming times out. */
#include <assert.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

static sigset_t set;
static int got;

static void *taker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 2; i++) {
		int sig;
		assert(sigwait(&set, &sig) == 0);
		assert(sig == SIGUSR1 || sig == SIGUSR2);
		got |= sig == SIGUSR1 ? 1 : 2;
	}
	struct timespec brief = { 0, 1000000 };
	assert(sigtimedwait(&set, NULL, &brief) == -1);
	return NULL;
}

static void *sender(void *arg)
{
	(void)arg;
	kill(getpid(), SIGUSR2);
	return NULL;
}

int main(void)
{
	got = 0;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	pthread_t t, s;
	pthread_create(&t, NULL, taker, NULL);
	pthread_create(&s, NULL, sender, NULL);
	pthread_kill(t, SIGUSR1);
	pthread_join(s, NULL);
	pthread_join(t, NULL);
	assert(got == 3);
	return 0;
}
