/* omp_harness: a libFuzzer harness with an OpenMP parallel loop. libomp
 * keeps its workers in a pool across parallel regions; under libFuzzer
 * every iteration must end with the threads it created, so the runtime
 * has libomp release its pool at the end of each iteration (rt_openmp.c)
 * and the next iteration's region creates controlled workers again. Each
 * iteration checks that the loop ran on three threads.
 *
 * BUG: the histogram's update without a critical section: a lost update
 * breaks the assert, in some schedules.
 * expect: clean with -DFIXED. */
#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <omp.h>

#define N 24
#define BUCKETS 4

static int hist[BUCKETS];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	(void)data;
	(void)size;
	for (int b = 0; b < BUCKETS; b++)
		hist[b] = 0;
	int threads = 0;
	omp_set_num_threads(3);
#pragma omp parallel for
	for (int i = 0; i < N; i++) {
		if (i == 0)
			threads = omp_get_num_threads();
#ifdef FIXED
#pragma omp critical
#endif
		hist[i % BUCKETS]++;
	}
	assert(threads == 3);
	for (int b = 0; b < BUCKETS; b++)
		assert(hist[b] == N / BUCKETS);
	return 0;
}
