/* datapar.c - a data-parallel loop over shared arrays with locks, in the
 * shape of a parallel histogram or a reduction: main fills an input array,
 * each worker maps its slice of it into an output array and counts every
 * element into a shared histogram whose buckets are guarded by striped
 * locks, then adds its partial sum to a shared total under one lock. Every
 * element costs a lock, a read and a write of shared memory and an unlock:
 * about four scheduling points, so the default size makes a schedule of
 * some 32,000 of them, most of which decide nothing but must be paid.
 *
 * usage: datapar [ELEMENTS_PER_THREAD [THREADS]] (default 2000 4) */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define BUCKETS 64
#define STRIPES 8
#define MAX_THREADS 16

static uint32_t *in, *out;
static size_t per_thread;
static int nthreads;
static uint64_t hist[BUCKETS];
static pthread_mutex_t stripe[STRIPES];
static pthread_mutex_t total_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t total;

static uint32_t mix(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	x *= 0x846ca68bu;
	x ^= x >> 16;
	return x;
}

static void *worker(void *arg)
{
	size_t t = (size_t)(uintptr_t)arg, lo = t * per_thread, hi = lo + per_thread;
	uint64_t sum = 0;
	for (size_t i = lo; i < hi; i++) {
		uint32_t v = mix(in[i]);
		out[i] = v;
		sum += v & 0xff;
		unsigned b = v % BUCKETS;
		pthread_mutex_lock(&stripe[b % STRIPES]);
		hist[b]++;
		pthread_mutex_unlock(&stripe[b % STRIPES]);
	}
	pthread_mutex_lock(&total_lock);
	total += sum;
	pthread_mutex_unlock(&total_lock);
	return NULL;
}

int main(int argc, char **argv)
{
	per_thread = argc > 1 ? strtoul(argv[1], NULL, 10) : 2000;
	nthreads = argc > 2 ? atoi(argv[2]) : 4;
	if (per_thread == 0 || nthreads < 1 || nthreads > MAX_THREADS) {
		fprintf(stderr, "usage: datapar [ELEMENTS_PER_THREAD [THREADS (1-%d)]]\n", MAX_THREADS);
		return 2;
	}
	size_t n = per_thread * (size_t)nthreads;
	in = malloc(n * sizeof *in);
	out = malloc(n * sizeof *out);
	if (!in || !out)
		return 1;
	for (size_t i = 0; i < n; i++)
		in[i] = (uint32_t)i * 2654435761u;
	for (int s = 0; s < STRIPES; s++)
		pthread_mutex_init(&stripe[s], NULL);
	pthread_t tid[MAX_THREADS];
	for (int t = 0; t < nthreads; t++)
		pthread_create(&tid[t], NULL, worker, (void *)(uintptr_t)t);
	for (int t = 0; t < nthreads; t++)
		pthread_join(tid[t], NULL);
	uint64_t counted = 0, expect = 0;
	for (int b = 0; b < BUCKETS; b++)
		counted += hist[b];
	for (size_t i = 0; i < n; i++)
		expect += out[i] & 0xff;
	assert(counted == n && total == expect);
	free(in);
	free(out);
	return 0;
}
