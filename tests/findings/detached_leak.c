/* detached_leak: main returns while its detached workers are blocked
 * (one waits for a condition nobody signals, one for a mutex main still
 * holds), with a block it allocated and dropped: a leak, which
 * LeakSanitizer reports at exit in every schedule. Its check stops the
 * world and waits with sched_yield; under control that wait could hand
 * the turn to a suspended thread and the process would never end.
 * FIXED: the block is freed. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t held = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t never = PTHREAD_COND_INITIALIZER;
static int go;
static char *volatile settings_seen; /* keeps the allocation from being optimized away */

static void *waiter(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	while (!go)
		pthread_cond_wait(&never, &lock);
	pthread_mutex_unlock(&lock);
	return NULL;
}

static void *locker(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&held);
	pthread_mutex_unlock(&held);
	return NULL;
}

/* Not inlined: no copy of the pointer stays in main's frame. */
static __attribute__((noinline)) void load_settings(void)
{
	char *settings = malloc(64);
	memset(settings, 1, 64);
	settings_seen = settings;
#ifdef FIXED
	free(settings);
#endif
	settings_seen = NULL; /* the last pointer: now a leak */
}

int main(void)
{
	pthread_mutex_lock(&held);
	pthread_t t;
	pthread_create(&t, NULL, waiter, NULL);
	pthread_detach(t);
	pthread_create(&t, NULL, locker, NULL);
	pthread_detach(t);
	load_settings();
	return 0;
}
