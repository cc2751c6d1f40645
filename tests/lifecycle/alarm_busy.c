/* alarm_busy: threads that compute until a timer's handler stops them.
 * First main and a worker both count until a 10 ms setitimer fires; then
 * main alone runs `alarm(1); while (!stop) n++;`. Virtual time moves with
 * the computation, so both timers fire and both loops end. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/time.h>
#include <unistd.h>

static volatile sig_atomic_t stop;
static volatile long worked;

static void on_alarm(int sig)
{
	(void)sig;
	stop = 1;
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
	stop = 0;
	worked = 0;
	signal(SIGALRM, on_alarm);
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	struct itimerval ten_ms = { .it_value = { .tv_usec = 10000 } };
	setitimer(ITIMER_REAL, &ten_ms, NULL);
	long n = 0;
	while (!stop)
		n++;
	pthread_join(t, NULL);

	stop = 0;
	alarm(1);
	while (!stop)
		n++;
	printf("counted %ld and %ld\n", n, (long)worked);
	return 0;
}
