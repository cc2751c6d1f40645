/* deque: a work-stealing deque (after Chase and Lev, fixed array, SC
 * atomics). One owner pushes two tasks and pops until empty; N-1 thieves
 * steal once each. Popping the last task races with a steal of it: the
 * owner must settle that race with a compare-and-swap on top, as thieves
 * do. The buggy owner takes the last task with a plain store instead, so
 * a thief that read the old bottom and swapped top meanwhile takes the
 * same task: every task is claimed once, and a second claim fails.
 * Usage: deque [N], N threads besides main: the owner and N-1 thieves (2
 * to 100, default 4).
 * expect: assertion failure. FIXED: the owner's last pop swaps top. */
#include <assert.h>
#include <pthread.h>
#include <stdbool.h>

#include "family.h"

#define TASKS 2

static long top, bottom;
static int buf[TASKS];
static int claimed[TASKS];

static void take(int task)
{
	assert(__atomic_exchange_n(&claimed[task], 1, __ATOMIC_SEQ_CST) == 0);
}

static void push(int task)
{
	long b = __atomic_load_n(&bottom, __ATOMIC_SEQ_CST);
	__atomic_store_n(&buf[b], task, __ATOMIC_SEQ_CST);
	__atomic_store_n(&bottom, b + 1, __ATOMIC_SEQ_CST);
}

/* The owner's end: false when empty. */
static bool pop(void)
{
	long b = __atomic_load_n(&bottom, __ATOMIC_SEQ_CST) - 1;
	__atomic_store_n(&bottom, b, __ATOMIC_SEQ_CST);
	long t = __atomic_load_n(&top, __ATOMIC_SEQ_CST);
	if (t > b) { /* empty */
		__atomic_store_n(&bottom, t, __ATOMIC_SEQ_CST);
		return false;
	}
	int task = __atomic_load_n(&buf[b], __ATOMIC_SEQ_CST);
	if (t < b) { /* more than one left: no thief can reach this one */
		take(task);
		return true;
	}
	/* The last task: a thief may be taking it right now. */
#ifdef FIXED
	long expected = t; /* a failed swap overwrites it; bottom goes past t either way */
	bool won = __atomic_compare_exchange_n(&top, &expected, t + 1, false, __ATOMIC_SEQ_CST,
					       __ATOMIC_SEQ_CST);
#else
	__atomic_store_n(&top, t + 1, __ATOMIC_SEQ_CST);
	bool won = true;
#endif
	__atomic_store_n(&bottom, t + 1, __ATOMIC_SEQ_CST);
	if (won)
		take(task);
	return won;
}

static void *owner(void *arg)
{
	(void)arg;
	for (int i = 0; i < TASKS; i++)
		push(i);
	while (pop())
		;
	return NULL;
}

static void *thief(void *arg)
{
	(void)arg;
	long t = __atomic_load_n(&top, __ATOMIC_SEQ_CST);
	long b = __atomic_load_n(&bottom, __ATOMIC_SEQ_CST);
	if (t >= b)
		return NULL;
	int task = __atomic_load_n(&buf[t], __ATOMIC_SEQ_CST);
	if (__atomic_compare_exchange_n(&top, &t, t + 1, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		take(task);
	return NULL;
}

int main(int argc, char **argv)
{
	int n = family_threads(argc, argv);
	top = bottom = 0;
	for (int i = 0; i < TASKS; i++)
		claimed[i] = 0;
	pthread_t t[FAMILY_MAX_THREADS];
	pthread_create(&t[0], NULL, owner, NULL);
	for (int i = 1; i < n; i++)
		pthread_create(&t[i], NULL, thief, NULL);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}
