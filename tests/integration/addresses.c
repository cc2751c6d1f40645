/* addresses: prints where its heap, a thread's stack and its code lie. Two
 * runs under schedfuzz print the same (the runs are not randomised). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static void *stack_of(void *arg)
{
	(void)arg;
	int local = 0;
	uintptr_t where = (uintptr_t)&local;
	return (void *)where;
}

int main(void)
{
	void *heap = malloc(64), *stack;
	pthread_t t;
	pthread_create(&t, NULL, stack_of, NULL);
	pthread_join(t, &stack);
	printf("heap %p stack %p code %p\n", heap, stack, (void *)main);
	free(heap);
	return 0;
}
