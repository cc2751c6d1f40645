/* flicker_check: a depth-3 bug. A worker marks a slot busy, fills it and
 * marks it free again; a monitor that saw the slot busy re-reads the mark
 * before using the slot, and is wrong only when the mark flips between its
 * two reads. Three ordering constraints: set busy < first read < set free
 * < second read, so PCT needs depth 3 (two change points).
 * expect: assert. FIXED: the monitor decides on one read. */
#include <assert.h>
#include <pthread.h>

static volatile int busy;
static int slot[4];

static void *worker(void *arg)
{
	(void)arg;
	busy = 1;
	for (int i = 0; i < 4; i++)
		slot[i] = i + 1;
	busy = 0;
	return NULL;
}

static void *monitor(void *arg)
{
	(void)arg;
	int seen = busy;
	if (seen) {
#ifdef FIXED
		int again = seen;
#else
		int again = busy;
#endif
		/* A monitor that saw the worker busy must still see it so. */
		assert(again == 1);
	}
	return NULL;
}

int main(void)
{
	busy = 0;
	for (int i = 0; i < 4; i++)
		slot[i] = 0;
	pthread_t w, m;
	pthread_create(&w, NULL, worker, NULL);
	pthread_create(&m, NULL, monitor, NULL);
	pthread_join(w, NULL);
	pthread_join(m, NULL);
	return 0;
}
