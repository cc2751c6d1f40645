/* small_double_free: two closers each check that a session's small
 * buffer is still set, then free it and clear the pointer, with no lock.
 * Both can pass the check before either clears it, and the 24-byte block
 * is freed twice, by two threads: each puts it in its own tcache, which
 * is all glibc checks a free against, so glibc only aborts ("double free
 * or corruption (fasttop)") when a thread exits and flushes its cache,
 * after it has left the schedule. The report, with its interleaving, must
 * still come out, at the second free. expect: fatal signal (SIGABRT).
 * FIXED: the check and the clear are under a mutex, so exactly one closer
 * frees it. */
#include <pthread.h>
#include <stdlib.h>

#define BUFFER_SIZE 24

static char *volatile buffer;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *closer(void *arg)
{
	(void)arg;
#ifdef FIXED
	pthread_mutex_lock(&lock);
	char *b = buffer;
	buffer = NULL;
	pthread_mutex_unlock(&lock);
	free(b);
#else
	char *b = buffer;
	if (b != NULL) {
		free(b);
		buffer = NULL;
	}
#endif
	return NULL;
}

int main(void)
{
	buffer = malloc(BUFFER_SIZE);
	buffer[0] = 1;
	pthread_t a, b;
	pthread_create(&a, NULL, closer, NULL);
	pthread_create(&b, NULL, closer, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
