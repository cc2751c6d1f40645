/* rt_race_clock.c - happens-before for the race detector: the threads'
 * vector clocks and the clocks that synchronisation leaves on its objects
 * (rt_race.h).
 *
 * Every release joins the thread's clock into its key's (never replaces
 * it: a lock's readers, a semaphore's posts and an atomic's release
 * sequence all add up), and an acquire joins the key's into the thread's.
 * Order the program does not have would hide a race; order it has and we
 * missed would invent one, so where the model cannot tell (which
 * descriptor a read drains, which signal a handler runs for), the key is
 * shared by all and orders more. */
#define _GNU_SOURCE
#include <sys/mman.h>

#include "rt_race.h"

#define NT RT_MAX_THREADS

struct rt_race_state rt_race;

/* Row s: the clock of the thread in slot s. own[s] counts on across the
 * slot's threads. exits[s]: the clock its last thread ended with. The
 * release fence's clock, and what relaxed loads read since the last
 * acquire fence, per thread (C11's fences). */
static uint32_t clocks[NT][NT], own[NT], exits[NT][NT];
static uint32_t fence_rel[NT][NT], pending[NT][NT];
static bool has_fence_rel[NT];

/* ---- the keys' clocks: open addressing, a clock each from an arena -------- */

struct key_clock {
	uintptr_t key; /* 0: empty */
	uint32_t *vc;
};
static struct key_clock *table;
static size_t cap, used;
static uint32_t *arena;
static size_t arena_cap, arena_used; /* in clocks */

void *rt_race_map(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		       -1, 0);
	if (p == MAP_FAILED)
		rt_unsupported("race detection", "no memory for its clocks and access records");
	return p;
}

static size_t slot_of(uintptr_t key, size_t c)
{
	return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 20) & (c - 1);
}

static void grow(void)
{
	size_t ncap = cap ? cap * 2 : 256;
	struct key_clock *nt = rt_race_map(ncap * sizeof *nt);
	for (size_t i = 0; i < cap; i++) {
		if (!table[i].key)
			continue;
		size_t j = slot_of(table[i].key, ncap);
		while (nt[j].key)
			j = (j + 1) & (ncap - 1);
		nt[j] = table[i];
	}
	if (table)
		munmap(table, cap * sizeof *table);
	table = nt;
	cap = ncap;
}

static uint32_t *new_clock(void)
{
	if (arena_used == arena_cap) {
		/* Address space only: a clock's pages come as they are used. A
		 * full chunk stays (its clocks are in the table); a new one
		 * follows. */
		arena_cap = (size_t)1 << 14;
		arena = rt_race_map(arena_cap * NT * sizeof(uint32_t));
		arena_used = 0;
	}
	return &arena[arena_used++ * NT];
}

static uint32_t *find(uintptr_t key, bool create)
{
	if (!cap) {
		if (!create)
			return NULL;
		grow();
	}
	for (size_t i = slot_of(key, cap);; i = (i + 1) & (cap - 1)) {
		if (table[i].key == key)
			return table[i].vc;
		if (table[i].key)
			continue;
		if (!create)
			return NULL;
		if (2 * (used + 1) > cap) {
			grow();
			return find(key, true);
		}
		used++;
		table[i] = (struct key_clock){ key, new_clock() };
		return table[i].vc;
	}
}

/* ---- clocks ------------------------------------------------------------------ */

static void join(uint32_t *to, const uint32_t *from)
{
	for (uint32_t i = 0; i < rt_race.hw; i++)
		if (from[i] > to[i])
			to[i] = from[i];
}

/* After a release: what self does next is no longer known to the key. */
static void tick(int s)
{
	clocks[s][s] = ++own[s];
}

bool rt_race_beside_asan(void)
{
#ifdef RT_BESIDE_ASAN
	return true;
#else
	return false;
#endif
}

