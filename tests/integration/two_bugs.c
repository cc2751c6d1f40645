/* two_bugs.c - two bugs of different kinds at different sites, for a
 * parallel run's findings (jobs.sh): a lost update that fails an
 * assertion, and two locks taken in opposite orders that can deadlock.
 * Each schedule meets at most one of them. */
#include <assert.h>
#include <pthread.h>

static int counter;
static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;

static void *add(void *arg)
{
	(void)arg;
	int seen = counter;
	counter = seen + 1;
	return NULL;
}

static void *a_then_b(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock_a);
	pthread_mutex_lock(&lock_b);
	pthread_mutex_unlock(&lock_b);
	pthread_mutex_unlock(&lock_a);
	return NULL;
}

static void *b_then_a(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock_b);
	pthread_mutex_lock(&lock_a);
	pthread_mutex_unlock(&lock_a);
	pthread_mutex_unlock(&lock_b);
	return NULL;
}

int main(void)
{
	pthread_t t[4];
	pthread_create(&t[0], NULL, add, NULL);
	pthread_create(&t[1], NULL, add, NULL);
	pthread_create(&t[2], NULL, a_then_b, NULL);
	pthread_create(&t[3], NULL, b_then_a, NULL);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	assert(counter == 2);
	return 0;
}
