/* hashbuild.c - a parallel hash build in the shape of a radix-partitioned
 * hash join's build side: each thread draws and hashes its share of the
 * keys and scatters them into per-partition buffers of its own (phase 1);
 * after a barrier, each thread takes the partitions it is given, copies
 * every thread's buffer for them into one array and builds that
 * partition's open-addressing table (phase 2); a last barrier, then each
 * thread probes its own keys against the finished tables. The hand-offs
 * are a few block copies; everything else is thread-private work.
 *
 * usage: hashbuild [KEYS_PER_THREAD [THREADS]] (default 262144 3) */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PARTS 16
#define MAX_THREADS 16

struct part_buf {
	uint64_t *keys;
	size_t n, cap;
};

struct table {
	uint64_t *slots; /* 0 is empty: keys are never 0 */
	uint32_t *values;
	size_t mask;
	size_t n;
};

static size_t nkeys;
static int nthreads;
static pthread_barrier_t phase;
static struct part_buf bufs[MAX_THREADS][PARTS]; /* [thread][partition] */
static struct table tables[PARTS];
static uint64_t found[MAX_THREADS];

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

/* Thread t's i-th key: distinct over all threads, never 0. */
static uint64_t key_of(int t, size_t i)
{
	return mix(((uint64_t)t << 40 | i) + 1) | 1;
}

static void append(struct part_buf *b, uint64_t k)
{
	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 1024;
		b->keys = realloc(b->keys, b->cap * sizeof *b->keys);
	}
	b->keys[b->n++] = k;
}

static void build(int p)
{
	size_t total = 0;
	for (int t = 0; t < nthreads; t++)
		total += bufs[t][p].n;
	uint64_t *keys = malloc((total ? total : 1) * sizeof *keys);
	size_t off = 0;
	for (int t = 0; t < nthreads; t++) { /* the hand-off: one copy per buffer */
		memcpy(keys + off, bufs[t][p].keys, bufs[t][p].n * sizeof *keys);
		off += bufs[t][p].n;
	}
	size_t cap = 1024;
	while (cap < 2 * total)
		cap *= 2;
	uint64_t *slots = calloc(cap, sizeof *slots);
	uint32_t *values = malloc(cap * sizeof *values);
	for (size_t i = 0; i < total; i++) {
		uint64_t k = keys[i];
		size_t j = (size_t)(mix(k) >> 7) & (cap - 1);
		while (slots[j] != 0)
			j = (j + 1) & (cap - 1);
		slots[j] = k;
		values[j] = (uint32_t)(k >> 32);
	}
	free(keys);
	tables[p] = (struct table){ slots, values, cap - 1, total };
}

static uint32_t *lookup(uint64_t k)
{
	const struct table *tb = &tables[mix(k) % PARTS];
	for (size_t j = (size_t)(mix(k) >> 7) & tb->mask; tb->slots[j]; j = (j + 1) & tb->mask)
		if (tb->slots[j] == k)
			return &tb->values[j];
	return NULL;
}

static void *run(void *arg)
{
	int t = (int)(intptr_t)arg;
	for (size_t i = 0; i < nkeys; i++) { /* phase 1: private scatter */
		uint64_t k = key_of(t, i);
		append(&bufs[t][mix(k) % PARTS], k);
	}
	pthread_barrier_wait(&phase);
	for (int p = t; p < PARTS; p += nthreads) /* phase 2: build own partitions */
		build(p);
	pthread_barrier_wait(&phase);
	uint64_t hits = 0;
	for (size_t i = 0; i < nkeys; i += 8) { /* probe a sample of own keys */
		uint32_t *v = lookup(key_of(t, i));
		hits += v != NULL;
	}
	found[t] = hits;
	return NULL;
}

int main(int argc, char **argv)
{
	nkeys = argc > 1 ? strtoul(argv[1], NULL, 10) : 262144;
	nthreads = argc > 2 ? atoi(argv[2]) : 3;
	if (nkeys == 0 || nthreads < 1 || nthreads > MAX_THREADS) {
		fprintf(stderr, "usage: hashbuild [KEYS_PER_THREAD [THREADS]]\n");
		return 2;
	}
	memset(bufs, 0, sizeof bufs);
	pthread_barrier_init(&phase, NULL, (unsigned)nthreads);
	pthread_t th[MAX_THREADS];
	for (int t = 0; t < nthreads; t++)
		pthread_create(&th[t], NULL, run, (void *)(intptr_t)t);
	uint64_t hits = 0;
	for (int t = 0; t < nthreads; t++) {
		pthread_join(th[t], NULL);
		hits += found[t];
	}
	size_t entries = 0;
	for (int p = 0; p < PARTS; p++) {
		entries += tables[p].n;
		free(tables[p].slots);
		free(tables[p].values);
	}
	for (int t = 0; t < nthreads; t++)
		for (int p = 0; p < PARTS; p++)
			free(bufs[t][p].keys);
	pthread_barrier_destroy(&phase);
	assert(entries == nkeys * (size_t)nthreads);
	printf("%zu keys in %d partitions, %llu probes hit\n", entries, PARTS, (unsigned long long)hits);
	return 0;
}
