/* rt_race_shadow.c - the race detector's record of accesses: per 16-byte
 * granule (the ownership shadow's), up to RECORDS accesses, each with its
 * epoch and the bytes it touched (rt_race.h).
 *
 * A granule's records hold what a later access must be checked against:
 * an access replaces the records it covers (the same thread's, and, for a
 * write, any it is ordered after), and when all are taken the oldest goes,
 * which can only hide a race. Granules are found through one table that
 * grows by doubling; a record is void once the ownership shadow's
 * generation moved on (every access before a settlement happens before
 * every access after it), and when its memory is freed. */
#define _GNU_SOURCE
#include <sys/mman.h>

#include "rt_own.h"
#include "rt_race.h"

#define RECORDS 4

struct granule {
	uintptr_t g;	/* granule number + 1; 0: empty slot */
	uint16_t gen;	/* rt_own.gen when its records were made */
	uint8_t n;
	struct rt_race_access rec[RECORDS];
};

static struct granule *table;
static size_t cap, used;

static size_t home(uintptr_t g, size_t c)
{
	return (size_t)((g * 0x9E3779B97F4A7C15ull) >> 24) & (c - 1);
}

static bool live(const struct granule *e)
{
	return e->g && e->n && e->gen == rt_own.gen;
}

static void grow(void)
{
	size_t ncap = cap ? cap * 2 : (size_t)1 << 10;
	struct granule *nt = mmap(NULL, ncap * sizeof *nt, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (nt == MAP_FAILED)
		rt_unsupported("race detection", "no memory for its access records");
	used = 0;
	for (size_t i = 0; i < cap; i++) { /* what is void stays behind */
		if (!live(&table[i]))
			continue;
		size_t j = home(table[i].g, ncap);
		while (nt[j].g)
			j = (j + 1) & (ncap - 1);
		nt[j] = table[i];
		used++;
	}
	if (table)
		munmap(table, cap * sizeof *table);
	table = nt;
	cap = ncap;
}

static struct granule *lookup(uintptr_t g, bool create)
{
	if (!cap)
		grow();
	uintptr_t key = g + 1;
	for (size_t i = home(key, cap);; i = (i + 1) & (cap - 1)) {
		struct granule *e = &table[i];
		if (e->g == key) {
			if (e->gen != rt_own.gen) {
				e->n = 0;
				e->gen = rt_own.gen;
			}
			return e;
		}
		if (e->g)
			continue;
		if (!create)
			return NULL;
		if (2 * (used + 1) > cap) {
			grow();
			return lookup(g, true);
		}
		used++;
		e->g = key;
		e->gen = rt_own.gen;
		e->n = 0;
		return e;
	}
}

void rt_race_shadow_begin(void)
{
	if (used) {
		rt_memset(table, 0, cap * sizeof *table);
		used = 0;
	}
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
		reported = one(self, lookup(g, true), &now, a, reported);
	}
}

void rt_race_forget_slow(uintptr_t addr, size_t size)
{
	if (!used || !size)
		return;
	uintptr_t g0 = addr >> RT_OWN_SHIFT, g1 = (addr + size - 1) >> RT_OWN_SHIFT;
	if (g1 - g0 < cap / 4) {
		for (uintptr_t g = g0; g <= g1; g++) {
			struct granule *e = lookup(g, false);
			if (e)
				e->n = 0;
		}
		return;
	}
	for (size_t i = 0; i < cap; i++)
		if (table[i].g > g0 && table[i].g <= g1 + 1)
			table[i].n = 0;
}
