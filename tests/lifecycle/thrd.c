/* thrd: C11 threads: thrd_create, mtx_t, cnd_t, thrd_join with a result,
 * thrd_detach and thrd_sleep. */
#include <assert.h>
#include <threads.h>

static mtx_t m;
static cnd_t c;
static int ready, detached_ran;

static int waiter(void *arg)
{
	mtx_lock(&m);
	while (!ready)
		cnd_wait(&c, &m);
	mtx_unlock(&m);
	return (int)(long)arg;
}

static int loner(void *arg)
{
	(void)arg;
	struct timespec ms = { 0, 1000000 };
	thrd_sleep(&ms, NULL);
	mtx_lock(&m);
	detached_ran = 1;
	mtx_unlock(&m);
	return 0;
}

int main(void)
{
	ready = detached_ran = 0;
	mtx_init(&m, mtx_plain);
	cnd_init(&c);
	thrd_t w, l;
	assert(thrd_create(&w, waiter, (void *)7L) == thrd_success);
	assert(thrd_create(&l, loner, NULL) == thrd_success);
	assert(thrd_detach(l) == thrd_success);
	mtx_lock(&m);
	ready = 1;
	cnd_signal(&c);
	mtx_unlock(&m);
	int r = 0;
	assert(thrd_join(w, &r) == thrd_success);
	assert(r == 7);
	for (;;) { /* the detached one ends on its own */
		mtx_lock(&m);
		int done = detached_ran;
		mtx_unlock(&m);
		if (done)
			break;
		thrd_yield();
	}
	return 0;
}
