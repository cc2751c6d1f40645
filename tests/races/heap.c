/* heap.c - two workers update a field of a heap object the main thread
 * allocated; the bug: one of them forgets the lock. Fixed: both lock. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct account {
	pthread_mutex_t lock;
	long balance;
};

static struct account *open_account(void)
{
	struct account *a = calloc(1, sizeof *a);
	pthread_mutex_init(&a->lock, NULL);
	return a;
}

static void *deposit(void *arg)
{
	struct account *a = arg;
	pthread_mutex_lock(&a->lock);
	a->balance += 10;
	pthread_mutex_unlock(&a->lock);
	return NULL;
}

static void *withdraw(void *arg)
{
	struct account *a = arg;
#ifdef FIXED
	pthread_mutex_lock(&a->lock);
#endif
	a->balance -= 5;
#ifdef FIXED
	pthread_mutex_unlock(&a->lock);
#endif
	return NULL;
}

int main(void)
{
	struct account *a = open_account();
	pthread_t d, w;
	pthread_create(&d, NULL, deposit, a);
	pthread_create(&w, NULL, withdraw, a);
	pthread_join(d, NULL);
	pthread_join(w, NULL);
	printf("%ld\n", a->balance);
	free(a);
	return 0;
}
