/* rt_tls.c - a thread's thread-local storage back to what a new thread
 * starts with, for a kernel thread that runs one program thread after
 * another (rt_pool.c).
 *
 * glibc gives a new thread each module's block of static TLS as a copy of
 * the module's image (PT_TLS: initialised bytes, then zeros): the same copy
 * is made here, over the blocks of the executable and of every shared
 * object loaded with it, except glibc's own (libc's holds errno, which is
 * set to 0 instead, as h_errno, and the thread's locale set back to the
 * global one; and malloc's per-thread caches, which a reset would leak).
 * The executable's block also holds the runtime's, ASan's and
 * libFuzzer's variables: at a thread's end all of them are back at their
 * initial values (the runtime's rt_self and rt_self_or_nobody, its
 * alternate stack released by then) or are caches their owners refill
 * (ASan's fake stack pointer), so the copy is what a new thread would have.
 *
 * The blocks are found once, before main: the objects loaded with the
 * program have their TLS at fixed offsets from the thread pointer, the
 * same in every thread (rt_tls_check makes sure, in the pool's first
 * kernel thread). An object dlopen'ed later is not reset: its TLS would
 * carry over from one program thread to the next. */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <locale.h>
#include <netdb.h>
#include <stdint.h>
#include <string.h>

#include "rt_internal.h"

#define MAX_BLOCKS 16

struct tls_block {
	ptrdiff_t offset; /* from the thread pointer */
	const char *image;
	size_t filesz, memsz;
};

static struct tls_block blocks[MAX_BLOCKS];
static int nblocks;
static bool usable; /* every block with TLS was found */

static char *thread_pointer(void)
{
#ifdef __x86_64__
	char *tp;
	__asm__("mov %%fs:0, %0" : "=r"(tp));
	return tp;
#else
	return NULL;
#endif
}

/* glibc's objects: their TLS is libc's own business. */
static bool glibcs(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	return strncmp(base, "libc.so", 7) == 0 || strncmp(base, "ld-linux", 8) == 0 ||
	       strncmp(base, "libpthread.so", 13) == 0;
}

/* The object's TLS segment (an object has one at most), if it is one
 * whose block is reset: not empty, not glibc's. */
static const ElfW(Phdr) *tls_segment(const struct dl_phdr_info *info)
{
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type == PT_TLS)
			return ph->p_memsz == 0 || glibcs(info->dlpi_name) ? NULL : ph;
	}
	return NULL;
}

static int find_block(struct dl_phdr_info *info, size_t size, void *tp)
{
	(void)size;
	const ElfW(Phdr) *ph = tls_segment(info);
	if (!ph)
		return 0;
	if (!info->dlpi_tls_data || nblocks == MAX_BLOCKS) {
		usable = false;
		return 1;
	}
	blocks[nblocks++] = (struct tls_block){
		.offset = (char *)info->dlpi_tls_data - (char *)tp,
		.image = (const char *)(info->dlpi_addr + ph->p_vaddr),
		.filesz = ph->p_filesz,
		.memsz = ph->p_memsz,
	};
	return 0;
}

/* Before the program's constructors (101, as the shadow's reservation):
 * nothing is dlopen'ed yet. */
__attribute__((constructor(101))) static void find_blocks(void)
{
	char *tp = thread_pointer();
	if (!tp)
		return;
	usable = true;
	dl_iterate_phdr(find_block, tp);
}

bool rt_tls_resettable(void)
{
	return usable;
}

/* The same blocks at the same offsets in the calling thread: not so if an
 * object a library's constructor dlopen'ed before ours ran got TLS of the
 * dynamic kind, which lies anywhere. Then nothing is reset, ever. */
static int same_block(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	int *seen = arg;
	if (!tls_segment(info))
		return 0;
	if (*seen >= nblocks ||
	    (char *)info->dlpi_tls_data != thread_pointer() + blocks[*seen].offset) {
		usable = false;
		return 1;
	}
	++*seen;
	return 0;
}

void rt_tls_check(void)
{
	int seen = 0;
	if (usable)
		dl_iterate_phdr(same_block, &seen);
	if (seen != nblocks)
		usable = false;
}

/* ASan's record of the thread's dynamic TLS (sanitizer_tls_get_addr.cpp)
 * lives in the executable's block and points to pages ASan mapped: freed
 * here, as at a thread's exit, before the block's reset forgets them. */
extern void _ZN11__sanitizer12DTLS_DestroyEv(void) __attribute__((weak));

void rt_tls_reset(void)
{
	if (_ZN11__sanitizer12DTLS_DestroyEv)
		_ZN11__sanitizer12DTLS_DestroyEv();
	char *tp = thread_pointer();
	for (int i = 0; i < nblocks; i++) {
		char *b = tp + blocks[i].offset;
		rt_memcpy(b, blocks[i].image, blocks[i].filesz);
		rt_memset(b + blocks[i].filesz, 0, blocks[i].memsz - blocks[i].filesz);
	}
	/* libc's own per-thread state a new thread starts with. */
	errno = 0;
	h_errno = 0;
	uselocale(LC_GLOBAL_LOCALE);
}
