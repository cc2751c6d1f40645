/* map_steps: two threads perform a sequence of reads and writes of x and y
 * in exactly the order given, e.g. "a:R x, b:W x, a:R x" (MAP's notation),
 * whatever the schedule: each step waits for its turn on a semaphore.
 * Only the steps themselves are instrumented, so a controlled run covers
 * just the patterns those steps form. */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>

#define UNWATCHED __attribute__((no_sanitize("thread")))
#define MAX_STEPS 8

static long x __attribute__((aligned(64)));
static long y __attribute__((aligned(64)));

static struct step {
	int thread; /* 0 = a, 1 = b */
	long *var;
	int write;
} steps[MAX_STEPS];
static int nsteps;
static sem_t turn[2], done;

static __attribute__((noinline)) void access_var(long *v, int write, long value)
{
	if (write)
		*v = value;
	else
		*(volatile long *)&value = *v; /* into our own stack: not shared */
}

/* Hand the turn to whoever takes the next step, or to main after the last. */
UNWATCHED static void pass_turn(int next)
{
	sem_post(next < nsteps ? &turn[steps[next].thread] : &done);
}

UNWATCHED static void *thread(void *arg)
{
	int me = (int)(long)arg;
	for (int i = 0; i < nsteps; i++) {
		if (steps[i].thread != me)
			continue;
		sem_wait(&turn[me]);
		access_var(steps[i].var, steps[i].write, i + 1);
		pass_turn(i + 1);
	}
	return NULL;
}

UNWATCHED int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: map_steps \"a:R x, b:W x, ...\"\n");
		return 2;
	}
	for (const char *t = argv[1]; *t && nsteps < MAX_STEPS; t++) {
		if (t[1] != ':' || !t[2] || !t[3] || !t[4])
			continue;
		steps[nsteps++] = (struct step){ t[0] == 'b', t[4] == 'y' ? &y : &x, t[2] == 'W' };
	}
	sem_init(&turn[0], 0, 0);
	sem_init(&turn[1], 0, 0);
	sem_init(&done, 0, 0);
	pthread_t a, b;
	pthread_create(&a, NULL, thread, (void *)0L);
	pthread_create(&b, NULL, thread, (void *)1L);
	if (nsteps)
		sem_post(&turn[steps[0].thread]);
	sem_wait(&done);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
