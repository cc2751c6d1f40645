/* stack: a lock-free (Treiber) stack of node indices over a fixed pool,
 * used by N symmetric workers that each pop two nodes and push them back.
 * A pop reads the top and its successor, then swings the top with a
 * compare-and-swap on the index alone: if meanwhile another worker pops
 * that top and its successor and pushes the top back (ABA), the swap
 * succeeds and installs a node that worker still holds. Every node is
 * claimed on pop and released before push, so a node popped twice fails
 * the claim; main checks at the end that the stack holds every node once.
 * Usage: stack [N], N workers besides main (2 to 100, default 4).
 * expect: assertion failure. FIXED: the top carries a tag that every
 * swap increments, so a stale swap fails. */
#include <assert.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "family.h"

#define NODES (FAMILY_MAX_THREADS + 2)
#define NONE 0xffffffffu

static uint64_t top;            /* low 32 bits: node index or NONE; high 32: tag */
static uint32_t next[NODES];
static int claimed[NODES];
static int nodes;

static uint64_t make_top(uint32_t index, uint32_t tag)
{
	return (uint64_t)tag << 32 | index;
}

static uint32_t tag_of(uint64_t t)
{
#ifdef FIXED
	return (uint32_t)(t >> 32) + 1;
#else
	return (uint32_t)(t >> 32);
#endif
}

static uint32_t pop(void)
{
	uint64_t t = __atomic_load_n(&top, __ATOMIC_SEQ_CST);
	for (;;) {
		uint32_t i = (uint32_t)t;
		if (i == NONE)
			return NONE;
		uint32_t succ = __atomic_load_n(&next[i], __ATOMIC_SEQ_CST);
		if (__atomic_compare_exchange_n(&top, &t, make_top(succ, tag_of(t)), false,
						__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
			break;
	}
	uint32_t i = (uint32_t)t;
	assert(__atomic_exchange_n(&claimed[i], 1, __ATOMIC_SEQ_CST) == 0);
	return i;
}

static void push(uint32_t i)
{
	if (i == NONE)
		return;
	__atomic_store_n(&claimed[i], 0, __ATOMIC_SEQ_CST);
	uint64_t t = __atomic_load_n(&top, __ATOMIC_SEQ_CST);
	do
		__atomic_store_n(&next[i], (uint32_t)t, __ATOMIC_SEQ_CST);
	while (!__atomic_compare_exchange_n(&top, &t, make_top(i, tag_of(t)), false,
					    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
}

static void *worker(void *arg)
{
	(void)arg;
	uint32_t a = pop();
	uint32_t b = pop();
	push(a);
	push(b);
	return NULL;
}

int main(int argc, char **argv)
{
	int n = family_threads(argc, argv);
	nodes = n + 2;
	top = make_top(NONE, 0);
	for (int i = 0; i < nodes; i++) {
		claimed[i] = 1;
		push((uint32_t)i);
	}
	pthread_t t[FAMILY_MAX_THREADS];
	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	/* Every node once, and nothing else: a cycle or a lost node is corruption. */
	int seen[NODES] = { 0 }, count = 0;
	for (uint32_t i = (uint32_t)top; i != NONE; i = next[i]) {
		assert(i < (uint32_t)nodes && !seen[i]);
		seen[i] = 1;
		count++;
	}
	assert(count == nodes);
	return 0;
}
