/* forgotten_flag: a worker polls a flag that main never sets (main waits
 * in pthread_join). Only one thread can run, so no number of steps makes
 * this a hang: only the clock can. It must be reported as a hang when the
 * time runs out, naming the loop, and its replay must run out of time
 * again. With -DFIXED main sets the flag first.
 * expect: hang (out of time); FIXED: clean. */
#include <pthread.h>

static volatile int ready;
static long polls;

static void *worker(void *arg)
{
	(void)arg;
	while (!ready)
		polls++;
	return NULL;
}

int main(void)
{
	polls = 0;
	ready = 0;
#ifdef FIXED
	ready = 1;
#endif
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	pthread_join(t, NULL);
	return 0;
}
