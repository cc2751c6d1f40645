/* ws_deque: a Chase-Lev work-stealing deque on C11 atomics. The owner pops
 * from the bottom, a thief steals from the top. When one task is left,
 * both may take it, so the owner must win a compare-exchange on top as
 * the thief does; this one just takes it, and the last task can run
 * twice.
 * expect: assert. FIXED: the owner's pop of the last task races for it
 * with a compare-exchange on top. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#define CAP 8
#define TASKS 2

static _Atomic long top, bottom;
static int tasks[CAP];
static atomic_int runs[TASKS];

static void run(int task)
{
	assert(atomic_fetch_add(&runs[task], 1) == 0); /* each task once */
}

static void push(int task)
{
	long b = atomic_load(&bottom);
	tasks[b % CAP] = task;
	atomic_store(&bottom, b + 1);
}

static int pop(void)
{
	long b = atomic_load(&bottom) - 1;
	atomic_store(&bottom, b);
	long t = atomic_load(&top);
	if (t > b) { /* empty */
		atomic_store(&bottom, b + 1);
		return -1;
	}
	int task = tasks[b % CAP];
	if (t == b) { /* the last one: a thief may be taking it */
#ifdef FIXED
		if (!atomic_compare_exchange_strong(&top, &t, t + 1))
			task = -1;
		atomic_store(&bottom, b + 1);
#endif
		/* Without the compare-exchange, top == bottom now marks the
		 * deque empty, but a thief that read bottom before our
		 * decrement still takes this task. */
	}
	return task;
}

static int steal(void)
{
	long t = atomic_load(&top);
	long b = atomic_load(&bottom);
	if (t >= b)
		return -1;
	int task = tasks[t % CAP];
	if (!atomic_compare_exchange_strong(&top, &t, t + 1))
		return -1;
	return task;
}

static void *owner(void *arg)
{
	(void)arg;
	for (int i = 0; i < TASKS; i++)
		push(i);
	for (int task; (task = pop()) >= 0;)
		run(task);
	return NULL;
}

static void *thief(void *arg)
{
	(void)arg;
	int task = steal();
	if (task >= 0)
		run(task);
	return NULL;
}

int main(void)
{
	atomic_store(&top, 0);
	atomic_store(&bottom, 0);
	for (int i = 0; i < TASKS; i++)
		atomic_store(&runs[i], 0);
	pthread_t o, t;
	pthread_create(&o, NULL, owner, NULL);
	pthread_create(&t, NULL, thief, NULL);
	pthread_join(o, NULL);
	pthread_join(t, NULL);
	return 0;
}
