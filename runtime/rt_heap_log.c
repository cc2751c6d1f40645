/* rt_heap_log.c - the allocations and frees of controlled threads in this
 * execution, in the default build mode, so that a report can say what
 * the freeing thread did: a free shows in the interleaving where it
 * happened, and an access to the freed block says "of a block freed after
 * step 14 by T2 at cache.c:53". (In the ASan mode ASan says it.)
 *
 * Neither is an event of the schedule: a free is no scheduling point, so
 * logging changes no decision. The log is a ring of the newest entries,
 * each stamped with the step it followed, and is read only by reports. */
#define _GNU_SOURCE
#include <malloc.h>
#include <sys/mman.h>

#include "rt_internal.h"

#define LOG_SIZE 8192u /* a power of two: the newest entries are enough for a report */

struct heap_op {
	uintptr_t lo, hi;  /* the block, [lo, hi) */
	uint64_t step;     /* the last event before it */
	const void *site;  /* the call */
	int32_t tid;
	bool freed;        /* a free; else an allocation */
};

static struct {
	struct heap_op *ops;
	uint64_t n; /* logged this execution */
} hlog;

void rt_heap_log_reset(void)
{
	hlog.n = 0;
}

static void add(const void *p, size_t size, bool freed, const void *site)
{
	if (!hlog.ops) {
		void *m = mmap(NULL, LOG_SIZE * sizeof *hlog.ops, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			return;
		hlog.ops = m;
	}
	struct heap_op *o = &hlog.ops[hlog.n++ & (LOG_SIZE - 1)];
	o->lo = (uintptr_t)p;
	o->hi = o->lo + size;
	o->step = rt.step;
	o->site = site;
	o->tid = rt_self ? rt_self->tid : -1;
	o->freed = freed;
}

void rt_heap_log_alloc(const void *p)
{
	if (p)
		add(p, malloc_usable_size((void *)p), false, NULL);
}

void rt_heap_log_free(const void *p, size_t size, const void *site)
{
	/* The program's own frees: one inside a library (dlerror's buffers
	 * when the runtime looks up a symbol, stdio's) happens where the
	 * library chooses, not always in the same process, and would make
	 * two runs of one schedule print differently. */
	if (p && rt_in_executable(site) && !rt_in_runtime_code(site)) {
		add(p, size, true, site);
		rt_obj_freed((uintptr_t)p, (uintptr_t)p + size); /* a mutex in it is gone too */
	}
}

bool rt_heap_log_freed(uintptr_t addr, uint64_t step, struct rt_freed *out)
{
	uint64_t oldest = hlog.n > LOG_SIZE ? hlog.n - LOG_SIZE : 0;
	for (uint64_t i = hlog.n; hlog.ops && i-- > oldest;) {
		const struct heap_op *o = &hlog.ops[i & (LOG_SIZE - 1)];
		if (o->step >= step || addr < o->lo || addr >= o->hi)
			continue;
		if (!o->freed)
			return false; /* allocated again since */
		*out = (struct rt_freed){ o->lo, o->hi - o->lo, o->step, o->site, o->tid };
		return true;
	}
	return false;
}

int rt_heap_log_frees_after(uint64_t step, struct rt_freed *out, int max)
{
	int n = 0;
	uint64_t oldest = hlog.n > LOG_SIZE ? hlog.n - LOG_SIZE : 0;
	for (uint64_t i = oldest; hlog.ops && i < hlog.n && n < max; i++) {
		const struct heap_op *o = &hlog.ops[i & (LOG_SIZE - 1)];
		if (o->freed && o->step == step)
			out[n++] = (struct rt_freed){ o->lo, o->hi - o->lo, o->step, o->site, o->tid };
	}
	return n;
}
