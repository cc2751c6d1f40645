/* session_harness: a harness whose bug needs both a specific input and a
 * specific interleaving. The input is a list of user ids, dealt
 * alternately to two threads that log them in. A login looks the user up
 * under the table's lock, allocates a session outside it (slow work), and
 * inserts it under the lock again without looking again: the same user
 * logged in by both threads at once gets two sessions.
 * expect: assert. FIXED: the insert looks the user up again. */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#define MAX_LOGINS 12
#define USERS 256

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static int sessions_of[USERS];
static const uint8_t *logins;
static size_t nlogins;

static void login(uint8_t user)
{
	pthread_mutex_lock(&table_lock);
	int known = sessions_of[user] > 0;
	pthread_mutex_unlock(&table_lock);
	if (known)
		return;
	/* ... the session is built here, without the lock ... */
	pthread_mutex_lock(&table_lock);
#ifdef FIXED
	if (sessions_of[user] == 0)
#endif
		sessions_of[user]++;
	assert(sessions_of[user] == 1);
	pthread_mutex_unlock(&table_lock);
}

static void *front_end(void *arg)
{
	for (size_t i = (size_t)(intptr_t)arg; i < nlogins; i += 2)
		login(logins[i]);
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	logins = data;
	nlogins = size < MAX_LOGINS ? size : MAX_LOGINS;
	for (int i = 0; i < USERS; i++)
		sessions_of[i] = 0;
	pthread_t a, b;
	pthread_create(&a, NULL, front_end, (void *)0);
	pthread_create(&b, NULL, front_end, (void *)1);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
