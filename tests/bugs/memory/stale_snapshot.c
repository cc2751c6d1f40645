/* stale_snapshot: a reader sums a growable array through a snapshot of its
 * pointer and length taken under the lock, then reads outside it; the
 * writer grows the array meanwhile (a new block, the old one freed). The
 * reader's sum is still right, since the freed block keeps its old values
 * past allocator metadata, so without ASan nothing shows.
 * expect: heap-use-after-free (READ). FIXED: the reader sums under the
 * lock. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct array {
	long *items;
	int n, cap;
};

static struct array arr;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static volatile long total;

static void push(long v)
{
	pthread_mutex_lock(&lock);
	if (arr.n == arr.cap) {
		int cap = arr.cap * 2;
		long *grown = malloc((size_t)cap * sizeof *grown);
		memcpy(grown, arr.items, (size_t)arr.n * sizeof *grown);
		free(arr.items);
		arr.items = grown;
		arr.cap = cap;
	}
	arr.items[arr.n++] = v;
	pthread_mutex_unlock(&lock);
}

static void *writer(void *arg)
{
	(void)arg;
	push(5);
	push(6);
	return NULL;
}

static void *reader(void *arg)
{
	(void)arg;
	long sum = 0;
	pthread_mutex_lock(&lock);
	long *items = arr.items;
	int n = arr.n;
#ifdef FIXED
	for (int i = 0; i < n; i++)
		sum += items[i];
	pthread_mutex_unlock(&lock);
#else
	pthread_mutex_unlock(&lock);
	for (int i = 0; i < n; i++)
		sum += ((volatile long *)items)[i];
#endif
	total = sum;
	return NULL;
}

int main(void)
{
	arr.cap = 4;
	arr.n = 0;
	arr.items = malloc((size_t)arr.cap * sizeof *arr.items);
	for (long v = 1; v <= 4; v++)
		arr.items[arr.n++] = v;
	pthread_t a, b;
	pthread_create(&a, NULL, reader, NULL);
	pthread_create(&b, NULL, writer, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("sum %ld\n", total);
	free(arr.items);
	return 0;
}
