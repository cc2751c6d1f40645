/* asm_xchg_lock: a correct x86-64 spin lock written entirely in inline
 * assembly (xchg to acquire, pause while the word stays taken, a plain mov
 * to release, which x86's total store order makes a release store), as
 * hand-rolled locks in older C code are. The compiler instruments none of
 * it, so a thread spinning here reaches no scheduling point at all: only a
 * preemption the runtime forces from outside can let the holder go on.
 * Each schedule must still finish in milliseconds, never in a timeout.
 * With -DBUILTINS the same lock is built from compiler builtins, the
 * recipe for a library with an atomics back end: then every step of the
 * spin is a scheduling point and no preemption from outside is needed.
 * expect: clean. */
#include <assert.h>
#include <pthread.h>

#if !defined(__x86_64__)
#error "asm_xchg_lock is x86-64 only"
#endif

#define THREADS 2
#define ROUNDS 3

static int lock_word; /* 0 free, 1 taken; touched only by the asm below */
static int counter;   /* guarded by lock_word, updated in plain (instrumented) C */

#ifdef BUILTINS
static void spin_lock(int *word)
{
	while (__atomic_exchange_n(word, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(word, __ATOMIC_RELAXED))
			__builtin_ia32_pause();
}

static void spin_unlock(int *word)
{
	__atomic_store_n(word, 0, __ATOMIC_RELEASE);
}
#else
static void spin_lock(int *word)
{
	__asm__ volatile("1:\n\t"
			 "movl $1, %%eax\n\t"
			 "xchgl %%eax, %0\n\t" /* implicitly locked */
			 "testl %%eax, %%eax\n\t"
			 "jz 3f\n"
			 "2:\n\t"
			 "pause\n\t"
			 "cmpl $0, %0\n\t" /* wait for a free word before the next xchg */
			 "jne 2b\n\t"
			 "jmp 1b\n"
			 "3:"
			 : "+m"(*word)
			 :
			 : "eax", "cc", "memory");
}

static void spin_unlock(int *word)
{
	__asm__ volatile("movl $0, %0" : "=m"(*word) : : "memory");
}
#endif

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		spin_lock(&lock_word);
		int seen = counter; /* scheduling points inside the critical section */
		counter = seen + 1;
		spin_unlock(&lock_word);
	}
	return NULL;
}

int main(void)
{
	/* Reset through the asm as well: no instrumented access to the word. */
	spin_unlock(&lock_word);
	counter = 0;
	pthread_t t[THREADS];
	for (int i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	assert(counter == THREADS * ROUNDS);
	return 0;
}
