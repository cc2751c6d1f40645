/* stack_overflow: a worker walks a nested structure recursively and never
 * meets the end marker, so it recurses until it runs past the end of its
 * stack. Before it starts, it and main touch a shared counter, so the
 * report has an interleaving to show. A SIGSEGV in the guard page must be
 * reported as a stack overflow (and, in the ASan mode, ASan's own
 * stack-overflow report kept), with the thread, the site and the
 * interleaving, and replay. The worker's stack is small, so that it
 * overflows in well under a millisecond: a long stretch without a
 * scheduling point would be preempted by the clock, and would not replay
 * exactly. expect: stack overflow. */
#include <pthread.h>
#include <stdint.h>

#define STACK_SIZE (256 << 10)

static int started;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* volatile: every level keeps its own frame, and the recursion is not
 * turned into a loop. */
static int walk(int depth)
{
	volatile char frame[256];
	frame[depth % sizeof frame] = (char)depth;
	return walk(depth + 1) + frame[(depth + 1) % sizeof frame];
}

static void *worker(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	started++;
	pthread_mutex_unlock(&lock);
	return (void *)(intptr_t)walk(0);
}

int main(void)
{
	started = 0;
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, STACK_SIZE);
	pthread_t t;
	pthread_create(&t, &attr, worker, NULL);
	pthread_attr_destroy(&attr);
	pthread_mutex_lock(&lock);
	started++;
	pthread_mutex_unlock(&lock);
	pthread_join(t, NULL);
	return 0;
}
