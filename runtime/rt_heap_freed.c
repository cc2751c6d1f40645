/* rt_heap_freed.c - the blocks freed in this execution, so that a double
 * free is caught in the thread and at the moment of the second free.
 *
 * glibc checks a free against the freeing thread's own cache (tcache)
 * only. When two threads race to free one small block, each puts it in its
 * own cache, and glibc notices ("double free or corruption (fasttop)")
 * only when a thread exits and its cache is flushed: after the thread has
 * left the schedule, so the abort was nobody's failure and the report was
 * lost; or glibc never notices and hands the block out twice. So, in the
 * default build mode (rt_heap_alloc.c), the blocks that controlled threads
 * free are remembered until an allocation returns them again; a free of a
 * block still remembered is a double free: we say so and abort before
 * glibc looks, and the SIGABRT becomes the failure with its interleaving.
 * Before glibc, because whether glibc notices depends on its heap's
 * history, which differs between the explorer's child and a replay in a
 * fresh process; and what glibc allocates for itself inside
 * pthread_create (a thread's DTV) is not counted as a reuse
 * (rt_thread.c). (The ASan mode needs none of this: ASan's allocator
 * checks every free.)
 *
 * Only controlled threads, one at a time, touch the table. A block that an
 * uncontrolled thread is handed in between is not seen to be reused: that
 * thread would have to pass it to the execution to be freed again. The
 * table is an open-addressing set reset in O(1) per execution by a
 * generation number, sized by what this execution freed. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rt_internal.h"
#include "rt_libc.h"

struct entry {
	uintptr_t addr;
	uint32_t gen; /* in use in this execution iff gen == freed.gen */
	int32_t tid;  /* the thread that freed it; -1: reused since (a tombstone) */
};

#define MIN_CAP 1024u
#define MAX_CAP (1u << 20) /* 16 MiB of table: past that, frees go unchecked */

static struct {
	struct entry *t;
	uint32_t cap;  /* a power of two, or 0 */
	uint32_t used; /* entries of this generation, tombstones included */
	uint32_t live;
	uint32_t gen;
} freed;

static uint32_t slot_of(uintptr_t addr, uint32_t cap)
{
	return (uint32_t)(((addr >> 4) * 0x9e3779b97f4a7c15ull) >> 32) & (cap - 1);
}

/* The entry for addr, or the empty slot where it would go. */
static struct entry *find(uintptr_t addr)
{
	for (uint32_t i = slot_of(addr, freed.cap);; i = (i + 1) & (freed.cap - 1)) {
		struct entry *e = &freed.t[i];
		if (e->gen != freed.gen || e->addr == addr)
			return e;
	}
}

/* Room for one more: a table at most half full, tombstones dropped. */
static bool make_room(void)
{
	if (freed.cap && freed.used + 1 <= freed.cap / 2)
		return true;
	uint32_t cap = MIN_CAP;
	while (cap < MAX_CAP && cap / 4 < freed.live + 1)
		cap *= 2;
	if (freed.live + 1 > cap / 2)
		return false;
	struct entry *t = mmap(NULL, (size_t)cap * sizeof *t, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (t == MAP_FAILED)
		return false;
	struct entry *old = freed.t;
	uint32_t old_cap = freed.cap, gen = freed.gen;
	freed.t = t;
	freed.cap = cap;
	freed.gen = 1;
	freed.used = freed.live = 0;
	for (uint32_t i = 0; i < old_cap; i++) {
		if (old[i].gen == gen && old[i].tid >= 0) {
			struct entry *e = find(old[i].addr);
			*e = (struct entry){ old[i].addr, 1, old[i].tid };
			freed.used++;
			freed.live++;
		}
	}
	if (old)
		munmap(old, (size_t)old_cap * sizeof *old);
	return true;
}

void rt_heap_freed_reset(void)
{
	if (++freed.gen == 0) { /* wrapped: really clear, once in 2^32 */
		if (freed.t)
			rt_memset(freed.t, 0, (size_t)freed.cap * sizeof *freed.t);
		freed.gen = 1;
	}
	freed.used = freed.live = 0;
}

void rt_heap_freed_reused(const void *p)
{
	if (!p || freed.live == 0)
		return;
	struct entry *e = find((uintptr_t)p);
	if (e->gen == freed.gen && e->tid >= 0) {
		e->tid = -1;
		freed.live--;
	}
}

int rt_heap_freed_by(const void *p)
{
	if (freed.live == 0)
		return -1;
	struct entry *e = find((uintptr_t)p);
	return e->gen == freed.gen ? e->tid : -1;
}

int rt_heap_freed_remember(const void *p, int tid)
{
	struct entry *e = freed.cap ? find((uintptr_t)p) : NULL;
	if (e && e->gen == freed.gen && e->tid >= 0)
		return e->tid;
	if (!e || (e->gen != freed.gen && freed.used + 1 > freed.cap / 2)) {
		if (!make_room())
			return -1;
		e = find((uintptr_t)p);
	}
	if (e->gen != freed.gen)
		freed.used++;
	freed.live++;
	*e = (struct entry){ (uintptr_t)p, freed.gen, tid };
	return -1;
}

void rt_heap_double_free(const char *call, int first_tid)
{
	char line[256];
	int n = snprintf(line, sizeof line,
			 "schedfuzz: %s(): double free: T%d freed this block before in this "
			 "execution\n",
			 call, first_tid);
	if (n > 0 && write(STDERR_FILENO, line, (size_t)n) < 0)
		n = 0; /* nothing better to do: the abort follows */
	abort();
}
