// pool_harness.cpp: every thread a libFuzzer harness creates starts as a
// new thread does, though the runtime runs it on a kernel thread that ran
// threads of earlier inputs (runtime/rt_pool.c). Each thread checks what a
// new thread has (its __thread and thread_local variables at their initial
// values, its keys NULL, errno 0, cancellation enabled, its creator's
// signal mask, no exception in flight), then changes all of it; at each input's end the harness
// checks that pthread_self() was the handle pthread_create gave, and the
// next input that every thread's thread_local and key destructors ran. One thread leaves by
// pthread_exit, one is detached, one has its own stack size. At exit it
// prints how many kernel threads ran how many threads.
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cassert>
#include <cstdint>
#include <exception>
#include <set>

static __thread int plain_tls = 7;
static __thread char zero_tls[64];
static pthread_key_t key_plain, key_dtor;
static std::atomic<int> thread_local_dtors, key_dtors, detached_done;
static pthread_mutex_t seen_lock = PTHREAD_MUTEX_INITIALIZER;
static std::set<long> kernel_ids;
static long threads_run;
static int inputs; // ended so far

struct Counted {
	int value = 5;
	~Counted() { thread_local_dtors++; }
};
static thread_local Counted counted;

static void on_key(void *v)
{
	assert(v == &key_dtor);
	key_dtors++;
}

static void *body(void *arg)
{
	assert(plain_tls == 7);
	for (char c : zero_tls)
		assert(c == 0);
	assert(counted.value == 5);
	assert(pthread_getspecific(key_plain) == NULL);
	assert(pthread_getspecific(key_dtor) == NULL);
	assert(errno == 0);
	assert(std::uncaught_exceptions() == 0);
	try { // libstdc++'s per-thread exception state, used and left clean
		throw 1;
	} catch (int) {
	}
	int old;
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
	assert(old == PTHREAD_CANCEL_ENABLE);
	sigset_t mask;
	pthread_sigmask(SIG_BLOCK, NULL, &mask);
	assert(sigismember(&mask, SIGUSR1) && !sigismember(&mask, SIGUSR2));

	plain_tls = 8;
	zero_tls[13] = 1;
	counted.value = 6;
	pthread_setspecific(key_plain, &key_plain);
	pthread_setspecific(key_dtor, &key_dtor);
	errno = 42;
	sigaddset(&mask, SIGUSR2);
	pthread_sigmask(SIG_SETMASK, &mask, NULL);
	pthread_mutex_lock(&seen_lock);
	kernel_ids.insert(syscall(SYS_gettid));
	threads_run++;
	pthread_mutex_unlock(&seen_lock);
	if (arg == (void *)1)
		pthread_exit((void *)pthread_self());
	if (arg == (void *)2)
		detached_done++;
	return (void *)pthread_self();
}

static void report(void)
{
	printf("pool: %zu kernel threads ran %ld threads\n", kernel_ids.size(), threads_run);
}

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
	pthread_key_create(&key_plain, NULL);
	pthread_key_create(&key_dtor, on_key);
	atexit(report);
	return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	sigset_t mask;
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	pthread_sigmask(SIG_SETMASK, &mask, NULL);
	// The destructors of every thread of the earlier inputs ran (the
	// detached one's by its end, which the runtime waits for between inputs).
	assert(thread_local_dtors == 5 * inputs && key_dtors == 5 * inputs);
	assert(detached_done == inputs);

	pthread_t t[3], detached, sized;
	for (long i = 0; i < 3; i++) // the second leaves by pthread_exit
		pthread_create(&t[i], NULL, body, (void *)(intptr_t)(i == 1));
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_create(&detached, &attr, body, (void *)2);
	pthread_attr_destroy(&attr);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 1 << 20);
	pthread_create(&sized, &attr, body, (void *)3);
	pthread_attr_destroy(&attr);
	for (int i = 0; i < 3; i++) {
		void *self;
		pthread_join(t[i], &self);
		assert(pthread_equal((pthread_t)self, t[i]));
	}
	void *self;
	pthread_join(sized, &self);
	assert(pthread_equal((pthread_t)self, sized));
	inputs++;
	(void)data;
	(void)size;
	return 0;
}
