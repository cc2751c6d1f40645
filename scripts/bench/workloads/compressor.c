/* compressor.c - a block-parallel compressor in the shape of pigz: the
 * main thread cuts its input into blocks and queues them as jobs; each
 * worker keeps its own dictionary (an LZ77 hash table with chains) and
 * compresses whole blocks into buffers of its own, with their checksums;
 * the main thread then writes the blocks out in order. Between two queue
 * operations a worker does a block's worth of private work.
 *
 * usage: compressor [INPUT_KIB [BLOCK_KIB [WORKERS]]] (default 4096 128 3;
 * -DINPUT_KIB=N and -DBLOCK_KIB=N change the defaults, for tests that run
 * the program without arguments)
 *
 * Built with -DQUEUE_RACE, pop() releases the queue's lock before it
 * unlinks the job it took, so two workers can take the same job (a
 * check-then-act race on the shared queue): a job compressed twice is
 * caught when the blocks are written out. */
#define _GNU_SOURCE
#include <assert.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef INPUT_KIB
#define INPUT_KIB 4096
#endif
#ifndef BLOCK_KIB
#define BLOCK_KIB 128
#endif
#define HASH_BITS 15
#define MAX_CHAIN 16
#define MIN_MATCH 4
#define MAX_MATCH 255

struct job {
	struct job *next;
	uint8_t *in;
	size_t len;
	uint8_t *out;   /* written by the worker that took the job */
	size_t outlen;
	uint32_t check; /* the worker's checksum of the input */
	int done;       /* times a worker finished it */
};

static struct {
	pthread_mutex_t lock;
	pthread_cond_t more, finished;
	struct job *head, *tail;
	int closed;
} q = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER };

static void push(struct job *j)
{
	pthread_mutex_lock(&q.lock);
	j->next = NULL;
	if (q.tail)
		q.tail->next = j;
	else
		q.head = j;
	q.tail = j;
	pthread_cond_signal(&q.more);
	pthread_mutex_unlock(&q.lock);
}

/* The next job, or NULL once the queue is closed and empty. */
static struct job *pop(void)
{
	pthread_mutex_lock(&q.lock);
	while (!q.head && !q.closed)
		pthread_cond_wait(&q.more, &q.lock);
	struct job *j = q.head;
#ifdef QUEUE_RACE
	pthread_mutex_unlock(&q.lock);
	if (j) {
		q.head = j->next;
		if (!q.head)
			q.tail = NULL;
	}
#else
	if (j) {
		q.head = j->next;
		if (!q.head)
			q.tail = NULL;
	}
	pthread_mutex_unlock(&q.lock);
#endif
	return j;
}

/* A worker's dictionary: the last position of each 4-byte hash, and the
 * chain of earlier positions with the same hash. */
struct dict {
	int32_t head[1 << HASH_BITS];
	int32_t *prev;
	size_t cap;
};

static uint32_t hash4(const uint8_t *p)
{
	uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	return (v * 2654435761u) >> (32 - HASH_BITS);
}

/* How many bytes at a and b agree, up to max: eight at a time, as the
 * match finders of LZ4 and zstd compare (ZSTD_count). */
static size_t match_len(const uint8_t *a, const uint8_t *b, size_t max)
{
	size_t l = 0;
	while (l + 8 <= max) {
		uint64_t x, y;
		memcpy(&x, a + l, 8);
		memcpy(&y, b + l, 8);
		if (x != y)
			return l + ((size_t)__builtin_ctzll(x ^ y) >> 3);
		l += 8;
	}
	while (l < max && a[l] == b[l])
		l++;
	return l;
}

/* Greedy LZ77: a literal is 0x00 and the byte; a match 0x01, its length
 * and its distance (two bytes). Returns the output's length. */
static size_t compress_block(struct dict *d, const uint8_t *in, size_t n, uint8_t *out)
{
	if (d->cap < n) {
		free(d->prev);
		d->prev = malloc(n * sizeof *d->prev);
		d->cap = n;
	}
	memset(d->head, 0xff, sizeof d->head);
	size_t i = 0, o = 0;
	while (i < n) {
		size_t best = 0, dist = 0;
		if (i + MIN_MATCH <= n) {
			uint32_t h = hash4(in + i);
			int32_t c = d->head[h];
			d->prev[i] = c;
			d->head[h] = (int32_t)i;
			for (int k = 0; k < MAX_CHAIN && c >= 0 && i - (size_t)c < 65536; k++) {
				size_t l = match_len(in + c, in + i, n - i < MAX_MATCH ? n - i : MAX_MATCH);
				if (l > best) {
					best = l;
					dist = i - (size_t)c;
				}
				c = d->prev[c];
			}
		}
		if (best >= MIN_MATCH) {
			out[o++] = 1;
			out[o++] = (uint8_t)best;
			out[o++] = (uint8_t)dist;
			out[o++] = (uint8_t)(dist >> 8);
			for (size_t k = 1; k < best; k++) /* insert the match's positions */
				if (i + k + MIN_MATCH <= n) {
					uint32_t h = hash4(in + i + k);
					d->prev[i + k] = d->head[h];
					d->head[h] = (int32_t)(i + k);
				}
			i += best;
		} else {
			out[o++] = 0;
			out[o++] = in[i++];
		}
	}
	return o;
}

