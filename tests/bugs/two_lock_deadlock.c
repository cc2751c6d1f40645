/* two_lock_deadlock: two threads take two locks in opposite orders.
 * expect: deadlock. FIXED: both take lock_a first. */
#include <pthread.h>

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;
static int balance_a = 100, balance_b = 100;

static void *transfer_ab(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock_a);
	pthread_mutex_lock(&lock_b);
	balance_a -= 10;
	balance_b += 10;
	pthread_mutex_unlock(&lock_b);
	pthread_mutex_unlock(&lock_a);
	return NULL;
}

static void *transfer_ba(void *arg)
{
	(void)arg;
#ifdef FIXED
	pthread_mutex_lock(&lock_a);
	pthread_mutex_lock(&lock_b);
#else
	pthread_mutex_lock(&lock_b);
	pthread_mutex_lock(&lock_a);
#endif
	balance_b -= 10;
	balance_a += 10;
	pthread_mutex_unlock(&lock_a);
	pthread_mutex_unlock(&lock_b);
	return NULL;
}

int main(void)
{
	balance_a = balance_b = 100;
	pthread_t x, y;
	pthread_create(&x, NULL, transfer_ab, NULL);
	pthread_create(&y, NULL, transfer_ba, NULL);
	pthread_join(x, NULL);
	pthread_join(y, NULL);
	return balance_a + balance_b == 200 ? 0 : 1;
}
