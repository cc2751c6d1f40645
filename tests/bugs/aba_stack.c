/* aba_stack: a lock-free (Treiber) stack over a fixed pool of nodes, its
 * top a C11 atomic. pop() reads top and top->next, then swings top with a
 * compare-exchange. If it is preempted in between while another thread
 * pops A, pops B and pushes A back, the compare-exchange still sees A and
 * succeeds, installing B, which is no longer on the stack: the ABA race.
 * expect: assert. FIXED: top carries a version counter beside the node
 * index, bumped by every change, so the stale compare-exchange fails; and
 * next is a relaxed atomic, since a pop that loses its compare-exchange
 * reads it while a push rewrites it (a data race on a plain field). */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#define NODES 3
#define NIL 0xffffffffu

struct node {
#ifdef FIXED
	_Atomic uint32_t next;
#define NEXT_SET(n, v) atomic_store_explicit(&(n).next, (v), memory_order_relaxed)
#define NEXT_GET(n) atomic_load_explicit(&(n).next, memory_order_relaxed)
#else
	uint32_t next;
#define NEXT_SET(n, v) ((n).next = (v))
#define NEXT_GET(n) ((n).next)
#endif
	volatile int on_stack;
};

static struct node nodes[NODES];
/* Low 32 bits: the index of the top node; high 32 bits: a version. */
static _Atomic uint64_t top;

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
	assert(!nodes[i].on_stack);
	nodes[i].on_stack = 1;
	uint64_t old = atomic_load(&top);
	do
		NEXT_SET(nodes[i], (uint32_t)old);
	while (!atomic_compare_exchange_weak(&top, &old, make_top(old, i)));
}

static uint32_t pop(void)
{
	uint64_t old = atomic_load(&top);
	for (;;) {
		uint32_t i = (uint32_t)old;
		if (i == NIL)
			return NIL;
		uint32_t next = NEXT_GET(nodes[i]);
		if (atomic_compare_exchange_weak(&top, &old, make_top(old, next))) {
			assert(nodes[i].on_stack); /* popped twice, or not on the stack */
			nodes[i].on_stack = 0;
			return i;
		}
	}
}

static void *popper(void *arg)
{
	(void)arg;
	pop();
	return NULL;
}

static void *juggler(void *arg)
{
	(void)arg;
	uint32_t a = pop();
	uint32_t b = pop();
	if (a != NIL)
		push(a);
	(void)b; /* b stays with this thread */
	return NULL;
}

int main(void)
{
	atomic_store(&top, NIL);
	for (int i = 0; i < NODES; i++)
		nodes[i].on_stack = 0;
	for (uint32_t i = NODES; i-- > 0;)
		push(i); /* top: 0 -> 1 -> 2 */
	pthread_t a, b;
	pthread_create(&a, NULL, popper, NULL);
	pthread_create(&b, NULL, juggler, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	while (pop() != NIL) /* what is left must all be on the stack */
		;
	return 0;
}
