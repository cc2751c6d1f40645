/* rt_own.c - the ownership shadow (rt_own.h): claims, sharing, forgetting.
 *
 * The shadow is reserved once, 16 TiB of address space that the kernel
 * backs only where it is written (MAP_NORESERVE): its resident size is an
 * eighth of the memory the program's threads touched, and a new execution
 * or phase costs nothing (a generation) but once in 254, when the
 * shadow's pages are handed back. Where the reservation fails (a strict
 * overcommit policy, a small address-space limit), every access is a
 * scheduling point, as with SCHEDFUZZ_MEMORY=2, and we say so once. */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rt_libc.h"
#include "rt_own.h"
#include "rt_race.h"

/* Until the shadow is reserved, and where that fails, the map is one
 * cell, and every granule's is that one; the second is the cell past it
 * that an unaligned access's check loads with it (rt_own_mine), the same. */
static uint16_t no_map[2];
struct rt_own_shadow rt_own_shadow = { .map = no_map, .mask = 0 };
struct rt_own_state rt_own = { .read = RT_OWN_NONE };
/* The thread of the inline check where there is none (rt_set_self). */
struct rt_thread rt_nobody = { .own_tag = RT_OWN_NONE, .own_r1 = RT_OWN_NONE,
			       .own_tag_pair = RT_OWN_PAIR(RT_OWN_NONE),
			       .own_r1_pair = RT_OWN_PAIR(RT_OWN_NONE),
			       .own_left = RT_OWN_TICK };
__thread struct rt_thread *rt_self_or_nobody
	__attribute__((tls_model("local-exec"))) = &rt_nobody;

#define GRANULES ((uintptr_t)1 << (RT_OWN_ADDR_BITS - RT_OWN_SHIFT))
#define MAP_BYTES (GRANULES * sizeof(uint16_t))
#define PAGE 4096u

/* The shadow's place is set before the program's own constructors run
 * (101: the first priority a program may use), so that none of its code
 * reads it before: the inline check takes it for a constant (rt_own.h).
 * Address space only, reserved whether or not executions watch memory;
 * reserved when its mask is set. With SCHEDFUZZ_MEMORY=0 no execution
 * watches memory: the map stays one cell, RT_OWN_ALL, and the threads'
 * accesses pass the check there (rt_own_unwatched), rather than each
 * taking the slow path to learn that it is no point. */
