/* rt_own.c - the ownership shadow (rt_own.h): claims, sharing, forgetting.
 *
 * The shadow is reserved once, 16 TiB of address space that the kernel
 * backs only where it is written (MAP_NORESERVE): its resident size is an
 * eighth of the memory the program's threads touched, and a new execution
 * costs nothing (a generation) but once in 254, when the shadow's pages
 * are handed back. Where the reservation fails (a strict overcommit
 * policy, a small address-space limit), every access is a scheduling
 * point, as with SCHEDFUZZ_MEMORY=2, and we say so once. */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rt_own.h"

struct rt_own_state rt_own;

#define GRANULES ((uintptr_t)1 << (RT_OWN_ADDR_BITS - RT_OWN_SHIFT))
#define MAP_BYTES (GRANULES * sizeof(uint16_t))
#define PAGE 4096u

static bool reserved, failed;

static bool reserve(void)
{
	if (reserved || failed)
		return reserved;
	void *p = mmap(NULL, MAP_BYTES, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		failed = true;
		static const char msg[] = "schedfuzz: no address space for the ownership shadow "
					  "(16 TiB, reserved only): every memory access is a "
					  "scheduling point\n";
		if (write(STDERR_FILENO, msg, sizeof msg - 1) < 0)
			failed = true;
		return false;
	}
	rt_own.map = p;
	reserved = true;
	return true;
}

void rt_own_begin(bool watch)
{
	if (!watch || !reserve()) {
		rt_own.limit = 0;
		return;
	}
	rt_own.limit = GRANULES;
	uint16_t gen = (uint16_t)((rt_own.gen >> 8) + 1);
	if (gen > 0xfe) { /* wrapped: cells of generation 1 may be live again */
		madvise(rt_own.map, MAP_BYTES, MADV_DONTNEED);
		gen = 1;
	}
	rt_own.gen = (uint16_t)(gen << 8);
	rt_own.read = (uint16_t)(rt_own.gen | RT_OWN_READ);
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

/* The cell value of what t touches now: before the first thread creation
 * the execution is one thread, whose accesses all happen before anything
 * another thread does (main initialising the workers' state). */
static uint16_t owner_cell(const struct rt_thread *t)
{
	return (uint16_t)(rt_own.gen | (rt.ncreated == 1 ? RT_OWN_INIT : t->slot + 1));
}

enum rt_own_verdict rt_own_point(struct rt_thread *t, uintptr_t a, uint32_t size, bool write)
{
	if (rt_own.limit == 0)
		return RT_OWN_POINT_SHARED;
	uint16_t gen = rt_own.gen, mine = owner_cell(t), shared = (uint16_t)(gen | RT_OWN_SHARED),
		 init = (uint16_t)(gen | RT_OWN_INIT);
	uintptr_t g0, g1;
	bool point = !span(a, size, &g0, &g1), mark = false;
	for (uintptr_t g = g0; g < g1; g++) {
		uint16_t c = rt_own.map[g];
		if (c == mine || c == shared) {
			point |= c == shared;
		} else if ((c & 0xff00) != gen || c == init) {
			rt_own.map[g] = mine; /* untouched (or only before threads): claimed */
		} else if (c == rt_own.read) {
			if (write) { /* read by several, now written */
				rt_own.map[g] = shared;
				point = true;
			}
		} else { /* the first access of a second thread */
			rt_own.map[g] = write ? shared : rt_own.read;
			point = true;
		}
	}
	if (t->own_tag != (uint16_t)~mine) { /* first private access after a publication */
		t->own_tag = (uint16_t)~mine;
		mark = true;
	}
	if (t->own_left == 0) {
		t->own_left = RT_OWN_TICK;
		mark = true;
	}
	return point ? RT_OWN_POINT_SHARED : mark ? RT_OWN_POINT : RT_OWN_PASS;
}

void rt_own_stack(struct rt_thread *t, uintptr_t a, uint32_t size)
{
	if (rt_own.limit == 0)
		return;
	uint16_t mine = owner_cell(t), shared = (uint16_t)(rt_own.gen | RT_OWN_SHARED);
	uintptr_t g0, g1;
	span(a, size, &g0, &g1);
	for (uintptr_t g = g0; g < g1; g++) {
		uint16_t c = rt_own.map[g];
		if (c != shared && c != rt_own.read)
			rt_own.map[g] = mine;
	}
}

void rt_own_share(uintptr_t a, uint32_t size)
{
	if (rt_own.limit == 0)
		return;
	uint16_t shared = (uint16_t)(rt_own.gen | RT_OWN_SHARED);
	uintptr_t g0, g1;
	span(a, size, &g0, &g1);
	for (uintptr_t g = g0; g < g1; g++)
		if (rt_own.map[g] != shared)
			rt_own.map[g] = shared;
}

void rt_own_forget(uintptr_t a, size_t size)
{
	if (rt_own.limit == 0 || size == 0)
		return;
	uintptr_t g0, g1;
	span(a, size, &g0, &g1);
	uintptr_t lo = (uintptr_t)&rt_own.map[g0], hi = (uintptr_t)&rt_own.map[g1];
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
