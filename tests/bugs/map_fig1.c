/* map_fig1: the MAP-Coverage paper's Fig. 1, log4j's threshold check
 * ported to C. is_enabled() tests th == NULL (site s4), then reads
 * th->level (site s5); set_threshold(NULL) (site s9) in another thread can
 * run between them: the interleaving t1:s4, t2:s9, t1:s5 dereferences NULL.
 * It covers MAP patterns 1, 2 and 4.
 * expect: signal (SIGSEGV). FIXED: the check and the read take the
 * threshold once, under the hierarchy's lock. */
#include <pthread.h>
#include <stddef.h>

struct level { int value; };

static struct level warn = { 30 };
static struct level *volatile th;
static pthread_mutex_t hierarchy = PTHREAD_MUTEX_INITIALIZER;
static volatile int logged;

static int is_enabled(int prio)
{
#ifdef FIXED
	pthread_mutex_lock(&hierarchy);
	struct level *t = th;
	int on = t == NULL || prio >= t->value;
	pthread_mutex_unlock(&hierarchy);
	return on;
#else
	return th == NULL /* s4 */ || prio >= th->value /* s5 */;
#endif
}

static void set_threshold(struct level *l)
{
	pthread_mutex_lock(&hierarchy);
	th = l; /* s9 */
	pthread_mutex_unlock(&hierarchy);
}

static void *logger(void *arg)
{
	(void)arg;
	if (is_enabled(40))
		logged++;
	return NULL;
}

static void *configurator(void *arg)
{
	(void)arg;
	set_threshold(NULL);
	return NULL;
}

int main(void)
{
	th = &warn;
	logged = 0;
	pthread_t t1, t2;
	pthread_create(&t1, NULL, logger, NULL);
	pthread_create(&t2, NULL, configurator, NULL);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	return 0;
}
