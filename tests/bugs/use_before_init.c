/* use_before_init: the main thread starts a worker that uses a config
 * object which main initialises only after the create.
 * expect: assert. FIXED: main initialises before it creates the worker. */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

struct config {
	int ready;
	int workers;
};
static struct config *cfg;

static void *worker(void *arg)
{
	(void)arg;
	assert(cfg != NULL && cfg->ready);
	return NULL;
}

static void init(void)
{
	static struct config c;
	c.workers = 4;
	c.ready = 1;
	cfg = &c;
}

int main(void)
{
	cfg = NULL;
	pthread_t t;
#ifdef FIXED
	init();
	pthread_create(&t, NULL, worker, NULL);
#else
	pthread_create(&t, NULL, worker, NULL);
	init();
#endif
	pthread_join(t, NULL);
	return 0;
}
