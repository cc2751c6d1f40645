/* pipe_poll: a producer writes numbered records into a pipe, a consumer
 * waits for them with poll() and reads them; a second pipe carries the
 * consumer's acknowledgement of each batch back. Both block in the kernel
 * (poll, read) while the other runs.
 *
 * BUG: the lost wakeup of a hand-rolled protocol: the producer decides
 * whether to ring the "more data" pipe from a flag the consumer sets only
 * after its last check, so the consumer can go to sleep in poll() while
 * the producer thinks it is awake and never writes again: both wait on a
 * pipe forever, a deadlock named as "poll on pipe fd N".
 * expect: clean with -DFIXED. */
#include <assert.h>
#include <poll.h>
#include <pthread.h>
#include <unistd.h>

#define ITEMS 6

static int data_pipe[2], ack_pipe[2];
static int pending;      /* items produced, not consumed: under lock */
static int sleeping;     /* the consumer is (about to be) in poll: under lock */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *producer(void *arg)
{
	(void)arg;
	for (int i = 1; i <= ITEMS; i++) {
		pthread_mutex_lock(&lock);
		pending++;
#ifdef FIXED
		int ring = 1; /* always ring: the consumer drains the pipe */
#else
		int ring = sleeping; /* the consumer may not have said yet */
#endif
		pthread_mutex_unlock(&lock);
		if (ring) {
			char c = (char)i;
			assert(write(data_pipe[1], &c, 1) == 1);
		}
	}
	char ack;
	assert(read(ack_pipe[0], &ack, 1) == 1); /* the consumer saw them all */
	assert(ack == 'k');
	return NULL;
}

static void *consumer(void *arg)
{
	(void)arg;
	int seen = 0;
	while (seen < ITEMS) {
		pthread_mutex_lock(&lock);
		int n = pending;
		pending = 0;
		pthread_mutex_unlock(&lock);
		seen += n;
		if (seen == ITEMS)
			break;
		if (n == 0) {
			struct pollfd p = { data_pipe[0], POLLIN, 0 };
			assert(poll(&p, 1, -1) == 1 && (p.revents & POLLIN));
			char buf[ITEMS];
			assert(read(data_pipe[0], buf, sizeof buf) >= 1);
		}
		pthread_mutex_lock(&lock);
		sleeping = 1;
		pthread_mutex_unlock(&lock);
	}
	assert(write(ack_pipe[1], "k", 1) == 1);
	return NULL;
}

int main(void)
{
	pending = 0;
	sleeping = 0;
	assert(pipe(data_pipe) == 0 && pipe(ack_pipe) == 0);
	pthread_t p, c;
	pthread_create(&c, NULL, consumer, NULL);
	pthread_create(&p, NULL, producer, NULL);
	pthread_join(p, NULL);
	pthread_join(c, NULL);
	close(data_pipe[0]);
	close(data_pipe[1]);
	close(ack_pipe[0]);
	close(ack_pipe[1]);
	return 0;
}
