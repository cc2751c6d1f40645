/* atexit_race: an exit handler frees a table and sets it to NULL while a
 * detached worker still uses it; main returns as soon as it started the
 * worker. The worker crashes if it reads the table after the handler's
 * last write and before the process ends: so the other threads must
 * still run after the handlers did.
 * FIXED: main joins the worker before it returns. */
#include <pthread.h>
#include <stdlib.h>

static int *table;

static void teardown(void)
{
	int *t = table;
	table = NULL;
	free(t);
}

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 4; i++) {
		int *t = table;
		t[i] = i;
	}
	return NULL;
}

int main(void)
{
	table = calloc(4, sizeof *table);
	atexit(teardown);
	pthread_t w;
	pthread_create(&w, NULL, worker, NULL);
#ifdef FIXED
	pthread_join(w, NULL);
#else
	pthread_detach(w);
#endif
	return 0;
}
