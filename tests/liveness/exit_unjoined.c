/* exit_unjoined: main starts three threads and leaves (returns, or calls
 * exit(0) with -DVIA_EXIT) without joining any of them, as daemons and
 * fire-and-forget workers do. The loader sets the configuration, the
 * opener marks the service open without waiting for it, and the checker
 * asserts that an open service is configured. The assertion fails only if
 * the checker runs after the opener, before the loader, and before the
 * process ends: so the threads must still be scheduled while main leaves.
 * Natively the loader, started first, has nearly always run by then.
 * expect: assert. FIXED: the opener waits for the loader (a semaphore);
 * still no joins, and a thread may be left blocked when the process ends. */
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdlib.h>

static volatile int configured; /* set by the loader */
static volatile int open_;      /* set by the opener */
#ifdef FIXED
static sem_t loaded;
#endif

static void *loader(void *arg)
{
	(void)arg;
	configured = 1;
#ifdef FIXED
	sem_post(&loaded);
#endif
	return NULL;
}

static void *opener(void *arg)
{
	(void)arg;
#ifdef FIXED
	sem_wait(&loaded);
#endif
	open_ = 1;
	return NULL;
}

static void *checker(void *arg)
{
	(void)arg;
	int is_open = open_;
	int is_configured = configured;
	assert(!is_open || is_configured);
	return NULL;
}

int main(void)
{
	configured = 0;
	open_ = 0;
#ifdef FIXED
	sem_init(&loaded, 0, 0);
#endif
	pthread_t t;
	pthread_create(&t, NULL, loader, NULL);
	pthread_create(&t, NULL, opener, NULL);
	pthread_create(&t, NULL, checker, NULL);
	/* No joins: whatever has not run when the process ends never runs. */
#ifdef VIA_EXIT
	exit(0);
#else
	return 0;
#endif
}
