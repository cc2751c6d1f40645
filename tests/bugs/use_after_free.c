/* use_after_free: a reader looks a session up and uses it without holding
 * a reference, while the expiry thread unlinks and frees it. Freed
 * sessions are poisoned first (as a debug allocator would), so a use after
 * the free shows as a dead magic number.
 * expect: assert. FIXED: the reader uses the session inside the table's
 * lock, which expiry also takes. */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

#define LIVE 0x5e55107u
#define DEAD 0xdeadbeefu

struct session {
	/* A freed block's first 16 bytes hold malloc's free-list links: the
	 * fields a late user touches lie past them, so the poison is what it
	 * sees and its stray write cannot corrupt the allocator. */
	char id[16];
	volatile unsigned magic;
	int hits;
};

static struct session *volatile table;
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

static void session_use(struct session *s)
{
	assert(s->magic == LIVE);
	s->hits++;
}

static void *reader(void *arg)
{
	(void)arg;
#ifdef FIXED
	pthread_mutex_lock(&table_lock);
#endif
	struct session *s = table;
	if (s)
		session_use(s);
#ifdef FIXED
	pthread_mutex_unlock(&table_lock);
#endif
	return NULL;
}

static void *expiry(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&table_lock);
	struct session *s = table;
	table = NULL;
	pthread_mutex_unlock(&table_lock);
	if (s) {
		s->magic = DEAD;
		free(s);
	}
	return NULL;
}

int main(void)
{
	struct session *s = malloc(sizeof *s);
	s->magic = LIVE;
	s->hits = 0;
	table = s;
	pthread_t a, b;
	pthread_create(&a, NULL, reader, NULL);
	pthread_create(&b, NULL, expiry, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
