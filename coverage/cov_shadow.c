/* cov_shadow.c - the per-object table: an index by open addressing with
 * linear probing, reset by generation, over cells kept dense in order of
 * creation, in chunks. Memory comes from mmap, not malloc: inside a user's program
 * malloc is interposed and may be watched (PCTVB's heap sites). */
#include <string.h>
#include <sys/mman.h>

#include "cov_shadow.h"

static uint32_t slot_hash(uintptr_t key)
{
	uint64_t h = (uint64_t)key * 0x9e3779b97f4a7c15ull;
	return (uint32_t)(h >> 32);
}

static void *pages(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

static int grow_index(struct cov_shadow *sh)
{
	uint32_t cap = sh->cap ? sh->cap * 2 : 1024;
	struct cov_slot *t = pages((size_t)cap * sizeof *t);
	if (!t)
		return -1;
	/* mmap gives zeroes: generation 0 is never live (gen starts at 1). */
	for (uint32_t i = 0; i < sh->cap; i++) {
		const struct cov_slot *o = &sh->slots[i];
		if (o->gen != sh->gen)
			continue;
		uint32_t j = slot_hash(o->key) & (cap - 1);
		while (t[j].gen == sh->gen)
			j = (j + 1) & (cap - 1);
		t[j] = *o;
	}
	if (sh->slots)
		munmap(sh->slots, (size_t)sh->cap * sizeof *sh->slots);
	sh->slots = t;
	sh->cap = cap;
	return 0;
}

static struct cov_cell *cell(const struct cov_shadow *sh, uint32_t n)
{
	return &sh->chunk[n >> COV_CHUNK_SHIFT][n & (COV_CHUNK_CELLS - 1)];
}

/* The slot holding key in this generation, or the free slot where it
 * would go. The index has room: it is at most half full. */
static uint32_t probe(const struct cov_shadow *sh, uintptr_t key)
{
	uint32_t j = slot_hash(key) & (sh->cap - 1);
	while (sh->slots[j].gen == sh->gen && sh->slots[j].key != key)
		j = (j + 1) & (sh->cap - 1);
	return j;
}

struct cov_cell *cov_shadow_get(struct cov_shadow *sh, uintptr_t key, uint32_t site)
{
	if (sh->gen == 0)
		sh->gen = 1;
	if ((sh->used + 1) * 2 > sh->cap && grow_index(sh) != 0)
		return NULL;
	struct cov_slot *slot = &sh->slots[probe(sh, key)];
	if (slot->gen == sh->gen)
		return cell(sh, slot->cell);
	if (sh->used == sh->chunks << COV_CHUNK_SHIFT) {
		if (sh->chunks == COV_CHUNKS ||
		    !(sh->chunk[sh->chunks] = pages(COV_CHUNK_CELLS * sizeof(struct cov_cell))))
			return NULL;
		sh->chunks++;
	}
	*slot = (struct cov_slot){ .key = key, .gen = sh->gen, .cell = sh->used };
	struct cov_cell *c = cell(sh, sh->used++);
	memset(c, 0, sizeof *c);
	c->key = key;
	c->first_site = site;
	return c;
}

struct cov_cell *cov_shadow_find(const struct cov_shadow *sh, uintptr_t key)
{
	if (!sh->cap)
		return NULL;
	const struct cov_slot *slot = &sh->slots[probe(sh, key)];
	return slot->gen == sh->gen ? cell(sh, slot->cell) : NULL;
}

void cov_shadow_reset(struct cov_shadow *sh)
{
	sh->used = 0;
	if (++sh->gen == 0) { /* wrapped: really clear, once in 2^32 */
		if (sh->slots)
			memset(sh->slots, 0, (size_t)sh->cap * sizeof *sh->slots);
		sh->gen = 1;
	}
}

void cov_shadow_free(struct cov_shadow *sh)
{
	if (sh->slots)
		munmap(sh->slots, (size_t)sh->cap * sizeof *sh->slots);
	for (uint32_t i = 0; i < sh->chunks; i++)
		munmap(sh->chunk[i], COV_CHUNK_CELLS * sizeof(struct cov_cell));
	memset(sh, 0, sizeof *sh);
}
