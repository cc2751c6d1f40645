/* sync_test: each modelled primitive against its POSIX contract, error
 * codes included, under many schedules. Every check is an assert, so any
 * schedule that breaks a contract is a reported failure. */
#define _GNU_SOURCE
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdlib.h>
#include <threads.h>
#include <time.h>
#include <unistd.h>

static struct timespec soon(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 1;
	return ts;
}

/* ---- mutexes ---- */
static pthread_mutex_t normal = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t errcheck, recursive;

static void *hold_then_check(void *arg)
{
	(void)arg;
	assert(pthread_mutex_unlock(&errcheck) == EPERM); /* not the owner */
	assert(pthread_mutex_unlock(&recursive) == EPERM);
	int r = pthread_mutex_trylock(&recursive);
	assert(r == 0 || r == EBUSY);
	if (r == 0)
		pthread_mutex_unlock(&recursive);
	struct timespec ts = soon();
	r = pthread_mutex_timedlock(&normal, &ts);
	assert(r == 0 || r == ETIMEDOUT);
	if (r == 0)
		pthread_mutex_unlock(&normal);
	return NULL;
}

static void mutexes(void)
{
	pthread_mutexattr_t a;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
	pthread_mutex_init(&errcheck, &a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&recursive, &a);
	pthread_mutexattr_destroy(&a);

	assert(pthread_mutex_lock(&errcheck) == 0);
	assert(pthread_mutex_lock(&errcheck) == EDEADLK);
	assert(pthread_mutex_trylock(&errcheck) == EBUSY);
	assert(pthread_mutex_lock(&recursive) == 0);
	assert(pthread_mutex_lock(&recursive) == 0);
	assert(pthread_mutex_trylock(&normal) == 0);
	assert(pthread_mutex_trylock(&normal) == EBUSY);
	struct timespec bad = { 0, -1 };
	assert(pthread_mutex_timedlock(&normal, &bad) == EINVAL);
	assert(pthread_mutex_destroy(&normal) == EBUSY);
	pthread_t t;
	pthread_create(&t, NULL, hold_then_check, NULL);
	pthread_mutex_unlock(&normal);
	pthread_join(t, NULL);
	assert(pthread_mutex_unlock(&recursive) == 0);
	assert(pthread_mutex_unlock(&recursive) == 0);
	assert(pthread_mutex_unlock(&recursive) == EPERM);
	assert(pthread_mutex_unlock(&errcheck) == 0);
	assert(pthread_mutex_unlock(&errcheck) == EPERM);
	assert(pthread_mutex_destroy(&errcheck) == 0);
	assert(pthread_mutex_destroy(&recursive) == 0);
}

/* ---- condition variables ---- */
static pthread_mutex_t cm = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int go, woken;

static void *waiter(void *arg)
{
	int timed = (int)(intptr_t)arg;
	pthread_mutex_lock(&cm);
	while (!go) {
		if (timed) {
			struct timespec ts = soon();
			int r = pthread_cond_timedwait(&cv, &cm, &ts);
			assert(r == 0 || r == ETIMEDOUT);
		} else {
			assert(pthread_cond_wait(&cv, &cm) == 0);
		}
		/* Whatever woke us, we hold the mutex again. */
		assert(pthread_mutex_trylock(&cm) == EBUSY);
	}
	woken++;
	pthread_mutex_unlock(&cm);
	return NULL;
}

static void conditions(void)
{
	pthread_mutexattr_t a;
	pthread_mutex_t ec;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
	pthread_mutex_init(&ec, &a);
	assert(pthread_cond_wait(&cv, &ec) == EPERM); /* mutex not held */
	pthread_mutex_destroy(&ec);
	pthread_mutexattr_destroy(&a);

	pthread_t t[3];
	for (intptr_t i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, waiter, (void *)(intptr_t)(i == 2));
	pthread_mutex_lock(&cm);
	pthread_cond_signal(&cv); /* may find no waiter yet: harmless */
	go = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&cm);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	assert(woken == 3);
}

