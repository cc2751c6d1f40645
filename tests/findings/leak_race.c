/* leak_race: every run leaks the workers' names (nobody frees them), and
 * the workers' counter update is a lost-update race. In the ASan mode with
 * default options, LeakSanitizer reports the leak at exit under every
 * schedule; the race shows only under some.
 * FIXED: the names are freed and the update is under a mutex. */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int counter;
static char *names[2];

static void *worker(void *arg)
{
	long i = (long)arg;
	names[i] = strdup("a worker's name");
#ifdef FIXED
	pthread_mutex_lock(&lock);
#endif
	int v = counter;
	counter = v + 1;
#ifdef FIXED
	pthread_mutex_unlock(&lock);
#endif
	return NULL;
}

int main(void)
{
	pthread_t t[2];
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
#ifdef FIXED
	free(names[0]);
	free(names[1]);
#endif
	names[0] = names[1] = NULL; /* the last pointers: now a leak */
	assert(counter == 2);
	return 0;
}
