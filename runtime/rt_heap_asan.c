/* rt_heap_asan.c - allocation sites in the ASan build mode.
 *
 * ASan's allocator owns every block there (its redzones and quarantine are
 * what catch a use-after-free), so we cannot define malloc as
 * rt_heap_alloc.c does. ASan calls its malloc and free hooks instead, and
 * it has already stored each block's allocation stack when the malloc hook
 * runs: the stack's frame 0 is inside ASan's malloc, frame 1 the caller,
 * the same return address the default mode records as the site. */
#define _GNU_SOURCE
#include <link.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rt_internal.h"
#include "rt_own.h"

/* sanitizer/allocator_interface.h and sanitizer/asan_interface.h. */
extern int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void *,
									  size_t),
						     void (*free_hook)(const volatile void *));
extern int __sanitizer_get_ownership(const volatile void *p);
extern size_t __sanitizer_get_allocated_size(const volatile void *p);
extern size_t __asan_get_alloc_stack(void *addr, void **trace, size_t size, int *thread_id);

static void on_malloc(const volatile void *p, size_t size)
{
	if (!rt_heap_tracking())
		return;
	void *trace[2];
	int tid;
	size_t n = __asan_get_alloc_stack((void *)p, trace, 2, &tid);
	rt_heap_remember((const void *)p, size, n == 2 ? trace[1] : NULL);
}

static void on_free(const volatile void *p)
{
	if (p && rt_heap_tracking())
		rt_heap_forget((const void *)p);
	/* Whoever allocates it next (after ASan's quarantine) owns it afresh.
	 * ASan calls this hook before it checks the free: a block it does
	 * not own (a double free) is left to its report. */
	if (p && rt_self && rt.active && __sanitizer_get_ownership(p))
		rt_own_forget((uintptr_t)p, __sanitizer_get_allocated_size(p));
}

int rt_heap_sanitizer_tid(void)
{
	/* ASan tells which of its threads allocated a block, and nothing
	 * else tells a thread its ASan number: allocate one byte and ask.
	 * Uncontrolled meanwhile, so the block is no event of ours. */
	struct rt_thread *self = rt_own_work_begin();
	void *p = malloc(1);
	int tid = -1;
	if (p)
		__asan_get_alloc_stack(p, NULL, 0, &tid);
	free(p);
	rt_own_work_end(self);
	return tid;
}

void rt_heap_install_hooks(void)
{
	__sanitizer_install_malloc_and_free_hooks(on_malloc, on_free);
}

extern void __sanitizer_purge_allocator(void);

/* ASan keeps freed blocks from reuse in its quarantine (up to
 * quarantine_size_mb, 256 MB by default) to catch a use after free. A
 * use after free that an interleaving causes frees and uses the block
 * within one execution, so what earlier inputs freed need not stay: every
 * PURGE_EVERY inputs the quarantine goes back to the allocator and the
 * allocator's free memory to the kernel, and a campaign's RSS stays flat.
 * (libFuzzer does the same itself, but only once RSS passes half of
 * -rss_limit_mb.) A purge takes a few milliseconds. */
#define PURGE_EVERY 1000

void rt_heap_input_ended(void)
{
	static unsigned inputs;
	if (++inputs % PURGE_EVERY == 0)
		__sanitizer_purge_allocator();
}

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif

/* The executable's writable segments, less the part made read-only after
 * relocation (PT_GNU_RELRO), populated writable. */
static int populate_writable(struct dl_phdr_info *info, size_t size, void *unused)
{
	(void)size;
	(void)unused;
	if (info->dlpi_name[0])
		return 0; /* a shared library: only the executable holds ASan's tables */
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), relro_end = 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type == PT_GNU_RELRO)
			relro_end = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz) & ~(page - 1);
	}
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W))
			continue;
		uintptr_t begin = (info->dlpi_addr + ph->p_vaddr) & ~(page - 1);
		uintptr_t end = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz + page - 1) & ~(page - 1);
		if (relro_end > begin && relro_end <= end)
			begin = relro_end;
		if (end > begin)
			madvise((void *)begin, end - begin, MADV_POPULATE_WRITE);
	}
	return 1;
}

/* LeakSanitizer reads every word of the executable's writable globals at
 * each exit, ASan's own tables among them (its stack depots: 9 MB, mostly
 * never written). In a forked execution every page of them not yet in the
 * explorer's page tables is a fault of its own, 2,400 at every exit, more
 * than half of what an ASan-mode schedule costs on a machine where a
 * fault is dear (docs/cost.md). Populated here once, the pages come to
 * each child with the fork, shared until written. A kernel without
 * MADV_POPULATE_WRITE refuses it, and the children fault as before. */
void rt_heap_before_forks(void)
{
	dl_iterate_phdr(populate_writable, NULL);
}
