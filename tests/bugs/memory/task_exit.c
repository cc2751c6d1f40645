/* task_exit: a worker task allocates its own state, publishes it in a
 * registry slot (zeroed by the allocator, touched by nobody before), does
 * its work in memory it alone has touched, then clears the slot and frees
 * its state on exit, with no lock and without waiting for readers. A
 * monitor that looked the slot up while the task ran reads the task's
 * progress after the free: the stale value is still plausible, so only
 * ASan sees it. The preemption that matters falls in the task's private
 * work, between its first touches of memory.
 * expect: heap-use-after-free (READ). FIXED: the slot is published and
 * cleared under the registry's lock, which the monitor holds while it
 * reads the progress. */
#include <pthread.h>
#include <stdlib.h>

#define STEPS 4

struct task {
	int id;
	int done;
	int results[STEPS];
};

struct registry {
	pthread_mutex_t lock;
	struct task *running;
	int seen;
};

static struct registry *reg;

static void set_running(struct task *t)
{
#ifdef FIXED
	pthread_mutex_lock(&reg->lock);
	reg->running = t;
	pthread_mutex_unlock(&reg->lock);
#else
	reg->running = t;
#endif
}

static void *task_main(void *arg)
{
	(void)arg;
	struct task *t = malloc(sizeof *t);
	t->id = 7;
	t->done = 0;
	set_running(t);
	int *scratch = malloc(STEPS * sizeof *scratch); /* private work */
	for (int i = 0; i < STEPS; i++) {
		scratch[i] = i * i;
		t->results[i] = scratch[i] + t->id;
		t->done = i + 1;
	}
	free(scratch);
	set_running(NULL);
	free(t);
	return NULL;
}

static void *monitor(void *arg)
{
	(void)arg;
#ifdef FIXED
	pthread_mutex_lock(&reg->lock);
	struct task *t = reg->running;
	if (t)
		reg->seen = t->done;
	pthread_mutex_unlock(&reg->lock);
#else
	struct task *t = reg->running;
	if (t)
		reg->seen = t->done; /* the task may have exited and freed t */
#endif
	return NULL;
}

int main(void)
{
	reg = calloc(1, sizeof *reg);
	pthread_mutex_init(&reg->lock, NULL);
	pthread_t w, m;
	pthread_create(&w, NULL, task_main, NULL);
	pthread_create(&m, NULL, monitor, NULL);
	pthread_join(w, NULL);
	pthread_join(m, NULL);
	pthread_mutex_destroy(&reg->lock);
	free(reg);
	return 0;
}
