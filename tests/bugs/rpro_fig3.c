/* rpro_fig3: the RPRO paper's Fig. 3, deadlock d2, adapted from a JDBC
 * connector deadlock. t1 holds s across its whole body and takes p then n
 * (s06, s08); t2 takes n then p (s15, s16). Besides the two constraints
 * between the deadlocking acquisitions, two more are needed: t2 must pass
 * its s critical section (s13-s14) before t1 takes s (s03), and must take
 * n (s15) only after t1 released it (s05). Four constraints, close
 * together in lock acquisitions: what RPRO's radius is for.
 * expect: deadlock. FIXED: t2 takes p before n, as t1 does. */
#include <pthread.h>

static pthread_mutex_t k = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t s = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t n = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t p = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *t1(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&k);   /* s01 */
	pthread_mutex_unlock(&k); /* s02 */
	pthread_mutex_lock(&s);   /* s03 */
	pthread_mutex_lock(&n);   /* s04 */
	pthread_mutex_unlock(&n); /* s05 */
	pthread_mutex_lock(&p);   /* s06 */
	pthread_mutex_lock(&m);   /* s07 */
	pthread_mutex_lock(&n);   /* s08 */
	pthread_mutex_unlock(&n); /* s09 */
	pthread_mutex_unlock(&m); /* s10 */
	pthread_mutex_unlock(&p); /* s11 */
	pthread_mutex_unlock(&s); /* s12 */
	return NULL;
}

static void *t2(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&s);   /* s13 */
	pthread_mutex_unlock(&s); /* s14 */
#ifdef FIXED
	pthread_mutex_lock(&p);
	pthread_mutex_lock(&n);
	pthread_mutex_unlock(&n);
	pthread_mutex_unlock(&p);
#else
	pthread_mutex_lock(&n);   /* s15 */
	pthread_mutex_lock(&p);   /* s16 */
	pthread_mutex_unlock(&p); /* s17 */
	pthread_mutex_unlock(&n); /* s18 */
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
