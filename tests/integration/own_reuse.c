/* own_reuse: memory one thread freed is owned afresh by the next thread
 * that allocates it. With one malloc arena for every thread, a block
 * that worker A fills and frees is handed back to worker B's malloc of the
 * same size; B then loops over it. B's accesses race with nothing (A is
 * done with it, and waits to be released), so B's loop needs no points
 * beyond the tick: own_points.sh counts them. Prints "reused" when B's
 * block overlaps A's, which is what the check is about. */
#include <malloc.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>

#define WORDS (1 << 17) /* 1 MiB, from the heap (mmap's threshold is raised) */

static sem_t freed, done;
static void *first;

static long fill(long *b, long rounds)
{
	long s = 0;
	for (long r = 0; r < rounds; r++)
		for (long i = 0; i < WORDS; i++)
			s += b[i] = i ^ r;
	return s;
}

static void *worker_a(void *arg)
{
	(void)arg;
	/* Bigger than B's: what is left when the runtime's own allocations
	 * (PCTVB's list of heap blocks) take a little of it still fits B's. */
	long *b = malloc((WORDS + WORDS / 8) * sizeof *b);
	long s = fill(b, 1);
	first = b;
	free(b);
	sem_post(&freed);
	sem_wait(&done); /* alive while B works: its slot is not B's */
	return (void *)s;
}

static void *worker_b(void *arg)
{
	(void)arg;
	sem_wait(&freed);
	long *b = malloc(WORDS * sizeof *b);
	long s = fill(b, 2);
	char *lo = (char *)b, *old = first;
	puts(lo < old + (WORDS + WORDS / 8) * sizeof *b && old < lo + WORDS * sizeof *b ? "reused"
											    : "not reused");
	free(b);
	sem_post(&done);
	return (void *)s;
}

int main(void)
{
	mallopt(M_ARENA_MAX, 1);
	mallopt(M_MMAP_THRESHOLD, 4 << 20);
	sem_init(&freed, 0, 0);
	sem_init(&done, 0, 0);
	pthread_t a, b;
	pthread_create(&a, NULL, worker_a, NULL);
	pthread_create(&b, NULL, worker_b, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
