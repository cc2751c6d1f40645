/* cancel_read: a thread blocked in read() on a pipe nobody writes is
 * cancelled: read is a cancellation point, the wait in the kernel ends in
 * the cancel, its cleanup handler runs and the joiner sees
 * PTHREAD_CANCELED, under every schedule. */
#include <assert.h>
#include <pthread.h>
#include <unistd.h>

static int fds[2];
static int cleaned;

static void cleanup(void *arg)
{
	(void)arg;
	cleaned = 1;
}

static void *reader(void *arg)
{
	(void)arg;
	char c;
	pthread_cleanup_push(cleanup, NULL);
	ssize_t n = read(fds[0], &c, 1); /* nobody writes: only the cancel ends it */
	(void)n;
	pthread_cleanup_pop(0);
	return NULL;
}

int main(void)
{
	cleaned = 0;
	assert(pipe(fds) == 0);
	pthread_t t;
	pthread_create(&t, NULL, reader, NULL);
	pthread_cancel(t);
	void *ret;
	pthread_join(t, &ret);
	assert(ret == PTHREAD_CANCELED);
	assert(cleaned);
	close(fds[0]);
	close(fds[1]);
	return 0;
}
