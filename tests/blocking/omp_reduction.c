/* omp_reduction: an OpenMP parallel for with a sum reduction, then a
 * loop whose iterations update a shared histogram under a critical
 * section, and a loop with atomic updates; all three results are checked.
 * Built with schedfuzz-cc -fopenmp (clang, LLVM's libomp): the runtime's
 * worker threads are controlled threads and their waits are modelled.
 *
 * BUG: the histogram's update without the critical section: two
 * iterations on different threads read the same bucket and both write
 * it back, losing a count, and the final check fails.
 * expect: clean with -DFIXED. */
#include <assert.h>
#include <omp.h>

#define N 64
#define BUCKETS 4

static int hist[BUCKETS];
static long total;

int main(void)
{
	total = 0;
	for (int b = 0; b < BUCKETS; b++)
		hist[b] = 0;
	omp_set_num_threads(3);
	long sum = 0;
#pragma omp parallel for reduction(+ : sum)
	for (int i = 1; i <= N; i++)
		sum += i;
	assert(sum == (long)N * (N + 1) / 2);

#pragma omp parallel for
	for (int i = 0; i < N; i++) {
#ifdef FIXED
#pragma omp critical
#endif
		hist[i % BUCKETS]++;
	}
	for (int b = 0; b < BUCKETS; b++)
		assert(hist[b] == N / BUCKETS);

#pragma omp parallel for
	for (int i = 0; i < N; i++) {
#pragma omp atomic
		total += i;
	}
	assert(total == (long)N * (N - 1) / 2);
	return 0;
}
