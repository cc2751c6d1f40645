/* double_free: two closers each check that a connection's buffer is still
 * set, then free it and clear the pointer. Both can pass the check before
 * either clears it, and the buffer is freed twice; glibc's allocator
 * detects it and aborts. The buffer is larger than the per-thread caches,
 * so the second free is checked against the shared arena.
 * expect: signal (SIGABRT). FIXED: the buffer is taken with an atomic
 * exchange, so exactly one closer frees it. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#define BUFFER_SIZE 4096

static void *_Atomic buffer;

static void *closer(void *arg)
{
	(void)arg;
#ifdef FIXED
	void *b = atomic_exchange(&buffer, NULL);
	free(b);
#else
	void *b = atomic_load(&buffer);
	if (b != NULL) {
		free(b);
		atomic_store(&buffer, NULL);
	}
#endif
	return NULL;
}

int main(void)
{
	void *guard = malloc(64); /* keeps the buffer away from the top chunk */
	atomic_store(&buffer, malloc(BUFFER_SIZE));
	void *after = malloc(64);
	pthread_t a, b;
	pthread_create(&a, NULL, closer, NULL);
	pthread_create(&b, NULL, closer, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	free(after);
	free(guard);
	return 0;
}
