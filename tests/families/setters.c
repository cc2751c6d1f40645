/* setters: N-1 symmetric setter threads each publish their id in two
 * shared variables, first and second, one after the other; one checker
 * reads the pair and expects it consistent (both 0, or both the same
 * setter's id). It fails only if it reads between some setter's two
 * writes: an order violation whose depth does not grow with N, hidden
 * among N-1 interchangeable threads. Usage: setters [N], N threads
 * besides main (2 to 100, default 4).
 * expect: assertion failure. FIXED: each setter writes the pair in one
 * critical section. */
#include <assert.h>
#include <pthread.h>

#include "family.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int first, second;

static void *setter(void *arg)
{
	int id = (int)(long)arg;
	pthread_mutex_lock(&lock);
	first = id;
#ifndef FIXED
	pthread_mutex_unlock(&lock);
	pthread_mutex_lock(&lock);
#endif
	second = id;
	pthread_mutex_unlock(&lock);
	return NULL;
}

static void *checker(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	int a = first, b = second;
	pthread_mutex_unlock(&lock);
	assert(a == b);
	return NULL;
}

int main(int argc, char **argv)
{
	int n = family_threads(argc, argv);
	first = second = 0;
	pthread_t t[FAMILY_MAX_THREADS];
	for (int i = 0; i < n - 1; i++)
		pthread_create(&t[i], NULL, setter, (void *)(long)(i + 1));
	pthread_create(&t[n - 1], NULL, checker, NULL);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}
