/* threadpool.c - a fixed pool of workers over one work queue, in the
 * shape of a server's or a build tool's pool: the main thread submits
 * tasks and waits for them all; each task draws its own array of records,
 * sorts it with a merge sort into a scratch buffer of its worker, and
 * leaves a digest in the task. The queue and the completion count are
 * shared, under one lock; the records and the scratch are private.
 *
 * usage: threadpool [TASKS [RECORDS_PER_TASK [WORKERS]]] (default 48 32768 3) */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct task {
	struct task *next;
	uint64_t seed;
	size_t n;
	uint64_t digest; /* the worker's result */
};

static struct {
	pthread_mutex_t lock;
	pthread_cond_t work, idle;
	struct task *head, *tail;
	size_t pending; /* submitted, not finished */
	int stop;
} pool = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER };

static void merge_sort(uint32_t *a, uint32_t *tmp, size_t n)
{
	for (size_t w = 1; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t i = lo, j = mid, k = lo;
			while (i < mid && j < hi)
				tmp[k++] = a[i] <= a[j] ? a[i++] : a[j++];
			while (i < mid)
				tmp[k++] = a[i++];
			while (j < hi)
				tmp[k++] = a[j++];
		}
		uint32_t *s = a;
		a = tmp;
		tmp = s;
		/* the sorted runs are in a now; keep sorting them */
	}
	(void)tmp;
}

static uint64_t run_task(const struct task *t, uint32_t **scratch, size_t *cap)
{
	if (*cap < 2 * t->n) {
		free(*scratch);
		*scratch = malloc(2 * t->n * sizeof **scratch);
		*cap = 2 * t->n;
	}
	uint32_t *a = *scratch, *tmp = *scratch + t->n;
	uint64_t x = t->seed | 1;
	for (size_t i = 0; i < t->n; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		a[i] = (uint32_t)x;
	}
	merge_sort(a, tmp, t->n);
	/* The passes alternate between the two halves: find the sorted one. */
	size_t passes = 0;
	for (size_t w = 1; w < t->n; w *= 2)
		passes++;
	const uint32_t *s = passes % 2 ? tmp : a;
	uint64_t d = 0;
	for (size_t i = 0; i < t->n; i++) {
		assert(i == 0 || s[i - 1] <= s[i]);
		d = d * 31 + s[i];
	}
	return d;
}

static void *worker(void *arg)
{
	(void)arg;
	uint32_t *scratch = NULL;
	size_t cap = 0;
	for (;;) {
		pthread_mutex_lock(&pool.lock);
		while (!pool.head && !pool.stop)
			pthread_cond_wait(&pool.work, &pool.lock);
		struct task *t = pool.head;
		if (t) {
			pool.head = t->next;
			if (!pool.head)
				pool.tail = NULL;
		}
		pthread_mutex_unlock(&pool.lock);
		if (!t)
			break;
		uint64_t d = run_task(t, &scratch, &cap);
		pthread_mutex_lock(&pool.lock);
		t->digest = d;
		if (--pool.pending == 0)
			pthread_cond_signal(&pool.idle);
		pthread_mutex_unlock(&pool.lock);
	}
	free(scratch);
	return NULL;
}

int main(int argc, char **argv)
{
	size_t ntasks = argc > 1 ? strtoul(argv[1], NULL, 10) : 48;
	size_t n = argc > 2 ? strtoul(argv[2], NULL, 10) : 32768;
	int nworkers = argc > 3 ? atoi(argv[3]) : 3;
	if (ntasks == 0 || n == 0 || nworkers < 1 || nworkers > 64) {
		fprintf(stderr, "usage: threadpool [TASKS [RECORDS_PER_TASK [WORKERS]]]\n");
		return 2;
	}
	pool.head = pool.tail = NULL;
	pool.pending = 0;
	pool.stop = 0;
	pthread_t th[64];
	for (int i = 0; i < nworkers; i++)
		pthread_create(&th[i], NULL, worker, NULL);
	struct task *tasks = calloc(ntasks, sizeof *tasks);
	for (size_t i = 0; i < ntasks; i++) {
		tasks[i].seed = 0x9e3779b97f4a7c15ull * (i + 1);
		tasks[i].n = n;
		pthread_mutex_lock(&pool.lock);
		if (pool.tail)
			pool.tail->next = &tasks[i];
		else
			pool.head = &tasks[i];
		pool.tail = &tasks[i];
		pool.pending++;
		pthread_cond_signal(&pool.work);
		pthread_mutex_unlock(&pool.lock);
	}
	pthread_mutex_lock(&pool.lock);
	while (pool.pending)
		pthread_cond_wait(&pool.idle, &pool.lock);
	pool.stop = 1;
	pthread_cond_broadcast(&pool.work);
	pthread_mutex_unlock(&pool.lock);
	for (int i = 0; i < nworkers; i++)
		pthread_join(th[i], NULL);
	uint64_t all = 0;
	for (size_t i = 0; i < ntasks; i++)
		all ^= tasks[i].digest;
	free(tasks);
	printf("%zu tasks of %zu records, digest %016llx\n", ntasks, n, (unsigned long long)all);
	return 0;
}
