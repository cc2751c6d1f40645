/* double_checked_locking: a lazily created configuration is published
 * through a pointer that readers test without the lock. The creator
 * stores the pointer before it fills the object in (what a compiler or a
 * weak CPU may do to the textbook version), so a reader that sees the
 * pointer can see an object whose fields are not set yet.
 * expect: assert. FIXED: the object is filled in first, then published
 * with a release store that readers load with acquire. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct config {
	volatile int port;
};

static struct config *_Atomic instance;
static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;

static struct config *config_get(void)
{
	struct config *c = atomic_load_explicit(&instance, memory_order_acquire);
	if (c)
		return c;
	pthread_mutex_lock(&init_lock);
	c = atomic_load_explicit(&instance, memory_order_relaxed);
	if (!c) {
		c = malloc(sizeof *c);
#ifdef FIXED
		c->port = 8080;
		atomic_store_explicit(&instance, c, memory_order_release);
#else
		c->port = 0;
		atomic_store_explicit(&instance, c, memory_order_relaxed);
		c->port = 8080;
#endif
	}
	pthread_mutex_unlock(&init_lock);
	return c;
}

static void *client(void *arg)
{
	(void)arg;
	assert(config_get()->port == 8080);
	return NULL;
}

int main(void)
{
	atomic_store(&instance, NULL);
	pthread_t a, b;
	pthread_create(&a, NULL, client, NULL);
	pthread_create(&b, NULL, client, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	free(atomic_load(&instance));
	return 0;
}