void rt_race_begin(void)
{
	static bool read_env;
	if (!read_env) {
		read_env = true;
		rt_race.mode = (uint8_t)rt_race_mode_from_env();
	}
	/* The ownership shadow is what shows the accesses: without it, no
	 * detection (SCHEDFUZZ_MEMORY=0). An OpenMP runtime orders its threads
	 * with atomics and spins built without us: every access of a parallel
	 * region would race with its setup (rt_race_keep.c says so once). In
	 * the ASan mode the load and store callbacks see atomics as plain
	 * accesses too: every atomic would race. */
	rt_race.on = rt_race.mode != RT_RACES_OFF && rt.cfg.memory_points && !rt_openmp_present() &&
		     !rt_race_beside_asan();
	if (rt_race.hw) { /* an earlier execution in this process */
		for (uint32_t s = 0; s < rt_race.hw; s++) {
			rt_memset(clocks[s], 0, sizeof clocks[s]);
			rt_memset(exits[s], 0, sizeof exits[s]);
			rt_memset(fence_rel[s], 0, sizeof fence_rel[s]);
			rt_memset(pending[s], 0, sizeof pending[s]);
		}
		rt_memset(own, 0, sizeof own);
		rt_memset(has_fence_rel, 0, sizeof has_fence_rel);
	}
	if (used) {
		rt_memset(table, 0, cap * sizeof *table);
		used = 0;
		arena_used = 0;
	}
	rt_race.hw = 1;
	tick(0);
	if (rt_race.on) /* the report names heap blocks by allocation site */
		rt_heap_track(true); /* the first thread's accesses get epoch 1 */
	rt_race_shadow_begin();
	rt_race_report_begin();
	rt_race_annotations_begin();
}

void rt_race_acquire_slow(struct rt_thread *self, uintptr_t key)
{
	const uint32_t *c = find(key, false);
	if (c)
		join(clocks[self->slot], c);
}

void rt_race_release_slow(struct rt_thread *self, uintptr_t key)
{
	join(find(key, true), clocks[self->slot]);
	tick(self->slot);
}

void rt_race_sync_slow(struct rt_thread *self, uintptr_t key)
{
	rt_race_acquire_slow(self, key);
	rt_race_release_slow(self, key);
}

void rt_race_created(struct rt_thread *self, struct rt_thread *t)
{
	if (!rt_race.on || !self)
		return;
	int s = t->slot;
	if ((uint32_t)s >= rt_race.hw)
		rt_race.hw = (uint32_t)s + 1;
	/* Its row held the slot's last thread's knowledge: replaced. */
	rt_memcpy(clocks[s], clocks[self->slot], sizeof clocks[s]);
	rt_memset(pending[s], 0, sizeof pending[s]);
	has_fence_rel[s] = false;
	rt_race_note_created(self, t);
	tick(s);
	tick(self->slot);
}

void rt_race_finished_slow(struct rt_thread *t)
{
	rt_memcpy(exits[t->slot], clocks[t->slot], sizeof exits[t->slot]);
	tick(t->slot);
}

void rt_race_joined_slow(struct rt_thread *self, const struct rt_thread *t)
{
	join(clocks[self->slot], exits[t->slot]);
}

uint32_t rt_race_epoch(int slot)
{
	return clocks[slot][slot];
}

bool rt_race_knows(const struct rt_thread *self, int slot, uint32_t c)
{
	return c <= clocks[self->slot][slot];
}

/* ---- atomics and fences: C11's synchronises-with ---------------------------- */

static bool acquires(int mo)
{
	return mo == 1 || mo == 2 || mo >= 4;
}

static bool releases(int mo)
{
	return mo >= 3;
}

void rt_race_atomic_slow(struct rt_thread *self, uintptr_t addr, bool load, bool store, int mo)
{
	int s = self->slot;
	if (load) {
		const uint32_t *c = find(addr, false);
		/* A relaxed load synchronises only through a later acquire fence. */
		if (c)
			join(acquires(mo) ? clocks[s] : pending[s], c);
	}
	if (store) {
		if (releases(mo)) {
			rt_race_release_slow(self, addr);
		} else if (has_fence_rel[s]) {
			/* A relaxed store after a release fence carries the
			 * fence's clock. */
			join(find(addr, true), fence_rel[s]);
		}
	}
}

void rt_race_fence_slow(struct rt_thread *self, int mo)
{
	int s = self->slot;
	if (acquires(mo))
		join(clocks[s], pending[s]);
	if (releases(mo)) {
		rt_memcpy(fence_rel[s], clocks[s], sizeof fence_rel[s]);
		has_fence_rel[s] = true;
		tick(s);
	}
}
