/* rt_heap.c - the heap as PCTVB sees it: every block knows the call site
 * that allocated it, since all objects from one allocation site count as
 * one variable (ALGORITHMS.md, PCTVB).
 *
 * malloc, calloc, realloc, free, aligned_alloc, posix_memalign, memalign,
 * valloc and pvalloc are defined here and forward to glibc's allocator
 * (__libc_*), so the whole process, libraries included, keeps one heap.
 * C++'s operator new reaches malloc from inside libstdc++, which would make
 * every `new` one site: the plain and array forms are defined here too, so
 * that the site is the caller's. Blocks are tracked only while a plan
 * counts variables and only when a controlled thread allocates: otherwise
 * every call is a plain forward. Tracked blocks live in an array sorted by
 * address (lookup by binary search), forgotten when the execution ends. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rt_internal.h"

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
extern void *__libc_memalign(size_t, size_t);
extern void *__libc_valloc(size_t);
extern void *__libc_pvalloc(size_t);

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

static bool tracking(void)
{
	return RT_UNLIKELY(heap.on) && rt_self && rt.active;
}

static void forget(void *p)
{
	uintptr_t a = (uintptr_t)p;
	uint32_t i = upper(a);
	if (i == 0 || heap.b[i - 1].lo != a)
		return;
	REAL(memmove)(&heap.b[i - 1], &heap.b[i], (heap.n - i) * sizeof *heap.b);
	heap.n--;
}

static void remember(void *p, size_t size, const void *site)
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
}

static void *alloc_at(size_t size, const void *site)
{
	void *p = __libc_malloc(size);
	if (tracking())
		remember(p, size, site);
	return p;
}

RT_EXPORT void *malloc(size_t size)
{
	return alloc_at(size, RT_CALLER());
}

RT_EXPORT void free(void *p)
{
	if (p && tracking())
		forget(p);
	__libc_free(p);
}

RT_EXPORT void *calloc(size_t n, size_t size)
{
	void *p = __libc_calloc(n, size);
	if (tracking())
		remember(p, n * size, RT_CALLER());
	return p;
}

RT_EXPORT void *realloc(void *old, size_t size)
{
	void *p = __libc_realloc(old, size);
	if (tracking()) {
		if (old && (p || size == 0)) /* a failed realloc keeps the old block */
			forget(old);
		remember(p, size, RT_CALLER());
	}
	return p;
}

static void *aligned_at(size_t align, size_t size, const void *site)
{
	void *p = __libc_memalign(align, size);
	if (tracking())
		remember(p, size, site);
	return p;
}

RT_EXPORT void *memalign(size_t align, size_t size)
{
	return aligned_at(align, size, RT_CALLER());
}

RT_EXPORT void *aligned_alloc(size_t align, size_t size)
{
	return aligned_at(align, size, RT_CALLER());
}

RT_EXPORT int posix_memalign(void **out, size_t align, size_t size)
{
	if (align < sizeof(void *) || (align & (align - 1)))
		return EINVAL;
	int saved = errno;
	void *p = aligned_at(align, size, RT_CALLER());
	if (!p) {
		errno = saved;
		return ENOMEM;
	}
	*out = p;
	return 0;
}

RT_EXPORT void *valloc(size_t size)
{
	void *p = __libc_valloc(size);
	if (tracking())
		remember(p, size, RT_CALLER());
	return p;
}

RT_EXPORT void *pvalloc(size_t size)
{
	void *p = __libc_pvalloc(size);
	if (tracking())
		remember(p, size, RT_CALLER());
	return p;
}

/* ---- C++ operator new: the caller is the allocation site -------------------- */

typedef void *(*new_fn)(size_t);

/* On failure the library's own operator new runs the new-handler and
 * throws, as C++ requires. */
static void *new_at(size_t size, const void *site, const char *name)
{
	void *p = alloc_at(size ? size : 1, site);
	if (RT_LIKELY(p != NULL))
		return p;
	new_fn next = (new_fn)dlsym(RTLD_NEXT, name);
	if (!next)
		abort();
	return next(size);
}

RT_EXPORT void *_Znwm(size_t size) /* operator new(size_t) */
{
	return new_at(size, RT_CALLER(), "_Znwm");
}

RT_EXPORT void *_Znam(size_t size) /* operator new[](size_t) */
{
	return new_at(size, RT_CALLER(), "_Znam");
}
