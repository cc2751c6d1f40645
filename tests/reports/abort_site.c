/* abort_site: a lost update that the program itself checks with abort().
 * The report must locate the failure at the abort() call in check(), not
 * inside glibc (raise, pthread_kill) where the signal was sent. */
#include <pthread.h>
#include <stdlib.h>

static int hits;

static void *worker(void *arg)
{
	(void)arg;
	int seen = hits;
	hits = seen + 1;
	return NULL;
}

static void check(void)
{
	if (hits != 2)
		abort();
}

int main(void)
{
	hits = 0;
	pthread_t a, b;
	pthread_create(&a, NULL, worker, NULL);
	pthread_create(&b, NULL, worker, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	check();
	return 0;
}
