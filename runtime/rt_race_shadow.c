/* rt_race_shadow.c - the race detector's record of accesses: per 16-byte
 * granule (the ownership shadow's), up to RECORDS accesses, each with its
 * epoch and the bytes it touched (rt_race.h).
 *
 * A granule's records hold what a later access must be checked against:
 * an access replaces the records it covers (the same thread's, and, for a
 * write, any it is ordered after), and when all are taken the oldest goes,
 * which can only hide a race. A record is void once the ownership
 * shadow's generation moved on (every access before a settlement happens
 * before every access after it), and when its memory is freed.
 *
 * Granules are laid out as the memory they describe: a chunk of 64 KiB of
 * the program's addresses has one array of 4,096 granules, reserved when
 * first touched and filled in only where touched, so that neighbouring
 * accesses share pages of the shadow and nothing is ever moved (a hashed
 * table touched every page of itself and was rebuilt at each doubling:
 * zstd's schedules took 8 times longer). Chunks are found through a small
 * table of chunk numbers, the last one used kept aside. */
#define _GNU_SOURCE
#include <sys/mman.h>

#include "rt_own.h"
#include "rt_race.h"

#define RECORDS 4
#define CHUNK_SHIFT 16
#define PER_CHUNK ((uintptr_t)1 << (CHUNK_SHIFT - RT_OWN_SHIFT))

struct granule {
	uint16_t gen;	/* rt_own.gen when its records were made */
	uint8_t n;
	struct rt_race_access rec[RECORDS];
};

struct chunk {
	uintptr_t c; /* chunk number + 1; 0: empty slot */
	struct granule *g;
};

static struct chunk *dir;
static size_t dir_cap, dir_used;
static struct chunk *last; /* the chunk the last access was in */

static size_t home(uintptr_t c, size_t cap)
{
	return (size_t)((c * 0x9E3779B97F4A7C15ull) >> 40) & (cap - 1);
}

static void dir_grow(void)
{
	size_t ncap = dir_cap ? dir_cap * 2 : 256;
	struct chunk *nd = rt_race_map(ncap * sizeof *nd);
	for (size_t i = 0; i < dir_cap; i++) {
		if (!dir[i].c)
			continue;
		size_t j = home(dir[i].c, ncap);
		while (nd[j].c)
			j = (j + 1) & (ncap - 1);
		nd[j].c = dir[i].c;
		nd[j].g = dir[i].g;
	}
	if (dir)
		munmap(dir, dir_cap * sizeof *dir);
	dir = nd;
	dir_cap = ncap;
	last = NULL;
}

/* The chunk of granule g, made when create says so (else NULL if none). */
static struct chunk *chunk_of(uintptr_t g, bool create)
{
	uintptr_t key = (g >> (CHUNK_SHIFT - RT_OWN_SHIFT)) + 1;
	if (last && last->c == key)
		return last;
	if (!dir_cap) {
		if (!create)
			return NULL;
		dir_grow();
	}
	for (size_t i = home(key, dir_cap);; i = (i + 1) & (dir_cap - 1)) {
		struct chunk *e = &dir[i];
		if (e->c == key)
			return last = e;
		if (e->c)
			continue;
		if (!create)
			return NULL;
		if (2 * (dir_used + 1) > dir_cap) {
			dir_grow();
			return chunk_of(g, true);
		}
		dir_used++;
		e->c = key;
		e->g = rt_race_map(PER_CHUNK * sizeof *e->g);
		return last = e;
	}
}

static struct granule *lookup(uintptr_t g)
{
	struct granule *e = &chunk_of(g, true)->g[g & (PER_CHUNK - 1)];
	if (e->gen != rt_own.gen) {
		e->n = 0;
		e->gen = rt_own.gen;
	}
	return e;
}

/* A new execution forgets every record (a child of the explorer has none;
 * a fuzzer's loop runs many executions in one process). */
void rt_race_shadow_begin(void)
{
	for (size_t i = 0; i < dir_cap; i++)
		if (dir[i].c)
			munmap(dir[i].g, PER_CHUNK * sizeof *dir[i].g);
	if (dir_used)
		rt_memset(dir, 0, dir_cap * sizeof *dir);
	dir_used = 0;
	last = NULL;
}

static void drop(struct granule *e, int i)
{
	e->rec[i] = e->rec[--e->n];
}

/* The access now makes record r redundant: r's bytes are among its own,
 * and any later access that races with r races with it too. */
