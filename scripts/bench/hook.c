/* hook.c - cost of memory-access hooks that do not switch: one thread, a
 * loop of volatile stores to a global, one hook each. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile long shared;

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10000000;
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long i = 0; i < n; i++)
		shared = i;
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.3f\n", ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / n);
	return 0;
}
