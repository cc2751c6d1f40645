/* three_lock_cycle: three workers each move an item between two of three
 * queues, locking source then destination: a -> b, b -> c, c -> a. All
 * three holding their first lock is a deadlock of three threads, depth 3.
 * expect: deadlock. FIXED: locks are always taken in address order. */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>

struct queue {
	pthread_mutex_t lock;
	int items;
};

static struct queue q[3] = {
	{ PTHREAD_MUTEX_INITIALIZER, 0 },
	{ PTHREAD_MUTEX_INITIALIZER, 0 },
	{ PTHREAD_MUTEX_INITIALIZER, 0 },
};

static void *mover(void *arg)
{
	int i = (int)(intptr_t)arg;
	struct queue *from = &q[i], *to = &q[(i + 1) % 3];
	struct queue *first = from, *second = to;
#ifdef FIXED
	if (second < first) {
		first = to;
		second = from;
	}
#endif
	pthread_mutex_lock(&first->lock);
	pthread_mutex_lock(&second->lock);
	from->items--;
	to->items++;
	pthread_mutex_unlock(&second->lock);
	pthread_mutex_unlock(&first->lock);
	return NULL;
}

int main(void)
{
	for (int i = 0; i < 3; i++)
		q[i].items = 1;
	pthread_t t[3];
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, mover, (void *)(intptr_t)i);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	assert(q[0].items + q[1].items + q[2].items == 3);
	return 0;
}
