/* two_preemptions.c - a bug that needs exactly two preemptions (CHESS):
 * t2 must read x between t1's two writes (t1 preempted after its first),
 * and read it again after the second (t2 preempted after its first read).
 * With threads created and started as main allows, no schedule with fewer
 * preemptions orders the four accesses w1 < r1 < w2 < r2. */
#include <assert.h>
#include <pthread.h>

static volatile int x;

static void *t1(void *p)
{
	x = 1;
	x = 2;
	return NULL;
}

static void *t2(void *p)
{
	int r1 = x;
	int r2 = x;
	assert(!(r1 == 1 && r2 == 2));
	return NULL;
}

int main(void)
{
	x = 0;
	pthread_t u, v;
	pthread_create(&u, NULL, t1, NULL);
	pthread_create(&v, NULL, t2, NULL);
	pthread_join(u, NULL);
	pthread_join(v, NULL);
	return 0;
}