/* ---- rwlocks ---- */
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static int readers_in, max_readers, writer_in;

static void *reader(void *arg)
{
	(void)arg;
	assert(pthread_rwlock_rdlock(&rw) == 0);
	assert(!writer_in);
	/* Readers share the lock, so their own counting must be atomic, the
	 * maximum too (a plain write here raced between two readers). */
	int now = __atomic_add_fetch(&readers_in, 1, __ATOMIC_SEQ_CST);
	int seen = __atomic_load_n(&max_readers, __ATOMIC_SEQ_CST);
	while (now > seen &&
	       !__atomic_compare_exchange_n(&max_readers, &seen, now, 0, __ATOMIC_SEQ_CST,
					    __ATOMIC_SEQ_CST))
		;
	assert(pthread_rwlock_trywrlock(&rw) == EBUSY);
	__atomic_sub_fetch(&readers_in, 1, __ATOMIC_SEQ_CST);
	assert(pthread_rwlock_unlock(&rw) == 0);
	return NULL;
}

static void *writer(void *arg)
{
	(void)arg;
	assert(pthread_rwlock_wrlock(&rw) == 0);
	writer_in = 1;
	assert(readers_in == 0);
	assert(pthread_rwlock_wrlock(&rw) == EDEADLK);
	assert(pthread_rwlock_rdlock(&rw) == EDEADLK);
	writer_in = 0;
	assert(pthread_rwlock_unlock(&rw) == 0);
	return NULL;
}

static void rwlocks(void)
{
	pthread_t t[3];
	pthread_create(&t[0], NULL, reader, NULL);
	pthread_create(&t[1], NULL, reader, NULL);
	pthread_create(&t[2], NULL, writer, NULL);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	assert(pthread_rwlock_tryrdlock(&rw) == 0);
	assert(pthread_rwlock_tryrdlock(&rw) == 0); /* readers may nest */
	struct timespec ts = soon();
	int r = pthread_rwlock_timedwrlock(&rw, &ts);
	assert(r == EDEADLK || r == ETIMEDOUT); /* we hold it for reading */
	pthread_rwlock_unlock(&rw);
	pthread_rwlock_unlock(&rw);
	assert(pthread_rwlock_destroy(&rw) == 0);
}

/* ---- semaphores ---- */
static sem_t items;
static int taken;

