/* switch.c - cost of a thread switch: two threads hand a token back and
 * forth through two semaphores, so every round forces two switches. */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static sem_t ping, pong;
static long rounds;

static void *echo(void *arg)
{
	(void)arg;
	for (long i = 0; i < rounds; i++) {
		sem_wait(&ping);
		sem_post(&pong);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	rounds = argc > 1 ? atol(argv[1]) : 20000;
	sem_init(&ping, 0, 0);
	sem_init(&pong, 0, 0);
	pthread_t t;
	struct timespec a, b;
	pthread_create(&t, NULL, echo, NULL);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long i = 0; i < rounds; i++) {
		sem_post(&ping);
		sem_wait(&pong);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	pthread_join(t, NULL);
	printf("%.3f\n", ((b.tv_sec - a.tv_sec) * 1e6 + (b.tv_nsec - a.tv_nsec) / 1e3) / (2.0 * rounds));
	return 0;
}
