/* ub_unlock: unlocks and destroys of locks that POSIX leaves undefined
 * and glibc 2.36 survives: each returns what glibc returns (natively too:
 * this program passes built with plain cc) and the execution goes on;
 * error-checking and recursive mutexes still refuse with EPERM. */
#define _GNU_SOURCE
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>

static pthread_mutex_t plain = PTHREAD_MUTEX_INITIALIZER, spare = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static sem_t held, released;
static int data;

/* Takes the mutex and the read lock, and leaves both to main. */
static void *owner(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&plain);
	pthread_rwlock_rdlock(&rw);
	data = 1;
	sem_post(&held);
	sem_wait(&released);
	return NULL;
}

int main(void)
{
	data = 0;
	sem_init(&held, 0, 0);
	sem_init(&released, 0, 0);
	/* Unlocked: glibc clears a lock word that is clear already, and
	 * counts one user less, so that destroy refuses until the next lock. */
	assert(pthread_mutex_unlock(&spare) == 0);
	assert(pthread_mutex_destroy(&spare) == EBUSY);
	pthread_mutex_lock(&spare);
	assert(pthread_mutex_destroy(&spare) == 0);

	pthread_t t;
	pthread_create(&t, NULL, owner, NULL);
	sem_wait(&held);
	assert(pthread_mutex_destroy(&plain) == EBUSY); /* locked: glibc refuses */
	/* Held by the owner: glibc unlocks it for anybody. */
	assert(pthread_mutex_unlock(&plain) == 0);
	assert(pthread_mutex_trylock(&plain) == 0);
	assert(data == 1);
	pthread_mutex_unlock(&plain);
	/* Read-held by the owner: main's unlock counts one reader less, so a
	 * writer gets the lock. */
	assert(pthread_rwlock_unlock(&rw) == 0);
	assert(pthread_rwlock_trywrlock(&rw) == 0);
	pthread_rwlock_unlock(&rw);
	sem_post(&released);
	pthread_join(t, NULL);

	pthread_mutexattr_t a;
	pthread_mutex_t ec, rec;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
	pthread_mutex_init(&ec, &a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&rec, &a);
	pthread_mutexattr_destroy(&a);
	assert(pthread_mutex_unlock(&ec) == EPERM);
	assert(pthread_mutex_unlock(&rec) == EPERM);
	pthread_mutex_destroy(&ec);
	pthread_mutex_destroy(&rec);
	return 0;
}
