/* lockstep: a bug that needs five preemptions. Two threads take turns
 * publishing a round number and reading the other's; the assertion fails
 * only if they run in strict lockstep for three rounds of thread 1 and
 * two of thread 2:
 *   a=1 | b=1 | read b | read a, b=2 | a=2, read b | read a, b=3, read a
 *   (thread 2 ends) a=3, read b.
 * Each "|" is a preemption: five, the fewest that expose it; the last
 * switch is free, at thread 2's exit.
 * expect: assert. FIXED: each thread publishes and reads in one critical
 * section, so a thread never sees the other mid-round and the two can
 * never see each other's rounds in lockstep. */
#include <assert.h>
#include <pthread.h>

#define ROUNDS 3

static volatile int a, b;
static int seen_by_1[ROUNDS + 1], seen_by_2[ROUNDS + 1];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *thread1(void *arg)
{
	(void)arg;
	for (int i = 1; i <= ROUNDS; i++) {
#ifdef FIXED
		pthread_mutex_lock(&lock);
#endif
		a = i;
		seen_by_1[i] = b;
#ifdef FIXED
		pthread_mutex_unlock(&lock);
#endif
	}
	return NULL;
}

static void *thread2(void *arg)
{
	(void)arg;
	for (int i = 1; i <= ROUNDS; i++) {
#ifdef FIXED
		pthread_mutex_lock(&lock);
#endif
		b = i;
		seen_by_2[i] = a;
#ifdef FIXED
		pthread_mutex_unlock(&lock);
#endif
	}
	return NULL;
}

int main(void)
{
	a = b = 0;
	pthread_t t1, t2;
	pthread_create(&t1, NULL, thread1, NULL);
	pthread_create(&t2, NULL, thread2, NULL);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	int lockstep = 1;
	for (int i = 1; i <= ROUNDS; i++)
		lockstep &= seen_by_1[i] == i;
	for (int i = 1; i < ROUNDS; i++)
		lockstep &= seen_by_2[i] == i;
	assert(!lockstep);
	return 0;
}
