/* rt_heap.c - the heap as PCTVB sees it: every block knows the call site
 * that allocated it, since all objects from one allocation site count as
 * one variable (docs/design/algorithms.md, PCTVB).
 *
 * Blocks are tracked only while a plan counts variables (or coverage or a
 * trace names them) and only when a controlled thread allocates. Tracked
 * blocks live in an array sorted by address (lookup by binary search),
 * forgotten when the execution ends. How allocations reach us depends on
 * the build mode: rt_heap_alloc.c defines the allocator itself,
 * rt_heap_asan.c hooks ASan's. */
#define _GNU_SOURCE
#include <string.h>

#include "rt_internal.h"
#include "rt_own.h"

/* glibc's allocator, under any allocator the program sees: the block list
 * must not allocate through our own malloc, nor through ASan's. */
extern void *__libc_realloc(void *, size_t);

struct block {
	uintptr_t lo, hi; /* [lo, hi) */
	uint32_t site;
};

static struct {
	bool on;
	struct block *b;
	uint32_t n, cap;
} heap;

void rt_heap_track(bool on)
{
	heap.on = on;
	heap.n = 0;
	rt_heap_freed_reset(); /* called as every execution starts */
	rt_heap_log_reset();
}

/* Index of the first block with lo > addr. */
static uint32_t upper(uintptr_t addr)
{
	uint32_t lo = 0, hi = heap.n;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (heap.b[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

bool rt_heap_block(uintptr_t addr, uint32_t *site, uintptr_t *start)
{
	uint32_t i = upper(addr);
	if (i == 0 || addr >= heap.b[i - 1].hi)
		return false;
	*site = heap.b[i - 1].site;
	*start = heap.b[i - 1].lo;
	return true;
}

bool rt_heap_block_of(uintptr_t addr, uintptr_t *lo, uintptr_t *hi, uint32_t *site)
{
	uint32_t i = upper(addr);
	if (i == 0 || addr >= heap.b[i - 1].hi)
		return false;
	*lo = heap.b[i - 1].lo;
	*hi = heap.b[i - 1].hi;
	*site = heap.b[i - 1].site;
	return true;
}

struct rt_var_id rt_var_of(uintptr_t addr, uint32_t first_site)
{
	uint32_t site;
	uintptr_t start;
	if (rt_heap_block(addr, &site, &start))
		return (struct rt_var_id){ 'h', site, (uint32_t)(addr > start ? addr - start : 0) };
	if (addr >= rt.exe_lo && addr < rt.exe_hi)
		return (struct rt_var_id){ 'g', (uint32_t)(addr - rt.exe_bias), 0 };
	return (struct rt_var_id){ 'm', first_site, 0 };
}

bool rt_heap_tracking(void)
{
	return RT_UNLIKELY(heap.on) && rt_self && rt.active;
}

void rt_heap_forget(const void *p)
{
	uintptr_t a = (uintptr_t)p;
	uint32_t i = upper(a);
	if (i == 0 || heap.b[i - 1].lo != a)
		return;
	REAL(memmove)(&heap.b[i - 1], &heap.b[i], (heap.n - i) * sizeof *heap.b);
	heap.n--;
}

void rt_heap_remember(const void *p, size_t size, const void *site)
{
	if (!p)
		return;
	uintptr_t lo = (uintptr_t)p, hi = lo + (size ? size : 1);
	/* A block freed by an uncontrolled thread may still be listed: the
	 * new one replaces whatever it overlaps. */
	uint32_t i = upper(lo);
	while (i > 0 && heap.b[i - 1].hi > lo)
		i--;
	uint32_t j = i;
	while (j < heap.n && heap.b[j].lo < hi)
		j++;
	if (j > i) {
		REAL(memmove)(&heap.b[i], &heap.b[j], (heap.n - j) * sizeof *heap.b);
		heap.n -= j - i;
	}
	if (heap.n == heap.cap) {
		uint32_t cap = heap.cap ? heap.cap * 2 : 1024;
		struct block *nb = __libc_realloc(heap.b, cap * sizeof *nb);
		if (!nb)
			return; /* the block just counts as untracked memory */
		heap.b = nb;
		heap.cap = cap;
	}
	REAL(memmove)(&heap.b[i + 1], &heap.b[i], (heap.n - i) * sizeof *heap.b);
	uintptr_t off = (uintptr_t)site - rt.exe_bias;
	heap.b[i] = (struct block){ lo, hi, (uintptr_t)site >= rt.exe_lo && (uintptr_t)site < rt.exe_hi
						    ? (uint32_t)off : 0 };
	heap.n++;
	rt_vars_allocated(lo, hi, heap.b[i].site);
}

void rt_heap_share_site(uint32_t site)
{
	for (uint32_t i = 0; i < heap.n; i++)
		if (heap.b[i].site == site)
			rt_own_share_slow(heap.b[i].lo, heap.b[i].hi - heap.b[i].lo);
}

void rt_heap_forget_site(uint32_t site)
{
	for (uint32_t i = 0; i < heap.n; i++)
		if (heap.b[i].site == site)
			rt_own_forget(heap.b[i].lo, heap.b[i].hi - heap.b[i].lo);
}
