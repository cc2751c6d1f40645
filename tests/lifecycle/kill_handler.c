/* kill_handler: main sends SIGUSR1 to a worker with pthread_kill; the
 * program's handler runs on the worker (it checks which thread it is on)
 * and sets a flag the worker polls with a sleep. raise() in main runs the
 * handler at once, on main. BUG: main assumes the worker's handler has
 * run as soon as pthread_kill returns; it runs at the worker's next
 * scheduling point, so some schedules break the assertion (and replay). */
#include <assert.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <unistd.h>

static pthread_t worker_id, main_id;
static atomic_int on_worker, on_main;

static void handler(int sig)
{
	assert(sig == SIGUSR1);
	if (pthread_equal(pthread_self(), worker_id))
		atomic_fetch_add(&on_worker, 1);
	else if (pthread_equal(pthread_self(), main_id))
		atomic_fetch_add(&on_main, 1);
}

static void *worker(void *arg)
{
	(void)arg;
	while (atomic_load(&on_worker) == 0)
		usleep(1000);
	return NULL;
}

int main(void)
{
	atomic_store(&on_worker, 0);
	atomic_store(&on_main, 0);
	struct sigaction sa = { .sa_handler = handler };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	main_id = pthread_self();
	pthread_create(&worker_id, NULL, worker, NULL);
	pthread_kill(worker_id, SIGUSR1);
#ifdef BUG
	assert(atomic_load(&on_worker) == 1);
#endif
	raise(SIGUSR1);
	assert(atomic_load(&on_main) == 1);
	pthread_join(worker_id, NULL);
	assert(atomic_load(&on_worker) == 1);
	return 0;
}
