/* interleavings: three threads that read and write four shared variables
 * at many sites, with no bug: a program with many interleaving scenarios,
 * for watching coverage grow over a campaign (coverage_growth.sh). */
#include <pthread.h>

#define VAR(name) static long name __attribute__((aligned(64)))
VAR(a);
VAR(b);
VAR(c);
VAR(d);
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *first(void *arg)
{
	for (int i = 0; i < 2; i++) {
		a = i;
		if (b)
			c++;
		d = a + 1;
	}
	return NULL;
}

static void *second(void *arg)
{
	for (int i = 0; i < 2; i++) {
		b = a;
		c = d;
		pthread_mutex_lock(&lock);
		a += 1;
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

static void *third(void *arg)
{
	d = c;
	b = 0;
	pthread_mutex_lock(&lock);
	a = d + b;
	pthread_mutex_unlock(&lock);
	return NULL;
}

int main(void)
{
	pthread_t t[3];
	pthread_create(&t[0], NULL, first, NULL);
	pthread_create(&t[1], NULL, second, NULL);
	pthread_create(&t[2], NULL, third, NULL);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	return 0;
}
