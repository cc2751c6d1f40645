/* check_then_act: the HaPSet paper's Fig. 2. t2 checks p != NULL, then
 * dereferences p; t1 may set p to NULL in between. expect: signal (SIGSEGV).
 * FIXED: check and use happen under the lock that guards p. */
#include <pthread.h>
#include <stddef.h>

static int a;
/* volatile: the check and the use read p separately, as in the paper
 * (an optimiser would otherwise load it once and close the window). */
static int *volatile p;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *t1(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	p = &a; /* e1 */
	pthread_mutex_unlock(&lock);
	pthread_mutex_lock(&lock);
	p = NULL; /* e4 */
	pthread_mutex_unlock(&lock);
	return NULL;
}

static void *t2(void *arg)
{
	(void)arg;
#ifdef FIXED
	pthread_mutex_lock(&lock);
#endif
	if (p != NULL) /* e2 */
		*p = 1; /* e3 */
#ifdef FIXED
	pthread_mutex_unlock(&lock);
#endif
	return NULL;
}

int main(void)
{
	p = NULL;
	pthread_t x, y;
	pthread_create(&x, NULL, t1, NULL);
	pthread_create(&y, NULL, t2, NULL);
	pthread_join(x, NULL);
	pthread_join(y, NULL);
	return 0;
}
