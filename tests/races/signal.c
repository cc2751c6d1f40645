/* signal.c - a signal handler reads a status a worker writes; the bug:
 * the worker's write and the handler's read on another thread are not
 * ordered. Fixed: the worker writes before it sends the signal, which
 * orders the write before the handler. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static int status;
static volatile sig_atomic_t got;
static pthread_t main_thread;

static void on_usr1(int sig)
{
	(void)sig;
	got = status + 1;
}

static void *worker(void *arg)
{
	(void)arg;
#ifdef FIXED
	status = 5;
	pthread_kill(main_thread, SIGUSR1);
#else
	pthread_kill(main_thread, SIGUSR1);
	status = 5;
#endif
	return NULL;
}

int main(void)
{
	main_thread = pthread_self();
	signal(SIGUSR1, on_usr1);
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	while (!got)
		sched_yield();
	pthread_join(t, NULL);
	printf("%d\n", (int)got);
	return 0;
}
