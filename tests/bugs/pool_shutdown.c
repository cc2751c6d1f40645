/* pool_shutdown: the CHESS Dryad bug. A thread pool's close() stops the
 * workers and waits until the last one says it has exited, then destroys
 * the pool. But a worker says so, unlocks, and then still logs its exit
 * through the pool object: if close() runs in between, the worker touches
 * a destroyed (poisoned, then freed) pool.
 * expect: assert. FIXED: close() joins the workers before it destroys the
 * pool. */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

#define WORKERS 2
#define LIVE 0x9001u

struct pool {
	char name[16]; /* a freed block's first 16 bytes hold malloc's links */
	volatile unsigned magic;
	pthread_mutex_t lock;
	pthread_cond_t work, exited;
	int stop, live, pending, exits_logged;
	pthread_t threads[WORKERS];
};

static void pool_log_exit(struct pool *p)
{
	assert(p->magic == LIVE);
#ifdef FIXED /* two workers log at once: a plain ++ would race */
	__atomic_fetch_add(&p->exits_logged, 1, __ATOMIC_RELAXED);
#else
	p->exits_logged++;
#endif
}

static void *worker(void *arg)
{
	struct pool *p = arg;
	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (!p->stop && p->pending == 0)
			pthread_cond_wait(&p->work, &p->lock);
		if (p->pending > 0) {
			p->pending--;
			continue;
		}
		break; /* stopped, nothing pending */
	}
	int last = --p->live == 0;
	if (last)
		pthread_cond_signal(&p->exited);
	pthread_mutex_unlock(&p->lock);
	pool_log_exit(p); /* after the unlock: the pool may be gone */
	return NULL;
}

static struct pool *pool_open(void)
{
	struct pool *p = calloc(1, sizeof *p);
	p->magic = LIVE;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->exited, NULL);
	p->live = WORKERS;
	for (int i = 0; i < WORKERS; i++)
		pthread_create(&p->threads[i], NULL, worker, p);
	return p;
}

static void pool_close(struct pool *p)
{
	pthread_mutex_lock(&p->lock);
	p->stop = 1;
	pthread_cond_broadcast(&p->work);
	while (p->live > 0)
		pthread_cond_wait(&p->exited, &p->lock);
	pthread_mutex_unlock(&p->lock);
#ifdef FIXED
	for (int i = 0; i < WORKERS; i++)
		pthread_join(p->threads[i], NULL);
#else
	for (int i = 0; i < WORKERS; i++)
		pthread_detach(p->threads[i]);
#endif
	pthread_cond_destroy(&p->exited);
	pthread_cond_destroy(&p->work);
	pthread_mutex_destroy(&p->lock);
	p->magic = 0;
	free(p);
}

/* What the program does after the pool is gone: its workers, if still
 * running, can be scheduled meanwhile, as in a long-lived process. */
static pthread_mutex_t journal_lock = PTHREAD_MUTEX_INITIALIZER;
static int journal;

static void write_journal(void)
{
	for (int i = 0; i < 3; i++) {
		pthread_mutex_lock(&journal_lock);
		journal++;
		pthread_mutex_unlock(&journal_lock);
	}
}

int main(void)
{
	journal = 0;
	struct pool *p = pool_open();
	pthread_mutex_lock(&p->lock);
	p->pending = 3;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->lock);
	pool_close(p);
	write_journal();
	return 0;
}
