/* queue_harness: a harness whose bug needs both a specific input and a
 * specific interleaving. The input is a list of operations on a shared
 * queue, dealt alternately to two threads: push (byte % 3 == 0), pop
 * (== 1), and "take if expected" (== 2), which peeks at the head and, if
 * it is the value wanted, pops it. Each step holds the queue's lock, but
 * the composite one releases it between the peek and the pop, so another
 * thread's pop in between makes it take a different item than it checked.
 * expect: assert. FIXED: the peek and the pop are one critical section. */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#define MAX_OPS 16
#define CAP 32

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int items[CAP];
static int head, tail;
static const uint8_t *ops;
static size_t nops;

static int peek_locked(void)
{
	return head == tail ? -1 : items[head % CAP];
}

static int pop_locked(void)
{
	return head == tail ? -1 : items[head++ % CAP];
}

static void take_if(int wanted)
{
	pthread_mutex_lock(&lock);
	int seen = peek_locked();
#ifndef FIXED
	pthread_mutex_unlock(&lock);
	if (seen != wanted && seen >= 0)
		return;
	pthread_mutex_lock(&lock);
#endif
	if (seen >= 0 && seen == wanted) {
		int got = pop_locked();
		assert(got == seen);
	}
	pthread_mutex_unlock(&lock);
}

static void *client(void *arg)
{
	for (size_t i = (size_t)(intptr_t)arg; i < nops; i += 2) {
		uint8_t op = ops[i];
		switch (op % 3) {
		case 0:
			pthread_mutex_lock(&lock);
			if (tail - head < CAP)
				items[tail++ % CAP] = op;
			pthread_mutex_unlock(&lock);
			break;
		case 1:
			pthread_mutex_lock(&lock);
			pop_locked();
			pthread_mutex_unlock(&lock);
			break;
		default:
			take_if(op - 2); /* wants the push of the byte just below */
			break;
		}
	}
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ops = data;
	nops = size < MAX_OPS ? size : MAX_OPS;
	head = tail = 0;
	pthread_t a, b;
	pthread_create(&a, NULL, client, (void *)0);
	pthread_create(&b, NULL, client, (void *)1);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
