/* rpro_fig1: the RPRO paper's Fig. 1, deadlock d1. Thread t1 takes m then
 * n (s01, s02); thread t2 takes n then m (s05, s06). The deadlock needs
 * two ordering constraints: s01 before s06 and s05 before s02.
 * expect: deadlock. FIXED: both threads take m first. */
#include <pthread.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t n = PTHREAD_MUTEX_INITIALIZER;

static void *t1(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m);   /* s01 */
	pthread_mutex_lock(&n);   /* s02 */
	pthread_mutex_unlock(&n); /* s03 */
	pthread_mutex_unlock(&m); /* s04 */
	return NULL;
}

static void *t2(void *arg)
{
	(void)arg;
#ifdef FIXED
	pthread_mutex_lock(&m);
	pthread_mutex_lock(&n);
	pthread_mutex_unlock(&n);
	pthread_mutex_unlock(&m);
#else
	pthread_mutex_lock(&n);   /* s05 */
	pthread_mutex_lock(&m);   /* s06 */
	pthread_mutex_unlock(&m); /* s07 */
	pthread_mutex_unlock(&n); /* s08 */
#endif
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, t1, NULL);
	pthread_create(&b, NULL, t2, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
