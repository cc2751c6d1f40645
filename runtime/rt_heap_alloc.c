/* rt_heap_alloc.c - the allocator, in the default build mode.
 *
 * malloc, calloc, realloc, free, aligned_alloc, posix_memalign, memalign,
 * valloc and pvalloc are defined here and forward to glibc's allocator
 * (__libc_*), so the whole process, libraries included, keeps one heap,
 * and each allocation reaches rt_heap.c with its caller as the site.
 * C++'s operator new reaches malloc from inside libstdc++, which would make
 * every `new` one site: the plain and array forms are defined here too, so
 * that the site is the caller's. When no block is tracked every call is a
 * plain forward. Not linked in the ASan mode, where ASan's allocator must
 * own every block (rt_heap_asan.c).
 *
 * Frees by controlled threads are also checked against the blocks freed
 * before in the execution (rt_heap_freed.c): glibc's own check misses a
 * double free by two threads until one of them has exited. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <malloc.h>
#include <stdlib.h>

#include "rt_internal.h"
#include "rt_own.h"

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
extern void *__libc_memalign(size_t, size_t);
extern void *__libc_valloc(size_t);
extern void *__libc_pvalloc(size_t);

int rt_heap_sanitizer_tid(void)
{
	return -1; /* no sanitizer numbers threads beside us */
}

void rt_heap_install_hooks(void)
{
	/* The allocator is ours: nothing to hook. */
}

void rt_heap_input_ended(void)
{
	/* glibc's allocator keeps no freed block from reuse. */
}

void rt_heap_before_forks(void)
{
	/* No LeakSanitizer reads the globals at exit. */
}

/* A controlled thread of a running execution. */
static inline bool controlled(void)
{
	return RT_UNLIKELY(rt_self != NULL) && rt.active;
}

/* Every allocation returns through here: p is no longer a freed block. */
static inline void *reused(void *p)
{
	if (controlled()) {
		rt_heap_freed_reused(p);
		rt_heap_log_alloc(p);
	}
	return p;
}

/* Before old is freed (or realloc'd): -1, or the thread that freed it
 * already. */
static inline int freed_before(const void *old)
{
	return controlled() ? rt_heap_freed_by(old) : -1;
}

static void *alloc_at(size_t size, const void *site)
{
	void *p = reused(__libc_malloc(size));
	if (rt_heap_tracking())
		rt_heap_remember(p, size, site);
	return p;
}

RT_INTERPOSE void *malloc(size_t size)
{
	return alloc_at(size, RT_CALLER());
}

RT_INTERPOSE void free(void *p)
{
	if (p && controlled()) {
		/* Ours before glibc's check: whether glibc notices depends on
		 * its heap's history, which differs between the explorer's
		 * child and a replay; and a block freed before is glibc's free
		 * chunk, whose header malloc_usable_size may fault on. */
		int first = rt_heap_freed_remember(p, rt_self->tid);
		if (RT_UNLIKELY(first >= 0))
			rt_heap_double_free("free", first);
		size_t usable = malloc_usable_size(p);
		rt_heap_log_free(p, usable, RT_CALLER());
		if (rt_heap_tracking())
			rt_heap_forget(p);
		rt_own_forget((uintptr_t)p, usable); /* whoever allocates it next owns it afresh */
	}
	__libc_free(p);
}

RT_INTERPOSE void *calloc(size_t n, size_t size)
{
	void *p = reused(__libc_calloc(n, size));
	if (rt_heap_tracking())
		rt_heap_remember(p, n * size, RT_CALLER());
	return p;
}

RT_INTERPOSE void *realloc(void *old, size_t size)
{
	/* glibc does not check a realloc'd block: it would corrupt the heap. */
	int first = old ? freed_before(old) : -1;
	if (RT_UNLIKELY(first >= 0))
		rt_heap_double_free("realloc", first);
	if (old && controlled()) {
		size_t usable = malloc_usable_size(old);
		rt_own_forget((uintptr_t)old, usable);
		rt_heap_log_free(old, usable, RT_CALLER()); /* moved or not: logged again below */
	}
	void *p = reused(__libc_realloc(old, size));
	if (old && !p && size && controlled())
		rt_heap_log_alloc(old); /* it failed: the old block lives on */
	if (old && p != old && (p || size == 0) && controlled())
		rt_heap_freed_remember(old, rt_self->tid);
	if (rt_heap_tracking()) {
		if (old && (p || size == 0)) /* a failed realloc keeps the old block */
			rt_heap_forget(old);
		rt_heap_remember(p, size, RT_CALLER());
	}
	return p;
}

static void *aligned_at(size_t align, size_t size, const void *site)
{
	void *p = reused(__libc_memalign(align, size));
	if (rt_heap_tracking())
		rt_heap_remember(p, size, site);
	return p;
}

RT_INTERPOSE void *memalign(size_t align, size_t size)
{
	return aligned_at(align, size, RT_CALLER());
}

RT_INTERPOSE void *aligned_alloc(size_t align, size_t size)
{
	return aligned_at(align, size, RT_CALLER());
}

RT_INTERPOSE int posix_memalign(void **out, size_t align, size_t size)
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

RT_INTERPOSE void *valloc(size_t size)
{
	void *p = reused(__libc_valloc(size));
	if (rt_heap_tracking())
		rt_heap_remember(p, size, RT_CALLER());
	return p;
}

RT_INTERPOSE void *pvalloc(size_t size)
{
	void *p = reused(__libc_pvalloc(size));
	if (rt_heap_tracking())
		rt_heap_remember(p, size, RT_CALLER());
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

RT_INTERPOSE void *_Znwm(size_t size) /* operator new(size_t) */
{
	return new_at(size, RT_CALLER(), "_Znwm");
}

RT_INTERPOSE void *_Znam(size_t size) /* operator new[](size_t) */
{
	return new_at(size, RT_CALLER(), "_Znam");
}
