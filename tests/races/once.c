/* once.c - two workers read a table that pthread_once fills; the bug: the
 * second reader skips pthread_once when a plain flag says the table is
 * there, so it reads the table while the first worker's initialiser may
 * still write it. Fixed: both call pthread_once, which orders the
 * initialiser before every return, also when the table was done long
 * before (a detector that orders only a waiting caller reports the fixed
 * twin falsely). */
#include <pthread.h>
#include <stdio.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int table[4], built;

static void build(void)
{
	for (int i = 0; i < 4; i++)
		table[i] = i * i;
	built = 1;
}

static void *first(void *arg)
{
	(void)arg;
	pthread_once(&once, build);
	return (void *)(long)table[3];
}

static void *second(void *arg)
{
	(void)arg;
#ifdef FIXED
	pthread_once(&once, build);
#else
	if (!__atomic_load_n(&built, __ATOMIC_RELAXED))
		pthread_once(&once, build);
#endif
	return (void *)(long)table[0];
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, first, NULL);
	pthread_create(&b, NULL, second, NULL);
	void *x, *y;
	pthread_join(a, &x);
	pthread_join(b, &y);
	printf("%ld %ld\n", (long)x, (long)y);
	return 0;
}
