/* publish_then_init: a thread allocates an object, publishes it through a
 * plain shared pointer, and only then sets its fields; a reader that sees
 * the pointer may find the fields unset. The object's memory is touched by
 * its creator alone until the reader comes, so only the ownership model's
 * point after a publication (docs/cost.md) lets the reader in between.
 * expect: assert. FIXED: the fields are set before the pointer, which is
 * stored with release and loaded with acquire (a plain pointer would still
 * be a data race). */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

struct msg {
	long id;
	long len;
	char body[48];
};

static struct msg *published;

static void *writer(void *arg)
{
	(void)arg;
	struct msg *m = malloc(sizeof *m);
#ifdef FIXED
	m->id = 7;
	m->len = 5;
	__atomic_store_n(&published, m, __ATOMIC_RELEASE);
#else
	published = m;
	m->id = 7;
	m->len = 5;
#endif
	return NULL;
}

static void *reader(void *arg)
{
	(void)arg;
#ifdef FIXED
	struct msg *m = __atomic_load_n(&published, __ATOMIC_ACQUIRE);
#else
	struct msg *m = published;
#endif
	if (m)
		assert(m->id == 7 && m->len == 5);
	return NULL;
}

int main(void)
{
	published = NULL;
	pthread_t w, r;
	pthread_create(&w, NULL, writer, NULL);
	pthread_create(&r, NULL, reader, NULL);
	pthread_join(w, NULL);
	pthread_join(r, NULL);
	free(published);
	return 0;
}
