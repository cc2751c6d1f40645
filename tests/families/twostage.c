/* twostage: N-1 writers each count themselves in stage one (data1, under
 * m1) and then derive stage two (data2 = data1, under m2); one reader,
 * seeing stage one done by somebody, expects stage two done by somebody
 * too. It fails only if it reads after some writer's first critical
 * section and before any writer's second. Usage: twostage [N], N threads
 * besides main (2 to 100, default 4).
 * expect: assertion failure. FIXED: a writer holds m1 across both stages,
 * and the reader holds m1 while it looks at stage two. */
#include <assert.h>
#include <pthread.h>

#include "family.h"

static pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t m2 = PTHREAD_MUTEX_INITIALIZER;
static int data1, data2;

static void *writer(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m1);
	int seen = ++data1;
#ifndef FIXED
	pthread_mutex_unlock(&m1);
#endif
	pthread_mutex_lock(&m2);
	data2 = seen;
	pthread_mutex_unlock(&m2);
#ifdef FIXED
	pthread_mutex_unlock(&m1);
#endif
	return NULL;
}

static void *reader(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m1);
	int started = data1;
#ifndef FIXED
	pthread_mutex_unlock(&m1);
#endif
	if (started > 0) {
		pthread_mutex_lock(&m2);
		int done = data2;
		pthread_mutex_unlock(&m2);
		assert(done > 0);
	}
#ifdef FIXED
	pthread_mutex_unlock(&m1);
#endif
	return NULL;
}

int main(int argc, char **argv)
{
	int n = family_threads(argc, argv);
	data1 = data2 = 0;
	pthread_t t[FAMILY_MAX_THREADS];
	for (int i = 0; i < n - 1; i++)
		pthread_create(&t[i], NULL, writer, NULL);
	pthread_create(&t[n - 1], NULL, reader, NULL);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}
