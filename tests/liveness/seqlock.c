/* seqlock: a correct sequence lock, one writer and two readers. A reader
 * that meets a write in progress retries over four reads of three
 * addresses (seq, d1, d2, seq), and every retry sees the same values as
 * the last one until the writer runs again: a spin that no single address
 * betrays, which must give way under every schedule without a hang report.
 * The data are relaxed atomics, the C11 form of a seqlock (Boehm, "Can
 * seqlocks get along with programming language memory models?", 2012).
 * expect: clean. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#define UPDATES 3
#define READS 3

static atomic_uint seq;
static atomic_int d1, d2; /* invariant between writes: d2 == 2 * d1 */

static void *writer(void *arg)
{
	(void)arg;
	for (int i = 1; i <= UPDATES; i++) {
		unsigned s = atomic_load_explicit(&seq, memory_order_relaxed);
		atomic_store_explicit(&seq, s + 1, memory_order_relaxed);
		/* The odd seq must be visible before any of the new data. */
		atomic_thread_fence(memory_order_release);
		atomic_store_explicit(&d1, i, memory_order_relaxed);
		atomic_store_explicit(&d2, 2 * i, memory_order_relaxed);
		atomic_store_explicit(&seq, s + 2, memory_order_release);
	}
	return NULL;
}

static void *reader(void *arg)
{
	(void)arg;
	int last = 0;
	for (int r = 0; r < READS; r++) {
		unsigned s1, s2;
		int a, b;
		do {
			s1 = atomic_load_explicit(&seq, memory_order_acquire);
			a = atomic_load_explicit(&d1, memory_order_relaxed);
			b = atomic_load_explicit(&d2, memory_order_relaxed);
			/* The data reads must complete before seq is read again. */
			atomic_thread_fence(memory_order_acquire);
			s2 = atomic_load_explicit(&seq, memory_order_relaxed);
		} while ((s1 & 1) || s1 != s2);
		assert(b == 2 * a);
		assert(a >= last && a <= UPDATES); /* the writer only moves forward */
		last = a;
	}
	return NULL;
}

int main(void)
{
	atomic_store(&seq, 0);
	atomic_store(&d1, 0);
	atomic_store(&d2, 0);
	pthread_t w, r1, r2;
	pthread_create(&r1, NULL, reader, NULL);
	pthread_create(&w, NULL, writer, NULL);
	pthread_create(&r2, NULL, reader, NULL);
	pthread_join(r1, NULL);
	pthread_join(w, NULL);
	pthread_join(r2, NULL);
	assert(atomic_load(&seq) == 2 * UPDATES);
	return 0;
}
