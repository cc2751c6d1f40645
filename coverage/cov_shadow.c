/* cov_shadow.c - the per-object table: open addressing, linear probing,
 * reset by generation. Memory comes from mmap, not malloc: inside a user's
 * program malloc is interposed and may be watched (PCTVB's heap sites). */
#include <string.h>
#include <sys/mman.h>

#include "cov_shadow.h"

static uint32_t slot_hash(uintptr_t key)
{
	uint64_t h = (uint64_t)key * 0x9e3779b97f4a7c15ull;
	return (uint32_t)(h >> 32);
}

static struct cov_cell *alloc_cells(uint32_t cap)
{
	void *p = mmap(NULL, (size_t)cap * sizeof(struct cov_cell), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

static int grow(struct cov_shadow *sh)
{
	uint32_t cap = sh->cap ? sh->cap * 2 : 1024;
	struct cov_cell *t = alloc_cells(cap);
	if (!t)
		return -1;
	/* mmap gives zeroes: generation 0 is never live (gen starts at 1). */
	for (uint32_t i = 0; i < sh->cap; i++) {
		const struct cov_cell *c = &sh->t[i];
		if (c->gen != sh->gen)
			continue;
		uint32_t j = slot_hash(c->key) & (cap - 1);
		while (t[j].gen == sh->gen)
			j = (j + 1) & (cap - 1);
		t[j] = *c;
	}
	if (sh->t)
		munmap(sh->t, (size_t)sh->cap * sizeof *sh->t);
	sh->t = t;
	sh->cap = cap;
	return 0;
}

/* The slot holding key in this generation, or the free slot where it
 * would go. The table has room: it is at most half full. */
static uint32_t probe(const struct cov_shadow *sh, uintptr_t key)
{
	uint32_t j = slot_hash(key) & (sh->cap - 1);
	while (sh->t[j].gen == sh->gen && sh->t[j].key != key)
		j = (j + 1) & (sh->cap - 1);
	return j;
}

struct cov_cell *cov_shadow_get(struct cov_shadow *sh, uintptr_t key, uint32_t site)
{
	if (sh->gen == 0)
		sh->gen = 1;
	if ((sh->used + 1) * 2 > sh->cap && grow(sh) != 0)
		return NULL;
	struct cov_cell *c = &sh->t[probe(sh, key)];
	if (c->gen == sh->gen)
		return c;
	memset(c, 0, sizeof *c);
	c->key = key;
	c->gen = sh->gen;
	c->first_site = site;
	sh->used++;
	return c;
}

struct cov_cell *cov_shadow_find(const struct cov_shadow *sh, uintptr_t key)
{
	if (!sh->cap)
		return NULL;
	struct cov_cell *c = &sh->t[probe(sh, key)];
	return c->gen == sh->gen ? c : NULL;
}

void cov_shadow_reset(struct cov_shadow *sh)
{
	sh->used = 0;
	if (++sh->gen == 0) { /* wrapped: really clear, once in 2^32 */
		if (sh->t)
			memset(sh->t, 0, (size_t)sh->cap * sizeof *sh->t);
		sh->gen = 1;
	}
}

void cov_shadow_free(struct cov_shadow *sh)
{
	if (sh->t)
		munmap(sh->t, (size_t)sh->cap * sizeof *sh->t);
	memset(sh, 0, sizeof *sh);
}
