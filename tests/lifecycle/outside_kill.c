/* outside_kill: a command started with system() signals the program back
 * after 50 ms while main sleeps 300 ms with the signal blocked, then main
 * unblocks it and the handler runs there (the shape of gnulib's
 * pthread_sigmask configure check). The command runs on the wall clock,
 * so the sleep must be real once it has started: in virtual time alone
 * main would unblock before the signal was sent, and exit 5. A worker
 * runs beside it, with the signal blocked too (it inherits main's mask). */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static volatile sig_atomic_t got;
static volatile long total;

static void on_usr1(int sig)
{
	(void)sig;
	got++;
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
	got = 0;
	total = 0;
	signal(SIGUSR1, on_usr1);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	if (pthread_sigmask(SIG_BLOCK, &set, NULL) != 0)
		return 1;
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	char command[80];
	snprintf(command, sizeof command, "sh -c 'sleep 0.05; kill -USR1 %d' &", (int)getpid());
	if (system(command) != 0)
		return 2;
	usleep(300000);
	if (got != 0)
		return 3;
	if (pthread_sigmask(SIG_UNBLOCK, &set, NULL) != 0)
		return 4;
	pthread_join(t, NULL);
	return got == 1 ? 0 : 5;
}
