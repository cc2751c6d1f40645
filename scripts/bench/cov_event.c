/* cov_event.c - what coverage costs per memory access: a made-up stream of
 * reads and writes by 4 threads over 64 variables fed to the tracker, with
 * the features given as an argument (1 HaPSet, 2 MAP, 4 reads-from, 7 all).
 * Prints nanoseconds per event; under callgrind, divide Ir by the events.
 *
 *   clang -O2 -Icoverage scripts/bench/cov_event.c coverage/\*.c -o cov_event
 *   ./cov_event 7 [EVENTS] */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cov.h"

static uint64_t features;

static void count(void *arg, const struct cov_feature *f)
{
	(void)arg;
	features += f->hash & 1;
}

int main(int argc, char **argv)
{
	unsigned what = argc > 1 ? (unsigned)atoi(argv[1]) : COV_ALL;
	long n = argc > 2 ? atol(argv[2]) : 4000000;
	struct cov_state *s = cov_create();
	uint64_t x = 88172645463325252ull;
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long i = 0; i < n; i++) {
		if (i % 10000 == 0) /* an execution of 10,000 events */
			cov_begin(s, what, count, NULL);
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		unsigned var = x % 64, tid = (x >> 8) % 4, write = (x >> 12) % 10 < 3;
		struct cov_event e = { .obj = 0x10000 + 8 * var, .size = 8,
				       .site = 0x400 + var * 4 + write * 2 + (tid & 1),
				       .tid = (uint16_t)tid, .op = write ? COV_WRITE : COV_READ };
		cov_event(s, &e);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.1f ns/event (features %s, %llu)\n",
	       ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / n, argv[1] ? argv[1] : "7",
	       (unsigned long long)features);
	cov_destroy(s);
	return 0;
}