static bool covered(const struct rt_thread *self, const struct rt_race_access *r,
		    const struct rt_race_access *now)
{
	if (r->mask & ~now->mask)
		return false;
	if (r->slot == self->slot && r->clock == now->clock)
		return (now->flags & RT_RACE_WRITE) || !(r->flags & RT_RACE_WRITE);
	return (now->flags & RT_RACE_WRITE) && rt_race_knows(self, r->slot, r->clock);
}

/* Check one granule's records against the access, then keep it. A race
 * is reported once for the whole access. */
static bool one(struct rt_thread *self, struct granule *e, struct rt_race_access *now,
		uintptr_t addr, bool reported)
{
	for (int i = 0; i < e->n && !reported; i++) {
		const struct rt_race_access *r = &e->rec[i];
		if (!(r->mask & now->mask) || !((r->flags | now->flags) & RT_RACE_WRITE) ||
		    rt_race_knows(self, r->slot, r->clock))
			continue;
		struct rt_race_access prev = *r;
		rt_race_found(self, addr, &prev, now);
		reported = true;
	}
	for (int i = 0; i < e->n;)
		if (covered(self, &e->rec[i], now))
			drop(e, i);
		else
			i++;
	if (e->n == RECORDS) { /* the oldest goes */
		int old = 0;
		for (int i = 1; i < RECORDS; i++)
			if (e->rec[i].step < e->rec[old].step)
				old = i;
		drop(e, old);
	}
	e->rec[e->n++] = *now;
	return reported;
}

void rt_race_access_slow(struct rt_thread *self, uintptr_t addr, uint32_t size, bool write,
			 const void *site)
{
	if (!size || rt_race_ignoring(self, write))
		return;
	struct rt_race_access now = {
		.site = site,
		.clock = rt_race_epoch(self->slot),
		.step = (uint32_t)rt.step,
		.stack = rt_race_stack_of(self),
		.slot = (uint8_t)self->slot,
		.flags = write ? RT_RACE_WRITE : 0,
		.size = size,
		.tid = (uint32_t)self->tid,
	};
	uintptr_t end = addr + size;
	if (end < addr)
		end = UINTPTR_MAX;
	bool reported = false;
	for (uintptr_t g = addr >> RT_OWN_SHIFT; g <= (end - 1) >> RT_OWN_SHIFT; g++) {
		uintptr_t lo = g << RT_OWN_SHIFT, a = addr > lo ? addr : lo;
		uintptr_t b = end - lo < RT_OWN_GRANULE ? end : lo + RT_OWN_GRANULE;
		now.mask = (uint16_t)(((1u << (b - a)) - 1) << (a - lo));
		reported = one(self, lookup(g), &now, a, reported);
	}
}

#define PAGE ((uintptr_t)4096) /* x86-64's */

static void clear(struct granule *e)
{
	if (e->n) /* a read of an untouched page maps no memory; a write would */
		e->n = 0;
}

/* Granules g0 to g1 of one chunk lose their records: the shadow's pages
 * wholly inside go back to zero (untouched ones cost nothing), the
 * granules at the edges are cleared one by one. */
static void forget_in(struct granule *arr, uintptr_t g0, uintptr_t g1)
{
	uintptr_t lo = (uintptr_t)&arr[g0], hi = (uintptr_t)&arr[g1 + 1];
	uintptr_t plo = (lo + PAGE - 1) & ~(PAGE - 1), phi = hi & ~(PAGE - 1);
	if (phi <= plo) {
		for (uintptr_t i = g0; i <= g1; i++)
			clear(&arr[i]);
		return;
	}
	madvise((void *)plo, phi - plo, MADV_DONTNEED);
	for (uintptr_t i = g0; (uintptr_t)&arr[i] < plo; i++)
		clear(&arr[i]);
	for (uintptr_t i = g1 + 1; i-- > g0 && (uintptr_t)&arr[i + 1] > phi;)
		clear(&arr[i]);
}

void rt_race_forget_slow(uintptr_t addr, size_t size)
{
	if (!dir_used || !size)
		return;
	uintptr_t g0 = addr >> RT_OWN_SHIFT, g1 = (addr + size - 1) >> RT_OWN_SHIFT;
	for (uintptr_t g = g0; g <= g1;) {
		uintptr_t base = g & ~(PER_CHUNK - 1), end = base + PER_CHUNK - 1;
		uintptr_t stop = end < g1 ? end : g1;
		struct chunk *c = chunk_of(g, false);
		if (c)
			forget_in(c->g, g - base, stop - base);
		if (stop == g1)
			break;
		g = stop + 1;
	}
}
