/* stack_tick: the tick counts every private access, the thread's own stack
 * included. Two threads each make 6,000,000 private accesses, two thirds
 * of them to a local array that a callee reaches through a pointer (as
 * code does that is handed a caller's buffer). Every RT_OWN_TICK-th access
 * must be a scheduling point wherever it falls: one that fell on the stack
 * used to be lost, and with it every later tick of the thread, so a long
 * computation on its stack reached no point at all and only the
 * watchdog's clock could preempt it. own_points.sh counts the points. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define ROUNDS 1000000L

/* Not inlined: the callee sees a pointer, not the caller's array. */
__attribute__((noinline)) static void step(int *local, int *heap, long i)
{
	local[i & 63] += heap[i & 1023];
	heap[i & 1023] = local[(i * 7) & 63];
	local[(i * 3) & 63] ^= (int)i;
}

static void *work(void *arg)
{
	int *heap = arg;
	int local[64] = {0};
	for (long i = 0; i < ROUNDS; i++)
		step(local, heap, i);
	long s = 0;
	for (int i = 0; i < 64; i++)
		s += local[i];
	return (void *)s;
}

int main(void)
{
	pthread_t t[2];
	int *h[2];
	for (int i = 0; i < 2; i++) {
		h[i] = calloc(1024, sizeof(int));
		if (!h[i] || pthread_create(&t[i], NULL, work, h[i]) != 0)
			return 1;
	}
	for (int i = 0; i < 2; i++) {
		pthread_join(t[i], NULL);
		free(h[i]);
	}
	puts("done");
	return 0;
}
