/* refcount_harness: a libFuzzer-style harness around a reference-counted
 * object shared by two threads. Each thread takes references and drops
 * them as the input says; dropping decrements the count with a plain read
 * and write, so two drops can both see 2, both write 1, and a later drop
 * releases the object while the other thread still holds it: the next
 * use finds it released.
 * expect: assert. FIXED: the count is changed with atomic operations. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct object {
#ifdef FIXED
	atomic_int refs;
#else
	int refs;
#endif
	bool released;
	long uses;
};

static struct object obj;

/* Out of line, as in a real library: the compiler may not fuse a get, the
 * uses and a put into one read and one write of the count. */
__attribute__((noinline)) static void get(struct object *o)
{
#ifdef FIXED
	atomic_fetch_add(&o->refs, 1);
#else
	o->refs = o->refs + 1;
#endif
}

__attribute__((noinline)) static void put(struct object *o)
{
#ifdef FIXED
	int left = atomic_fetch_sub(&o->refs, 1) - 1;
#else
	int left = o->refs - 1;
	o->refs = left;
#endif
	if (left == 0)
		o->released = true;
}

__attribute__((noinline)) static void use(struct object *o)
{
	assert(!o->released && "use of a released object");
	o->uses++;
}

static const uint8_t *script;
static size_t nscript;

/* Each byte of its half of the input: hold a reference for (byte % 3) + 1 uses. */
static void *user(void *arg)
{
	for (size_t i = (size_t)(intptr_t)arg; i < nscript; i += 2) {
		get(&obj);
		for (int k = 0; k <= script[i] % 3; k++)
			use(&obj);
		put(&obj);
	}
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	script = data;
	nscript = size < 6 ? size : 6;
	obj.refs = 1; /* the creator's reference, dropped after the join */
	obj.released = false;
	obj.uses = 0;
	pthread_t a, b;
	pthread_create(&a, NULL, user, (void *)0);
	pthread_create(&b, NULL, user, (void *)1);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	use(&obj);
	put(&obj);
	return 0;
}
