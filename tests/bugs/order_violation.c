/* order_violation: main starts the consumer before the thread that
 * publishes the configuration it reads, and nothing makes the consumer
 * wait: one ordering constraint (publish before read), a depth-1 bug.
 * expect: assert. FIXED: the consumer waits for the configuration. */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

struct config {
	int workers;
};

static struct config *volatile published;
#ifdef FIXED
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ready = PTHREAD_COND_INITIALIZER;
#endif

static void *consumer(void *arg)
{
	(void)arg;
#ifdef FIXED
	pthread_mutex_lock(&lock);
	while (!published)
		pthread_cond_wait(&ready, &lock);
	pthread_mutex_unlock(&lock);
#endif
	struct config *c = published;
	assert(c != NULL && c->workers == 4);
	return NULL;
}

static void *publisher(void *arg)
{
	(void)arg;
	static struct config cfg;
	cfg.workers = 4;
#ifdef FIXED
	pthread_mutex_lock(&lock);
	published = &cfg;
	pthread_cond_signal(&ready);
	pthread_mutex_unlock(&lock);
#else
	published = &cfg;
#endif
	return NULL;
}

int main(void)
{
	published = NULL;
	pthread_t c, p;
	pthread_create(&c, NULL, consumer, NULL);
	pthread_create(&p, NULL, publisher, NULL);
	pthread_join(c, NULL);
	pthread_join(p, NULL);
	return 0;
}