__attribute__((constructor(101))) static void reserve(void)
{
	if (rt_env_u64("SCHEDFUZZ_MEMORY", 1) == 0) {
		no_map[0] = no_map[1] = RT_OWN_ALL;
		return;
	}
	/* A page past the last granule's cell: the check of an unaligned
	 * access loads the cell after its granule's (rt_own_mine), and an
	 * address masked to the last granule has one there. Never written,
	 * so it matches no tag. */
	void *p = mmap(NULL, MAP_BYTES + PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return;
	/* The map before its mask: code that took the old mask (0) with the
	 * new map reads its cell 0, while the new mask with the old map
	 * would read far past no_map. */
	rt_own_shadow.map = p;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	rt_own_shadow.mask = GRANULES - 1;
}

/* The next generation; on a wrap, the whole shadow goes back to the
 * kernel (zero: untouched) and settled granules count as untouched. */
static void advance(void)
{
	uint16_t gen = (uint16_t)((rt_own.gen >> 8) + 1);
	if (gen > 0xfe) {
		madvise(rt_own_shadow.map, MAP_BYTES, MADV_DONTNEED);
		gen = 1;
		rt_own.first = 1 << 8;
	}
	rt_own.gen = (uint16_t)(gen << 8);
	rt_own.read = (uint16_t)(rt_own.gen | RT_OWN_READ);
}

void rt_own_begin(bool watch)
{
	static bool said;
	bool reserved = rt_own_shadow.mask != 0;
	if (watch && !reserved && !said) {
		said = true;
		static const char msg[] = "schedfuzz: no address space for the ownership shadow "
					  "(16 TiB, reserved only): every memory access is a "
					  "scheduling point\n";
		if (write(STDERR_FILENO, msg, sizeof msg - 1) < 0)
			said = true;
	}
	if (!watch || !reserved) {
		rt_own.limit = 0;
		rt_own.read = RT_OWN_NONE; /* tags: RT_OWN_NONE (rt_own_thread_begin) */
		return;
	}
	rt_own.limit = GRANULES;
	advance();
	rt_own.first = rt_own.gen;
	rt_own_first_begin();
	rt_vars_watch();
}

void rt_own_settle(void)
{
	if (rt_own.limit == 0)
		return;
	advance();
	for (int i = 0; i < rt.nthreads; i++) /* their tags name the old generation */
		rt_own_set_tags(&rt.threads[i], RT_OWN_NONE, RT_OWN_NONE);
	rt_vars_watch(); /* its marks were of the old generation too */
}

/* Granules [*g0, *g1) of [a, a + size), clipped to the watched ones;
 * false if some part lies outside (always a point). */
static bool span(uintptr_t a, size_t size, uintptr_t *g0, uintptr_t *g1)
{
	uintptr_t end = a + (size ? size : 1);
	*g0 = a >> RT_OWN_SHIFT;
	*g1 = ((end - 1) >> RT_OWN_SHIFT) + 1;
	if (end < a || *g1 > rt_own.limit) {
		if (*g1 > rt_own.limit)
			*g1 = rt_own.limit;
		if (*g0 > *g1)
			*g0 = *g1;
		return false;
	}
	return true;
}

enum rt_own_verdict rt_own_point(struct rt_thread *t, uintptr_t a, uint32_t size, bool write,
				 const void *site)
{
	if (rt_own.limit == 0)
		return RT_OWN_POINT_SHARED;
	uint16_t gen = rt_own.gen, mine = rt_own_mine_tag(t), r1 = rt_own_r1_tag(t),
		 shared = (uint16_t)(gen | RT_OWN_SHARED), read = rt_own.read;
	uintptr_t g0, g1;
	bool point = !span(a, size, &g0, &g1), mark = false, first = false, asked = false;
	for (uintptr_t g = g0; g < g1; g++) {
		uint16_t c = rt_own_shadow.map[g], cg = c & 0xff00, s = c & 0xff;
		if (c == mine || c == shared) {
			point |= c == shared;
		} else if (cg != gen) { /* settled, or untouched in this execution */
			bool settled = cg >= rt_own.first && cg < gen;
			if (!settled && !asked) { /* a first touch: the site's first? */
				asked = true;
				first = rt_own_first_touch(site);
			}
			/* A first touch's read (a zeroed flag) holds the granule
			 * "read by t alone", so that t's own first write to it is
			 * a point too: the other half of a check-then-set. */
			rt_own_shadow.map[g] = (settled || first) && !write ? r1 : mine;
			/* A write to settled memory may be half of an update that
			 * another thread makes too (a counter main set up): a point,
			 * once, before the writer owns it. */
			point |= settled && write;
		} else if (c == read || (s >= RT_OWN_READ1 && s < RT_OWN_READ)) {
			/* read since it settled or since a write: by self alone (r1),
			 * by another alone, or by several; any write is a point */
			if (write) {
				rt_own_shadow.map[g] = c == r1 ? mine : shared;
				point = true;
			} else if (c != r1 && c != read) {
				rt_own_shadow.map[g] = read;
			}
		} else { /* another thread's: the first access of a second thread */
			rt_own_shadow.map[g] = write ? shared : read;
			point = true;
		}
	}
	if (t->own_tag != mine) { /* first private access after a publication */
		rt_own_set_tags(t, mine, r1);
		mark = true;
	}
	bool tick = rt_own_tick_due(t); /* whatever else: a count at 0 starts again */
	if (point)
		return RT_OWN_POINT_SHARED;
	if (mark || first)
		return RT_OWN_POINT;
	return tick ? RT_OWN_POINT_TICK : RT_OWN_PASS;
}

void rt_own_stack(struct rt_thread *t, uintptr_t a, uint32_t size)
{
	if (rt_own.limit == 0)
		return;
	uint16_t mine = rt_own_mine_tag(t), shared = (uint16_t)(rt_own.gen | RT_OWN_SHARED);
	uintptr_t g0, g1;
	span(a, size, &g0, &g1);
	for (uintptr_t g = g0; g < g1; g++) {
		uint16_t c = rt_own_shadow.map[g];
		if (c != shared && c != rt_own.read)
			rt_own_shadow.map[g] = mine;
	}
}

void rt_own_share_slow(uintptr_t a, size_t size)
{
	if (rt_own.limit == 0)
		return;
	uint16_t shared = (uint16_t)(rt_own.gen | RT_OWN_SHARED);
	uintptr_t g0, g1;
	span(a, size, &g0, &g1);
	for (uintptr_t g = g0; g < g1; g++)
		if (rt_own_shadow.map[g] != shared)
			rt_own_shadow.map[g] = shared;
}

void rt_own_forget(uintptr_t a, size_t size)
{
	rt_race_forget(a, size);
	if (rt_own.limit == 0 || size == 0)
		return;
	uintptr_t g0, g1;
	span(a, size, &g0, &g1);
	uintptr_t lo = (uintptr_t)&rt_own_shadow.map[g0], hi = (uintptr_t)&rt_own_shadow.map[g1];
	/* Large blocks: whole shadow pages go back to the kernel (zero is
	 * untouched), so that freeing a big buffer never faults its shadow in. */
	uintptr_t plo = (lo + PAGE - 1) & ~(uintptr_t)(PAGE - 1), phi = hi & ~(uintptr_t)(PAGE - 1);
	if (phi > plo && phi - plo >= 16 * PAGE) {
		rt_memset((void *)lo, 0, plo - lo);
		madvise((void *)plo, phi - plo, MADV_DONTNEED);
		rt_memset((void *)phi, 0, hi - phi);
		return;
	}
	rt_memset((void *)lo, 0, hi - lo);
}