/* Adler-32, as zlib's streams carry. */
static uint32_t adler32(const uint8_t *p, size_t n)
{
	uint32_t a = 1, b = 0;
	for (size_t i = 0; i < n; i++) {
		a = (a + p[i]) % 65521;
		b = (b + a) % 65521;
	}
	return b << 16 | a;
}

static void *worker(void *arg)
{
	(void)arg;
	struct dict *d = calloc(1, sizeof *d);
	struct job *j;
	while ((j = pop()) != NULL) {
		uint8_t *out = malloc(2 * j->len + 16);
		size_t outlen = compress_block(d, j->in, j->len, out);
		uint32_t check = adler32(j->in, j->len);
		pthread_mutex_lock(&q.lock);
		j->out = out;
		j->outlen = outlen;
		j->check = check;
		j->done++;
		pthread_cond_broadcast(&q.finished);
		pthread_mutex_unlock(&q.lock);
	}
	free(d->prev);
	free(d);
	return NULL;
}

/* Text-like input: words drawn from a small vocabulary, so that the
 * dictionary finds matches as in real text. */
static void make_input(int fd, size_t size)
{
	static const char *words[] = { "the ", "schedule ", "thread ", "block ", "queue ",
				       "worker ", "compress ", "of ", "and ", "a ", "memory ",
				       "shared ", "private ", "lock ", "\n" };
	size_t chunk = 1 << 16;
	char *buf = malloc(chunk);
	uint64_t x = 88172645463325252ull;
	for (size_t done = 0; done < size;) {
		size_t k = 0;
		while (k < chunk - 16) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			const char *w = words[x % (sizeof words / sizeof *words)];
			size_t l = strlen(w);
			memcpy(buf + k, w, l);
			k += l;
		}
		if (k > size - done)
			k = size - done;
		if (write(fd, buf, k) != (ssize_t)k)
			abort();
		done += k;
	}
	free(buf);
}

int main(int argc, char **argv)
{
	size_t size = (argc > 1 ? strtoul(argv[1], NULL, 10) : INPUT_KIB) << 10;
	size_t block = (argc > 2 ? strtoul(argv[2], NULL, 10) : BLOCK_KIB) << 10;
	int nworkers = argc > 3 ? atoi(argv[3]) : 3;
	if (size == 0 || block == 0 || nworkers < 1 || nworkers > 64) {
		fprintf(stderr, "usage: compressor [INPUT_KIB [BLOCK_KIB [WORKERS]]]\n");
		return 2;
	}
	int in = memfd_create("input", 0), sink = open("/dev/null", O_WRONLY);
	if (in < 0 || sink < 0) {
		perror("compressor");
		return 2;
	}
	make_input(in, size);
	q.head = q.tail = NULL;
	q.closed = 0;

	pthread_t th[64];
	for (int i = 0; i < nworkers; i++)
		pthread_create(&th[i], NULL, worker, NULL);
	size_t njobs = (size + block - 1) / block;
	struct job **jobs = calloc(njobs, sizeof *jobs);
	for (size_t i = 0; i < njobs; i++) { /* the reader: read() fills the block */
		struct job *j = calloc(1, sizeof *j);
		size_t len = size - i * block < block ? size - i * block : block;
		j->in = malloc(len);
		if (pread(in, j->in, len, (off_t)(i * block)) != (ssize_t)len)
			abort();
		j->len = len;
		jobs[i] = j;
		push(j);
	}
	pthread_mutex_lock(&q.lock);
	q.closed = 1;
	pthread_cond_broadcast(&q.more);
	pthread_mutex_unlock(&q.lock);

	size_t total = 0;
	uint32_t check = 0;
	for (size_t i = 0; i < njobs; i++) { /* the writer: blocks in order */
		struct job *j = jobs[i];
		pthread_mutex_lock(&q.lock);
		while (!j->done)
			pthread_cond_wait(&q.finished, &q.lock);
		pthread_mutex_unlock(&q.lock);
		if (write(sink, j->out, j->outlen) != (ssize_t)j->outlen)
			abort();
		total += j->outlen;
		check ^= j->check;
	}
	for (int i = 0; i < nworkers; i++)
		pthread_join(th[i], NULL);
	for (size_t i = 0; i < njobs; i++) {
		assert(jobs[i]->done == 1 && "a job was compressed twice");
		free(jobs[i]->out);
		free(jobs[i]->in);
		free(jobs[i]);
	}
	free(jobs);
	close(in);
	close(sink);
	printf("%zu bytes in %zu blocks -> %zu bytes, check %08x\n", size, njobs, total, check);
	return 0;
}
