/* kill_in_wait: a thread pool's pause, as C-Thread-Pool does it. A worker
 * blocked in pthread_cond_wait gets SIGUSR1; its handler sleeps until main
 * clears the hold flag. The kernel runs the handler inside the wait, with
 * the mutex released, so main can take the mutex, post work and resume
 * the worker. Under every schedule the run ends (a handler deferred until
 * the wait ends would hold the mutex and hang). */
#include <assert.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t more = PTHREAD_COND_INITIALIZER;
static volatile sig_atomic_t on_hold;
static int jobs, done;

static void hold(int sig)
{
	(void)sig;
	while (on_hold)
		sleep(1);
}

static void *worker(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	while (jobs == 0)
		pthread_cond_wait(&more, &lock);
	jobs--;
	done = 1;
	pthread_mutex_unlock(&lock);
	return NULL;
}

int main(void)
{
	jobs = done = 0;
	struct sigaction sa = { .sa_handler = hold };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	on_hold = 1;
	pthread_kill(t, SIGUSR1);
	pthread_mutex_lock(&lock); /* the worker's handler does not hold it */
	jobs = 1;
	pthread_cond_signal(&more);
	pthread_mutex_unlock(&lock);
	on_hold = 0;
	pthread_join(t, NULL);
	assert(done == 1);
	return 0;
}
