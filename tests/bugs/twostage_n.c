/* twostage_n: a scalable family after SCTBench's twostage_X_bad. One
 * writer updates data1 under lock m1, then derives data2 = data1 + 1
 * under lock m2; one reader, seeing data1 set, reads data2 and expects
 * the derived value. The reader fails if it runs between the writer's two
 * stages. THREADS-2 bystanders take the same locks to read both values,
 * adding scheduling points that cannot expose the bug. Build with
 * -DTHREADS=N (2 to 100): the bug keeps its depth while the threads grow.
 * expect: assert. FIXED: the writer holds m1 across both stages, and the
 * reader holds it while it reads data2. */
#include <assert.h>
#include <pthread.h>

#ifndef THREADS
#define THREADS 4
#endif
_Static_assert(THREADS >= 2 && THREADS <= 100, "between 2 and 100 threads");

static pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t m2 = PTHREAD_MUTEX_INITIALIZER;
static int data1, data2;
static volatile int sum;

static void *writer(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m1);
	data1 = 1;
#ifndef FIXED
	pthread_mutex_unlock(&m1);
#endif
	pthread_mutex_lock(&m2);
	data2 = data1 + 1;
	pthread_mutex_unlock(&m2);
#ifdef FIXED
	pthread_mutex_unlock(&m1);
#endif
	return NULL;
}

static void *reader(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m1);
	if (data1 == 1) {
#ifndef FIXED
		pthread_mutex_unlock(&m1);
#endif
		pthread_mutex_lock(&m2);
		int t = data2;
		pthread_mutex_unlock(&m2);
		assert(t == 2);
#ifdef FIXED
		pthread_mutex_unlock(&m1);
#endif
	} else {
		pthread_mutex_unlock(&m1);
	}
	return NULL;
}

static void *bystander(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m1);
	int x = data1;
	pthread_mutex_unlock(&m1);
	pthread_mutex_lock(&m2);
	sum += x + data2;
	pthread_mutex_unlock(&m2);
	return NULL;
}

int main(void)
{
	data1 = data2 = sum = 0;
	pthread_t t[THREADS];
	pthread_create(&t[0], NULL, writer, NULL);
	for (int i = 1; i < THREADS - 1; i++)
		pthread_create(&t[i], NULL, bystander, NULL);
	pthread_create(&t[THREADS - 1], NULL, reader, NULL);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	return 0;
}
