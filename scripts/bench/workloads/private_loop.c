/* private_loop.c - the limit case of the cost of a schedule: two threads,
 * each looping over a heap buffer only it ever touches, every operation a
 * memory access. Under the default settings none of them is shared, so a
 * schedule should cost what the hooks alone cost (SCHEDFUZZ_MEMORY=0).
 *
 * usage: private_loop [ITERATIONS [THREADS]] (default 20000000 2) */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define WORDS 4096 /* 32 KiB: stays in the cache, so the hooks are what is measured */

static long iterations;

static void *work(void *arg)
{
	(void)arg;
	long n = iterations;
	long *buf = calloc(WORDS, sizeof *buf);
	long s = 0;
	for (long i = 0; i < n; i++) {
		buf[i & (WORDS - 1)] += i;
		s += buf[(i * 7) & (WORDS - 1)];
	}
	free(buf);
	return (void *)s;
}

int main(int argc, char **argv)
{
	iterations = argc > 1 ? atol(argv[1]) : 20000000;
	int nthreads = argc > 2 ? atoi(argv[2]) : 2;
	if (iterations <= 0 || nthreads < 1 || nthreads > 64) {
		fprintf(stderr, "usage: private_loop [ITERATIONS [THREADS]]\n");
		return 2;
	}
	pthread_t th[64];
	for (int i = 0; i < nthreads; i++)
		pthread_create(&th[i], NULL, work, NULL);
	long s = 0;
	for (int i = 0; i < nthreads; i++) {
		void *r;
		pthread_join(th[i], &r);
		s += (long)r;
	}
	printf("%ld\n", s);
	return 0;
}
