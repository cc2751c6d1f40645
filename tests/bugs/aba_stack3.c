/* aba_stack3: a lock-free (Treiber) stack over a pool of nodes, C11
 * atomics throughout, used by three threads: two take a node each, and a
 * recycler takes a node and puts it back. A taker that read the top (A)
 * and its successor (B) and is then preempted while the recycler takes A,
 * the other taker takes B, and the recycler puts A back, finds A on top
 * again: its compare-exchange succeeds and installs B, which the other
 * taker holds. B is then both held and on the stack. It needs all three
 * threads and a preemption in two of them.
 * expect: assert. FIXED: the top carries a version beside the node index,
 * bumped by every change, so the stale compare-exchange fails. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#define NODES 4
#define NIL 0xffffffffu

static _Atomic uint32_t next_of[NODES];
/* Low 32 bits: the index of the top node; high 32 bits: a version. */
static _Atomic uint64_t top;
static uint32_t held[3]; /* what each worker keeps, NIL for nothing */

static uint64_t make_top(uint64_t old, uint32_t index)
{
#ifdef FIXED
	return ((old >> 32) + 1) << 32 | index;
#else
	return (old & ~0xffffffffull) | index;
#endif
}

static void push(uint32_t i)
{
	uint64_t old = atomic_load(&top);
	do
		atomic_store_explicit(&next_of[i], (uint32_t)old, memory_order_relaxed);
	while (!atomic_compare_exchange_weak(&top, &old, make_top(old, i)));
}

static uint32_t pop(void)
{
	uint64_t old = atomic_load(&top);
	for (;;) {
		uint32_t i = (uint32_t)old;
		if (i == NIL)
			return NIL;
		uint32_t next = atomic_load_explicit(&next_of[i], memory_order_relaxed);
		if (atomic_compare_exchange_weak(&top, &old, make_top(old, next)))
			return i;
	}
}

static void *taker(void *arg)
{
	held[(intptr_t)arg] = pop();
	return NULL;
}

static void *recycler(void *arg)
{
	uint32_t i = pop();
	if (i != NIL)
		push(i); /* back on the stack, as a free list reuses a node */
	held[(intptr_t)arg] = NIL;
	return NULL;
}

int main(void)
{
	atomic_store(&top, NIL);
	for (uint32_t i = NODES; i-- > 0;)
		push(i); /* top: 0 -> 1 -> 2 -> 3 */
	for (int i = 0; i < 3; i++)
		held[i] = NIL;
	pthread_t t[3];
	pthread_create(&t[0], NULL, taker, (void *)0);
	pthread_create(&t[1], NULL, recycler, (void *)1);
	pthread_create(&t[2], NULL, taker, (void *)2);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	/* Every node is on the stack or held by a worker, exactly once. */
	int seen[NODES] = { 0 };
	for (int i = 0; i < 3; i++)
		if (held[i] != NIL)
			seen[held[i]]++;
	int steps = 0;
	for (uint32_t i = (uint32_t)atomic_load(&top); i != NIL && steps <= NODES; steps++) {
		seen[i]++;
		i = atomic_load(&next_of[i]);
	}
	for (int i = 0; i < NODES; i++)
		assert(seen[i] == 1); /* lost, or both on the stack and held */
	return 0;
}
