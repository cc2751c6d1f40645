/* reorder_n: a scalable family after SCTBench's reorder_X_bad. THREADS-1
 * setters each store a = 1 then b = -1 (each store under its own lock);
 * one checker reads a, then b, and expects a consistent pair: (0, 0) or
 * (1, -1). Reading between some setter's two stores (or between its own
 * two reads, around a whole setter) breaks it. Build with -DTHREADS=N to
 * grow the family (2 to 100); the bug stays of depth 2.
 * expect: assert. FIXED: the setters' pair of stores and the checker's
 * pair of reads are each one critical section. */
#include <assert.h>
#include <pthread.h>

#ifndef THREADS
#define THREADS 4
#endif
_Static_assert(THREADS >= 2 && THREADS <= 100, "between 2 and 100 threads");

static volatile int a, b;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *setter(void *arg)
{
	(void)arg;
#ifdef FIXED
	pthread_mutex_lock(&lock);
	a = 1;
	b = -1;
	pthread_mutex_unlock(&lock);
#else
	pthread_mutex_lock(&lock);
	a = 1;
	pthread_mutex_unlock(&lock);
	pthread_mutex_lock(&lock);
	b = -1;
	pthread_mutex_unlock(&lock);
#endif
	return NULL;
}

static void *checker(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	int x = a;
#ifndef FIXED
	pthread_mutex_unlock(&lock);
	pthread_mutex_lock(&lock);
#endif
	int y = b;
	pthread_mutex_unlock(&lock);
	assert((x == 0 && y == 0) || (x == 1 && y == -1));
	return NULL;
}

int main(void)
{
	a = b = 0;
	pthread_t t[THREADS];
	for (int i = 0; i < THREADS - 1; i++)
		pthread_create(&t[i], NULL, setter, NULL);
	pthread_create(&t[THREADS - 1], NULL, checker, NULL);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	return 0;
}