static void *consumer(void *arg)
{
	(void)arg;
	assert(sem_wait(&items) == 0);
	__atomic_fetch_add(&taken, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static void semaphores(void)
{
	assert(sem_init(&items, 0, 0) == 0);
	assert(sem_trywait(&items) == -1 && errno == EAGAIN);
	struct timespec ts = soon();
	assert(sem_timedwait(&items, &ts) == -1 && errno == ETIMEDOUT); /* nobody posts */
	pthread_t t[2];
	pthread_create(&t[0], NULL, consumer, NULL);
	pthread_create(&t[1], NULL, consumer, NULL);
	sem_post(&items);
	sem_post(&items);
	sem_post(&items);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	int v = -1;
	sem_getvalue(&items, &v);
	assert(taken == 2 && v == 1);
	assert(sem_destroy(&items) == 0);
}

/* ---- barriers, spinlocks, once ---- */
static pthread_barrier_t bar;
static pthread_spinlock_t spin;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int serials, once_runs, in_round[2];

static void init_once(void)
{
	once_runs++;
}

static void *party(void *arg)
{
	(void)arg;
	pthread_once(&once, init_once);
	assert(once_runs == 1);
	for (int round = 0; round < 2; round++) {
		__atomic_fetch_add(&in_round[round], 1, __ATOMIC_SEQ_CST);
		int r = pthread_barrier_wait(&bar);
		assert(r == 0 || r == PTHREAD_BARRIER_SERIAL_THREAD);
		assert(in_round[round] == 3); /* nobody leaves a round early */
		if (r == PTHREAD_BARRIER_SERIAL_THREAD) {
			pthread_spin_lock(&spin);
			serials++;
			pthread_spin_unlock(&spin);
		}
	}
	return NULL;
}

static void barriers_spin_once(void)
{
	assert(pthread_barrier_init(&bar, NULL, 0) == EINVAL);
	assert(pthread_barrier_init(&bar, NULL, 3) == 0);
	pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
	assert(pthread_spin_trylock(&spin) == 0);
	assert(pthread_spin_trylock(&spin) == EBUSY);
	pthread_spin_unlock(&spin);
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, party, NULL);
	party(NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	assert(serials == 2); /* exactly one serial thread per round */
	assert(pthread_barrier_destroy(&bar) == 0);
	pthread_spin_destroy(&spin);
}

/* ---- threads: join rules, keys, nesting, many threads ---- */
static pthread_key_t key;
static int destroyed;

static void key_dtor(void *v)
{
	__atomic_fetch_add(&destroyed, (int)(intptr_t)v, __ATOMIC_SEQ_CST);
}

static void *leaf(void *arg)
{
	pthread_setspecific(key, (void *)1);
	return arg;
}

static void *parent(void *arg)
{
	(void)arg;
	pthread_t kids[3];
	for (int i = 0; i < 3; i++)
		pthread_create(&kids[i], NULL, leaf, (void *)(intptr_t)i);
	for (int i = 0; i < 3; i++) {
		void *r;
		pthread_join(kids[i], &r);
		assert((intptr_t)r == i);
	}
	pthread_exit((void *)42);
}

static void threads(void)
{
	assert(pthread_join(pthread_self(), NULL) == EDEADLK);
	pthread_key_create(&key, key_dtor);
	pthread_t p;
	pthread_create(&p, NULL, parent, NULL);
	void *r;
	int tr = pthread_tryjoin_np(p, &r);
	assert(tr == 0 || tr == EBUSY);
	if (tr == EBUSY)
		assert(pthread_join(p, &r) == 0);
	assert((intptr_t)r == 42);
	assert(destroyed == 3); /* every leaf's key destructor ran */

	pthread_t d;
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_create(&d, &attr, leaf, NULL);
	pthread_attr_destroy(&attr);
	assert(pthread_join(d, NULL) == EINVAL);

	enum { MANY = 64 };
	pthread_t many[MANY];
	for (int i = 0; i < MANY; i++)
		assert(pthread_create(&many[i], NULL, leaf, NULL) == 0);
	for (int i = 0; i < MANY; i++)
		pthread_join(many[i], NULL);
	pthread_key_delete(key);
}

/* ---- C11 threads and virtual time ---- */
static mtx_t cmtx;
static cnd_t ccnd;
static int c11_flag;

static int c11_worker(void *arg)
{
	mtx_lock(&cmtx);
	c11_flag = 1;
	cnd_signal(&ccnd);
	mtx_unlock(&cmtx);
	thrd_yield();
	return (int)(intptr_t)arg;
}

static void c11_and_time(void)
{
	assert(mtx_init(&cmtx, mtx_plain) == thrd_success);
	assert(cnd_init(&ccnd) == thrd_success);
	thrd_t t;
	assert(thrd_create(&t, c11_worker, (void *)7) == thrd_success);
	mtx_lock(&cmtx);
	while (!c11_flag)
		cnd_wait(&ccnd, &cmtx);
	mtx_unlock(&cmtx);
	int res = 0;
	assert(thrd_join(t, &res) == thrd_success && res == 7);
	mtx_destroy(&cmtx);
	cnd_destroy(&ccnd);

	struct timespec t0, t1, ten = { 10, 0 };
	clock_gettime(CLOCK_MONOTONIC, &t0);
	sleep(10);
	usleep(10 * 1000 * 1000);
	nanosleep(&ten, NULL);
	thrd_sleep(&ten, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert(t1.tv_sec - t0.tv_sec < 5); /* virtual time: nothing slept */
}

int main(void)
{
	mutexes();
	conditions();
	rwlocks();
	semaphores();
	barriers_spin_once();
	threads();
	c11_and_time();
	return 0;
}
