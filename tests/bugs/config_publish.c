/* config_publish: a loader thread builds a configuration in memory it
 * alone has touched (a block it just allocated, a zeroed slot) and
 * publishes the pointer before it has filled the block in, with no
 * ordering between the two. A reader that looks the slot up in between
 * sees a configuration with no entries. Every access that matters is the
 * loader's first touch of memory no other thread has touched yet.
 * expect: assert. FIXED: the loader fills the block in first and publishes
 * it with a release store, which the reader loads with acquire. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#define ENTRIES 4

struct config {
	int count;
	int values[ENTRIES];
};

struct registry {
	struct config *_Atomic current; /* accessed as a plain pointer when buggy */
	int lookups;
};

static struct registry *reg;

static void *loader(void *arg)
{
	(void)arg;
	struct config *c = malloc(sizeof *c);
#ifdef FIXED
	for (int i = 0; i < ENTRIES; i++)
		c->values[i] = i + 1;
	c->count = ENTRIES;
	atomic_store_explicit(&reg->current, c, memory_order_release);
#else
	*(struct config **)&reg->current = c; /* published first, no ordering */
	c->count = 0;
	for (int i = 0; i < ENTRIES; i++)
		c->values[i] = i + 1;
	c->count = ENTRIES;
#endif
	return NULL;
}

static void *reader(void *arg)
{
	(void)arg;
	/* A request handler: it uses the configuration if one is loaded. */
#ifdef FIXED
	struct config *c = atomic_load_explicit(&reg->current, memory_order_acquire);
#else
	struct config *c = *(struct config **)&reg->current;
#endif
	reg->lookups++;
	if (c)
		assert(c->count == ENTRIES && c->values[ENTRIES - 1] == ENTRIES);
	return NULL;
}

int main(void)
{
	reg = calloc(1, sizeof *reg); /* zeroed, touched by no thread */
	pthread_t l, r;
	pthread_create(&r, NULL, reader, NULL);
	pthread_create(&l, NULL, loader, NULL);
	pthread_join(r, NULL);
	pthread_join(l, NULL);
	free(*(struct config **)&reg->current);
	free(reg);
	return 0;
}
