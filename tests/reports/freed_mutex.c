/* freed_mutex: a connection carries its own mutex. The closer marks it
 * closed and frees it; a reader checks the flag and then locks the
 * connection's mutex (the only use of its memory), with nothing keeping the connection alive between
 * the check and the lock. The report names the lock of freed memory at
 * the reader's line (ASan's report in the ASan mode).
 * FIXED: check, use and free happen under one lock that outlives the
 * connection. */
#include <pthread.h>
#include <stdlib.h>

struct conn {
	pthread_mutex_t lock;
	int fd;
};

static struct conn *conn;
static long bytes; /* counted under the connection's lock */
static int volatile closed;
static pthread_mutex_t table = PTHREAD_MUTEX_INITIALIZER;

static void *reader(void *arg)
{
	(void)arg;
#ifdef FIXED
	pthread_mutex_lock(&table);
#endif
	if (!closed) {
		pthread_mutex_lock(&conn->lock);
		bytes += 512;
		pthread_mutex_unlock(&conn->lock);
	}
#ifdef FIXED
	pthread_mutex_unlock(&table);
#endif
	return NULL;
}

static void *closer(void *arg)
{
	(void)arg;
#ifdef FIXED
	pthread_mutex_lock(&table);
#endif
	closed = 1;
	pthread_mutex_destroy(&conn->lock);
	free(conn);
#ifdef FIXED
	pthread_mutex_unlock(&table);
#endif
	return NULL;
}

int main(void)
{
	conn = calloc(1, sizeof *conn);
	pthread_mutex_init(&conn->lock, NULL);
	pthread_t r, c;
	pthread_create(&r, NULL, reader, NULL);
	pthread_create(&c, NULL, closer, NULL);
	pthread_join(r, NULL);
	pthread_join(c, NULL);
	return 0;
}
